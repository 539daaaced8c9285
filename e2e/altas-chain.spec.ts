import { randomUUID } from 'node:crypto';
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { madridDayKey } from '#shared/time/madrid.ts';
import { nifLetter } from '#shared/validation/identifiers.ts';
import { screenshotsInto } from './embedded-context.ts';
import { expect, newUser, signUp, test } from './fixtures.ts';
import { linksIn, mailsTo } from './mailbox.ts';

/**
 * Issue 44, items 3 and 5, in the web app as a web-only firm meets them: a company sends two altas and the
 * advisors hear of it (mail with the link, and Home); the rows name the NIF and fecha de alta and word the
 * chain; RED's button explains how to file without the desktop; Ver Alta shows RED's refusal and when, and
 * 'Marcar como registrada' files the other by hand; the company's page says which is registered and which
 * its firm is reviewing, never RED's error. ALTAS_CHAIN_SHOTS keeps screenshots at 1366 and 390 px.
 */
const shot = (page: Page, name: string) => screenshotsInto(process.env.ALTAS_CHAIN_SHOTS, page, name);
const withControl = (digits: string) => `${digits}${String(Number(BigInt(digits) % 97n)).padStart(2, '0')}`;
const dni = (number: string) => `${number}${nifLetter(Number(number))}`;
/** Serious or critical axe findings inside `selector` (the parts this spec is about). */
async function seriousAxe(page: Page, selector: string): Promise<string[]> {
  const { violations } = await new AxeBuilder({ page }).include(selector).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).analyze();
  return violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical').map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
}
const overflows = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);

test('a web-only firm hears of a company’s altas, files one by hand, and both sides read the chain in words', async ({ page, browser, baseURL }) => {
  test.setTimeout(150_000);
  const advisor = newUser();
  await signUp(page, advisor);

  // The firm's form, a company with its CCC and a group, through the API the screens call.
  const slug = `cadena-${randomUUID().slice(0, 8)}`;
  expect((await page.request.put('/api/users/formToFlow', { multipart: { title: 'Altas de la Asesoría Cadena', url: slug } })).status()).toBe(200);
  const companyEmail = `rrhh-${randomUUID().slice(0, 8)}@empresa.test`;
  const ccc = withControl('281234567');
  const created = await page.request.post('/api/form-to-flow-user/client', { data: { name: 'Talleres Cadena S.L.', email: companyEmail, cccList: [{ label: 'Sede', key: ccc }] } });
  expect(created.status(), await created.text()).toBe(201);
  const companyId = ((await created.json()) as { _id: string })._id;
  const groupKey = randomUUID();
  const groupValues = { Jornada: 'completa', 'Tipo Contrato*': '100', 'Grupo Cotización': '05', 'Convenio Colectivo': '28000435011981', 'CN Ocupación': '4111' };
  expect((await page.request.post(`/api/form-to-flow-client-group/${companyId}/groups`, { data: { [groupKey]: { text: 'Administrativo/a', fieldsValues: groupValues } } })).status()).toBe(200);
  expect((await page.request.put(`/api/form-to-flow-user/sendemail/${companyId}`)).status()).toBe(200);
  let mail = '';
  await expect.poll(async () => (mail = (await mailsTo(companyEmail)).at(-1)?.text ?? '')).toContain(slug);
  const password = /contraseña:?\s*(\S+)/i.exec(mail)?.[1] ?? '';

  // The company sends two altas from its own browser.
  const companyContext = await browser.newContext({ baseURL });
  const form = await companyContext.newPage();
  await form.goto(`/form/flows/${slug}`);
  await form.getByLabel(/^Email/).fill(companyEmail);
  await form.getByLabel(/^Contraseña/).fill(password);
  await form.getByRole('button', { name: 'Entrar' }).click();
  const today = madridDayKey(new Date());
  const [year, month, day] = today.split('-');
  const shownDay = `${day}/${month}/${year}`;
  const send = async (nombre: string, apellido: string, nif: string, naf: string) => {
    await form.getByLabel(/^Perfil del puesto/).selectOption({ label: 'Administrativo/a' });
    await form.getByLabel(/^Nombre/).fill(nombre);
    await form.getByLabel(/^Primer apellido/).fill(apellido);
    await form.getByLabel(/^Tipo de documento/).selectOption({ label: 'D.N.I./N.I.F.' });
    await form.getByLabel(/^Número de documento/).fill(nif);
    await form.getByLabel(/^Número de afiliación/).fill(naf);
    await form.getByLabel(/^Sexo/).selectOption({ label: 'Mujer' });
    await form.getByLabel(/^Fecha de nacimiento/).fill('1990-05-31');
    await form.getByLabel(/^Fecha de alta/).fill(today);
    await form.getByLabel(/^Cuenta de cotización/).selectOption({ label: `Sede · ${ccc}` });
    await form.getByRole('button', { name: 'Enviar alta' }).click();
    await expect(form.getByText(`Hemos recibido el alta de ${nombre} ${apellido}`)).toBeVisible();
  };
  await send('Lucía', 'Martín', dni('12345678'), withControl('2898765432'));
  await form.getByRole('button', { name: 'Enviar otra alta' }).click();
  await send('Pedro', 'Sanz', dni('23456789'), withControl('2811111111'));

  // The advisors hear of it: a mail per alta with its link (through the outbox), and Home's count.
  let advisorMails: string[] = [];
  await expect.poll(async () => (advisorMails = (await mailsTo(advisor.email)).filter((each) => each.subject.startsWith('Nueva alta de Talleres Cadena S.L.')).map((each) => each.text)).length, { timeout: 30_000 }).toBe(2);
  const altaLink = advisorMails.flatMap(linksIn).find((address) => address.includes('/altasybajas?alta='));
  expect(altaLink).toBeTruthy();
  await page.goto('/home');
  await expect(page.getByText('Tienes 2 altas nuevas de tus empresas por registrar')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Ver altas' })).toHaveAttribute('href', '/altasybajas');

  // RED refuses Pedro's (as a robot reports it: the advisor's session may report too).
  const { items } = (await (await page.request.get('/api/form-to-flow-submission')).json()) as { items: { _id: string; title: string }[] };
  const pedro = items.find((item) => item.title.startsWith('Pedro Sanz'))!;
  const refusal = await page.request.post('/api/form-to-flow-submission/red-results', { data: { results: [{ submissionId: pedro._id, state: 'error', message: '3012 EL TRABAJADOR YA FIGURA DE ALTA EN ESTE CCC' }] } });
  expect(refusal.status()).toBe(200);

  // The list: NIF and fecha de alta in each row, the chain in words.
  await page.goto('/altasybajas');
  const pending = page.getByRole('region', { name: 'Pendientes' });
  const luciaRow = pending.getByRole('listitem').filter({ hasText: 'Lucía Martín' });
  await expect(luciaRow.getByText(dni('12345678'))).toBeVisible();
  await expect(luciaRow.getByText(shownDay)).toBeVisible();
  await expect(luciaRow.getByRole('list', { name: 'Estado del alta' })).toContainText('Pendiente de RED');
  const pedroRow = pending.getByRole('listitem').filter({ hasText: 'Pedro Sanz' });
  await expect(pedroRow.getByRole('list', { name: 'Estado del alta' })).toContainText('Rechazada por RED');
  expect(await seriousAxe(page, '.altas-lists')).toEqual([]);
  await shot(page, 'altas-cadena-lista');
  await page.setViewportSize({ width: 390, height: 844 });
  expect(await overflows(page)).toBe(false);
  await page.setViewportSize({ width: 1280, height: 720 });

  // Without the desktop, RED's button says how to file: no machine linked yet, so the install steps.
  await page.getByRole('button', { name: 'Altas Automáticas S. RED' }).click();
  const web = page.getByRole('dialog', { name: 'Registrar altas en Sistema RED' });
  await expect(web.getByText('Aún no tienes ningún equipo conectado')).toBeVisible();
  await expect(web.getByRole('link', { name: 'Ir a Mis recursos' })).toBeVisible();
  expect(await seriousAxe(page, '[role="dialog"]')).toEqual([]);
  await shot(page, 'altas-cadena-sin-escritorio');
  await web.getByRole('button', { name: 'Entendido' }).click();

  // Ver Alta of Pedro's: RED's refusal and when.
  await pedroRow.getByRole('button', { name: 'Ver Alta' }).click();
  const view = page.getByRole('dialog', { name: 'Ver Alta' });
  await expect(view.getByRole('note')).toContainText(/^Último error de Sistema RED \(\d\d\/\d\d\/\d\d \d\d:\d\d\): 3012 EL TRABAJADOR YA FIGURA/);
  expect(await seriousAxe(page, '.altas-state')).toEqual([]);
  await shot(page, 'altas-cadena-ver-error');
  await view.getByRole('button', { name: 'Cancelar' }).first().click();
  await expect(view).toBeHidden();

  // The advisor's mail link opens Lucía's Ver Alta; she filed it by other means: 'Marcar como registrada'.
  const luciaMail = advisorMails.find((text) => text.includes('Lucía Martín')) ?? '';
  const luciaLink = new URL(linksIn(luciaMail).find((address) => address.includes('/altasybajas?alta=')) ?? '/', baseURL);
  await page.goto(`${luciaLink.pathname}${luciaLink.search}`);
  const lucia = page.getByRole('dialog', { name: 'Ver Alta' });
  await expect(lucia.getByLabel(/^Nombre/).first()).toHaveValue('Lucía');
  await lucia.getByRole('button', { name: 'Marcar como registrada' }).click();
  const confirm = lucia.getByRole('group', { name: 'Marcar como registrada en Sistema RED' });
  await confirm.getByLabel('Número de referencia de RED (opcional)').fill('RED-2026-0042');
  await confirm.getByRole('button', { name: 'Marcar como registrada' }).click();
  await expect(lucia.getByText(new RegExp(`^Marcada como registrada por ${advisor.name} el \\d\\d/\\d\\d/\\d\\d \\d\\d:\\d\\d\\. Número de referencia: RED-2026-0042$`))).toBeVisible();
  await expect(lucia.getByRole('list', { name: 'Estado del alta' })).toContainText('Registrada en RED');
  await shot(page, 'altas-cadena-ver-registrada');
  await lucia.getByRole('button', { name: 'Cancelar' }).first().click();
  const history = page.getByRole('region', { name: 'Historial' });
  await expect(history.getByText(/Lucía Martín/)).toBeVisible();
  await expect(history.getByRole('list', { name: 'Estado del alta' })).toContainText('Registrada en RED');

  // The company is told, the date as people write it; its page says where each alta stands, in its words.
  await expect.poll(async () => (await mailsTo(companyEmail)).find((each) => each.subject.startsWith('Alta registrada'))?.text ?? '').toContain(`Fecha real de alta: ${shownDay}`);
  await form.goto(`/form/flows/${slug}`);
  const sent = form.getByRole('list', { name: 'Altas enviadas' });
  await expect(sent.getByRole('listitem').filter({ hasText: 'Pedro Sanz' })).toContainText('En revisión por tu asesoría');
  await expect(sent.getByRole('listitem').filter({ hasText: 'Lucía Martín' })).toContainText('Registrada en la Seguridad Social');
  await expect(sent).not.toContainText('3012');
  expect(await seriousAxe(form, '.form-submissions')).toEqual([]);
  await shot(form, 'altas-cadena-empresa');
  await form.setViewportSize({ width: 390, height: 844 });
  expect(await overflows(form)).toBe(false);
  await companyContext.close();
});
