import { randomUUID } from 'node:crypto';
import { crc32, deflateSync } from 'node:zlib';
import type { Page } from '@playwright/test';
import { madridDayKey } from '#shared/time/madrid.ts';
import { nifLetter } from '#shared/validation/identifiers.ts';
import { screenshotsInto } from './embedded-context.ts';
import { expect, newUser, signUp, test } from './fixtures.ts';
import { linksIn, mailsTo } from './mailbox.ts';

/**
 * Issue 44, items 1 and 4, in the web app as a new user meets them: the form URL's rule and the logo's
 * preview (blob: allowed by the CSP), a CCC row without its name, a group whose coefficient RED would
 * refuse, and on the company's form a worker under 16, a NIF with the wrong letter and the same alta sent
 * twice, each said under its field. ALTAS_RULES_SHOTS keeps screenshots at 1366 and 390 px.
 */
const shot = (page: Page, name: string) => screenshotsInto(process.env.ALTAS_RULES_SHOTS, page, name);

const withControl = (digits: string) => `${digits}${String(Number(BigInt(digits) % 97n)).padStart(2, '0')}`;
const dni = (number: string) => `${number}${nifLetter(Number(number))}`;
/** A grey PNG of this size: a real image, so its preview has a width once it loads. */
function png(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // RGB
  const row = Buffer.concat([Buffer.from([0]), Buffer.alloc(width * 3, 0x66)]);
  const pixels = deflateSync(Buffer.concat(Array.from({ length: height }, () => row)));
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', header), chunk('IDAT', pixels), chunk('IEND', Buffer.alloc(0))]);
}
const PNG = png(120, 40);

test('the altas rules are said under their fields, on the advisor’s screens and the company’s form', async ({ page, browser, baseURL }) => {
  test.setTimeout(120_000);
  const cspViolations: string[] = [];
  page.on('console', (message) => {
    if (message.text().includes('Content Security Policy')) cspViolations.push(message.text());
  });
  await signUp(page, newUser());
  await page.goto('/altasybajas');
  await expect(page.getByRole('heading', { level: 1, name: 'Altas y bajas' })).toBeVisible();

  // The form URL: its rule under the field; the logo's preview shows (blob: images are allowed).
  await page.getByRole('button', { name: 'Configuración del formulario' }).click();
  const formDialog = page.getByRole('dialog', { name: 'Configuración del formulario' });
  await formDialog.getByLabel(/^Título del formulario/).fill('Altas de Talleres Reglas');
  const url = formDialog.getByLabel(/^URL del formulario/);
  await url.fill('Asesoría López');
  await formDialog.getByRole('button', { name: 'Guardar' }).click();
  await expect(formDialog.getByText(/^La URL solo puede llevar letras minúsculas/)).toBeVisible();
  await expect(url).toHaveAttribute('aria-invalid', 'true');
  await formDialog.getByLabel('Logo').setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: PNG });
  const preview = formDialog.getByRole('img', { name: 'Vista previa del logo' });
  await expect(preview).toHaveAttribute('src', /^blob:/);
  await expect.poll(() => preview.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth)).toBe(120);
  expect(cspViolations).toEqual([]);
  await shot(page, 'altas-reglas-url');
  const slug = `reglas-${randomUUID().slice(0, 8)}`;
  await url.fill(slug);
  await formDialog.getByRole('button', { name: 'Guardar' }).click();
  await expect(page.getByText('Configuración del formulario guardada correctamente.')).toBeVisible();
  await formDialog.getByRole('button', { name: 'Cancelar' }).click();

  // A company whose CCC row has no name: the row says so.
  const companyEmail = `rrhh-${randomUUID().slice(0, 8)}@empresa.test`;
  const ccc = withControl('281234567');
  await page.getByRole('button', { name: 'Configuración de empresas y grupos' }).click();
  await page.getByRole('button', { name: 'Nueva Empresa' }).click();
  const companyDialog = page.getByRole('dialog', { name: 'Nueva Empresa' });
  await companyDialog.getByLabel(/^Nombre de la empresa/).fill('Talleres Reglas S.L.');
  await companyDialog.getByLabel(/^Email de la empresa/).fill(companyEmail);
  await companyDialog.getByRole('textbox', { name: 'CCC 1' }).fill(ccc);
  await companyDialog.getByRole('button', { name: 'Guardar' }).click();
  await expect(companyDialog.getByText('Falta el nombre de esta cuenta (por ejemplo, el centro de trabajo)')).toBeVisible();
  await expect(companyDialog.getByRole('textbox', { name: 'Nombre 1' })).toBeFocused();
  await shot(page, 'altas-reglas-ccc');
  await companyDialog.getByRole('textbox', { name: 'Nombre 1' }).fill('Sede');
  await companyDialog.getByRole('button', { name: 'Guardar' }).click();
  await expect(page.getByText('Empresa creada correctamente')).toBeVisible();

  // A group at full time with 500 ‰: refused under the coefficient.
  await page.getByRole('button', { name: /^Talleres Reglas S\.L\./ }).click();
  await page.getByRole('button', { name: 'Nuevo grupo' }).click();
  const groupDialog = page.getByRole('dialog', { name: 'Nuevo grupo' });
  await groupDialog.getByLabel(/^Nombre del grupo/).fill('Administrativo/a');
  await groupDialog.getByRole('combobox', { name: /^Jornada/ }).selectOption('completa');
  await groupDialog.getByRole('combobox', { name: /^Tipo de contrato/ }).selectOption('100');
  await groupDialog.getByLabel(/^Coeficiente de parcialidad/).fill('500');
  await groupDialog.getByRole('button', { name: 'Guardar' }).click();
  await expect(groupDialog.getByText('Con jornada completa el coeficiente de parcialidad va vacío (o 1000 ‰)')).toBeVisible();
  await shot(page, 'altas-reglas-grupo');
  await groupDialog.getByRole('button', { name: 'Cancelar' }).click();
  // The server refuses it too; without a coefficient it is the group the company fills the form with.
  const { items: companies } = (await (await page.request.get('/api/form-to-flow-client')).json()) as { items: { _id: string }[] };
  const groupValues = { Jornada: 'completa', 'Tipo Contrato*': '100', 'Grupo Cotización': '05', 'Convenio Colectivo': '28000435011981', 'CN Ocupación': '4111' };
  const groupsPath = `/api/form-to-flow-client-group/${companies[0]!._id}/groups`;
  const refused = await page.request.post(groupsPath, { data: { [randomUUID()]: { text: 'Administrativo/a', fieldsValues: { ...groupValues, 'Coeficiente Parcialidad': '500' } } } });
  expect(refused.status()).toBe(400);
  expect((await page.request.post(groupsPath, { data: { [randomUUID()]: { text: 'Administrativo/a', fieldsValues: groupValues } } })).status()).toBe(200);
  await page.reload();
  await page.getByRole('button', { name: 'Configuración de empresas y grupos' }).click();
  await page.getByRole('button', { name: 'Enviar Email' }).click();
  await expect(page.getByText(`El email se ha enviado correctamente a ${companyEmail}`)).toBeVisible();
  let mail = '';
  await expect.poll(async () => (mail = (await mailsTo(companyEmail)).at(-1)?.text ?? '')).toContain(slug);
  const link = linksIn(mail).find((address) => address.includes(`/form/flows/${slug}`))!;
  const password = /contraseña:?\s*(\S+)/i.exec(mail)?.[1];

  // The company's form: a worker of 11, a NIF with the wrong letter, then the same alta twice.
  const companyContext = await browser.newContext({ baseURL });
  const form = await companyContext.newPage();
  await form.goto(link);
  await form.getByLabel(/^Email/).fill(companyEmail);
  await form.getByLabel(/^Contraseña/).fill(password!);
  await form.getByRole('button', { name: 'Entrar' }).click();
  const fill = async (nif: string, birth: string) => {
    await form.getByLabel(/^Perfil del puesto/).selectOption({ label: 'Administrativo/a' });
    await form.getByLabel(/^Nombre/).fill('Lucía');
    await form.getByLabel(/^Primer apellido/).fill('Martín');
    await form.getByLabel(/^Tipo de documento/).selectOption({ label: 'D.N.I./N.I.F.' });
    await form.getByLabel(/^Número de documento/).fill(nif);
    await form.getByLabel(/^Número de afiliación/).fill(withControl('2898765432'));
    await form.getByLabel(/^Sexo/).selectOption({ label: 'Mujer' });
    await form.getByLabel(/^Fecha de nacimiento/).fill(birth);
    await form.getByLabel(/^Fecha de alta/).fill(madridDayKey(new Date()));
    await form.getByLabel(/^Cuenta de cotización/).selectOption({ label: `Sede · ${ccc}` });
  };
  const good = dni('12345678');
  const wrongLetter = `12345678${good.endsWith('A') ? 'B' : 'A'}`;
  await fill(wrongLetter, '2015-03-10');
  await form.getByRole('button', { name: 'Enviar alta' }).click();
  await expect(form.getByText(/^Tendría 11 años en la fecha de alta: la edad mínima para trabajar es 16$/)).toBeVisible();
  await expect(form.getByText('La letra del NIF no es correcta')).toBeVisible();
  await shot(form, 'altas-reglas-formulario');
  await form.getByLabel(/^Número de documento/).fill(good);
  await form.getByLabel(/^Fecha de nacimiento/).fill('1990-05-31');
  await form.getByRole('button', { name: 'Enviar alta' }).click();
  await expect(form.getByText('Hemos recibido el alta de Lucía Martín')).toBeVisible();
  await form.getByRole('button', { name: 'Enviar otra alta' }).click();
  await fill(good, '1990-05-31');
  await form.getByRole('button', { name: 'Enviar alta' }).click();
  await expect(form.getByText('Ya se ha enviado un alta de esta persona con la misma fecha de alta y cuenta de cotización')).toBeVisible();
  await expect(form.getByLabel(/^Número de documento/)).toHaveAttribute('aria-invalid', 'true');
  await shot(form, 'altas-reglas-repetida');
  await companyContext.close();
});
