import { makeSupportAgent } from './database.ts';
import { screenshotsInto } from './embedded-context.ts';
import { expect, newUser, signUp, test } from './fixtures.ts';
import { mailsTo } from './mailbox.ts';

const shots = process.env.SUPPORT_SHOTS;

test('a firm opens a ticket on Ayuda, the support team answers from its desk, the user is emailed and replies', async ({ page, browser, baseURL }) => {
  const advisor = newUser();
  await signUp(page, advisor);
  const subject = `El robot no encuentra el certificado ${advisor.email.slice(6, 14)}`;

  await page.goto('/help');
  await expect(page.getByText('Aún no has abierto ninguna consulta')).toBeVisible();
  await page.getByRole('link', { name: 'Nueva consulta' }).first().click();
  await page.getByLabel('Asunto').fill(subject);
  await page.getByLabel('¿De qué trata?').selectOption({ label: 'Certificados y equipos' });
  await page.getByLabel('Mensaje').fill('Al lanzar Descargar justificantes dice que no hay certificado, pero está instalado.');
  await screenshotsInto(shots, page, 'help-new-ticket');
  await page.getByRole('button', { name: 'Enviar' }).click();
  await expect(page.getByRole('heading', { name: subject })).toBeVisible();
  await expect(page.getByText('Pendiente de soporte').first()).toBeVisible();

  // The support team: a user of the server's support role, in a browser of its own.
  const agent = newUser();
  const agentContext = await browser.newContext({ baseURL });
  const desk = await agentContext.newPage();
  await signUp(desk, agent);
  makeSupportAgent(agent.email);
  await desk.goto('/soporte');
  await desk.getByRole('link', { name: subject }).click();
  await expect(desk.getByText('Al lanzar Descargar justificantes dice que no hay certificado')).toBeVisible();
  await desk.getByLabel('Tu respuesta').fill('Abre Mis recursos y pulsa "Sincronizar certificados" en el equipo; después vuelve a lanzarlo.');
  await desk.getByRole('button', { name: 'Responder' }).click();
  await expect(desk.getByText('Respuesta enviada')).toBeVisible();
  await screenshotsInto(shots, desk, 'support-desk');
  await agentContext.close();

  // The advisor is emailed, and Ayuda shows the unread answer.
  await expect.poll(async () => (await mailsTo(advisor.email)).filter((mail) => mail.subject === `Respuesta a tu consulta: ${subject}`).length, { timeout: 15_000 }).toBe(1);
  await page.goto('/help');
  await expect(page.getByText('Tienes 1 respuesta nueva de soporte')).toBeVisible();
  await page.getByRole('link', { name: subject }).click();
  await expect(page.getByText('Sincronizar certificados')).toBeVisible();
  await page.getByLabel('Tu respuesta').fill('Hecho, ya funciona. ¡Gracias!');
  await page.getByRole('button', { name: 'Responder' }).click();
  await expect(page.getByText('Hecho, ya funciona. ¡Gracias!')).toBeVisible();
  await expect(page.getByText('Pendiente de soporte').first()).toBeVisible();
  await screenshotsInto(shots, page, 'help-ticket');
});

test('the support desk is not there for a firm: /soporte is a page that does not exist', async ({ page }) => {
  await signUp(page, newUser());
  await page.goto('/soporte');
  await expect(page.getByRole('heading', { name: 'Esta página no existe' })).toBeVisible();
});
