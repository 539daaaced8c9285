import { screenshotsInto } from './embedded-context.ts';
import { expect, newUser, signUp, test } from './fixtures.ts';
import { newestMailedLink } from './mailbox.ts';

const workbook = 'resources/flows/validar-identificadores/fixtures/trabajadores.xlsx';
const shots = process.env.COLLEAGUES_SHOTS;

test('the owner invites a colleague by email; the colleague joins through the link and sees the firm\'s history', async ({ page, browser, baseURL }) => {
  test.setTimeout(90_000);
  const owner = newUser();
  await signUp(page, owner);

  // A run in the firm's history, launched by the owner.
  await page.goto('/launcher/validar-identificadores');
  await page.getByTestId('file-input').setInputFiles(workbook);
  await expect(page.getByText('Archivo subido')).toBeVisible();
  await page.getByRole('button', { name: 'Lanzar tarea' }).click();
  await expect(page.getByRole('heading', { level: 2, name: 'Resultado' })).toBeVisible({ timeout: 30_000 });

  const colleague = { ...newUser(), name: 'Jorge Sanz' };
  await page.goto('/userprofile');
  const section = page.getByRole('region', { name: 'Compañeros de tu empresa' });
  await section.getByLabel('Email del compañero').fill(colleague.email);
  await section.getByRole('button', { name: 'Enviar invitación' }).click();
  await expect(section.getByText(`Hemos enviado la invitación a ${colleague.email}`)).toBeVisible();
  await expect(section).toContainText(colleague.email);
  await screenshotsInto(shots, page, 'colleagues-owner');

  // The colleague opens the emailed link in a browser of their own.
  let link: string | undefined;
  await expect.poll(async () => (link = await newestMailedLink(colleague.email, 'colleague_invite')), { timeout: 15_000 }).toBeTruthy();
  const context = await browser.newContext({ baseURL });
  const invited = await context.newPage();
  await invited.goto(link ?? '');
  await expect(invited.getByText(/te invita a unirte a .* en AutoAsesor/)).toBeVisible();
  await screenshotsInto(shots, invited, 'invitation');
  await invited.getByLabel('Nombre').fill(colleague.name);
  await invited.getByLabel('Contraseña').fill(colleague.password);
  await invited.getByRole('button', { name: /^Unirme a / }).click();
  await expect(invited).toHaveURL(/\/home$/);

  // The firm's history is theirs too: the owner's run is in it.
  await invited.goto('/flows');
  await expect(invited.getByRole('row', { name: /Validar identificadores Manual .* Finalizado/ })).toHaveCount(1);

  // The link was single use.
  const again = await context.newPage();
  await again.goto(link ?? '');
  await expect(again.getByText('Esta invitación ha caducado, ya se ha usado o se ha retirado.', { exact: false })).toBeVisible();
  await context.close();

  // The owner sees the new member and can remove them.
  await page.reload();
  await expect(section).toContainText(colleague.name);
  await section.getByRole('button', { name: `Quitar a ${colleague.name}` }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Quitar' }).click();
  await expect(page.getByText(`${colleague.name} ya no forma parte de tu empresa`)).toBeVisible();
});
