import { randomUUID } from 'node:crypto';
import type { Page } from '@playwright/test';
import { nifLetter } from '#shared/validation/identifiers.ts';
import { madridDayKey } from '#shared/time/madrid.ts';
import { NAF_ALWAYS_IN_ALTA } from '../standins/red-online/rules.ts';
import { E2E_CERTIFICATES } from './certificates.ts';
import { embeddedContext, screenshotsInto } from './embedded-context.ts';
import { expect, newUser, signUp, test } from './fixtures.ts';
import { linksIn, mailsTo } from './mailbox.ts';

/**
 * Issue 23 end to end: the advisor configures the form and a company, emails it its credentials (through
 * the suite's SMTP capture), the company signs in on the public form and sends two altas (a bad NIF is
 * caught first), and the advisor registers them in RED Online (the mutual-TLS stand-in, with a certificate
 * of the agent's NSS store: one admitted, one refused by a fatal #DIL code) and then in A3 (the importer
 * stand-in). Runs on the suite's agent, so it sits in the desktop lane.
 */
const ELENA = E2E_CERTIFICATES[0]!;
const shot = (page: Page, name: string) => screenshotsInto(process.env.ALTAS_SHOTS, page, name);

test.skip(!process.env.E2E_NSS_DB, 'NSS tools (certutil, pk12util) are not installed: the agent has no test store.');

/** A CCC or NAF with its two control digits (the first digits modulo 97). */
const withControl = (digits: string) => `${digits}${String(Number(BigInt(digits) % 97n)).padStart(2, '0')}`;
const dni = (number: string) => `${number}${nifLetter(Number(number))}`;



/** The company fills one worker's alta on the public form. */
async function fillAlta(page: Page, worker: { nombre: string; apellido: string; nif: string; naf: string; ccc: string }): Promise<void> {
  await page.getByLabel(/^Perfil del puesto/).selectOption({ label: 'Administrativo/a' });
  await page.getByLabel(/^Nombre/).fill(worker.nombre);
  await page.getByLabel(/^Primer apellido/).fill(worker.apellido);
  await page.getByLabel(/^Tipo de documento/).selectOption({ label: 'D.N.I./N.I.F.' });
  await page.getByLabel(/^Número de documento/).fill(worker.nif);
  await page.getByLabel(/^Número de afiliación/).fill(worker.naf);
  await page.getByLabel(/^Sexo/).selectOption({ label: 'Mujer' });
  await page.getByLabel(/^Fecha de nacimiento/).fill('1990-05-31');
  await page.getByLabel(/^Fecha de alta/).fill(madridDayKey(new Date()));
  await page.getByLabel(/^Cuenta de cotización/).selectOption({ label: worker.ccc });
}

test('the company sends its altas through the emailed form; the advisor registers them in RED Online and A3 from the desktop', async ({ browser, baseURL }) => {
  test.setTimeout(180_000);
  const advisor = newUser();
  const desktop = await embeddedContext(browser, baseURL ?? '');
  const page = await desktop.newPage();
  await signUp(page, advisor);
  await page.goto('/altasybajas');
  await expect(page.getByRole('heading', { level: 1, name: 'Altas y bajas' })).toBeVisible();

  // The form's public face: title and URL (stored with the '/form/flows/' prefix).
  const slug = `altas-${randomUUID().slice(0, 8)}`;
  await page.getByRole('button', { name: 'Configuración del formulario' }).click();
  const formDialog = page.getByRole('dialog', { name: 'Configuración del formulario' });
  await formDialog.getByLabel(/^Título del formulario/).fill('Altas de la Asesoría Prueba');
  await formDialog.getByLabel(/^URL del formulario/).fill(slug);
  await formDialog.getByRole('button', { name: 'Guardar' }).click();
  await expect(page.getByText('Configuración del formulario guardada correctamente.')).toBeVisible();
  await formDialog.getByRole('button', { name: 'Cancelar' }).click();

  // A company with its CCC; without a group it cannot be emailed (§8).
  const companyEmail = `rrhh-${randomUUID().slice(0, 8)}@empresa.test`;
  const ccc = withControl('281234567');
  await page.getByRole('button', { name: 'Configuración de empresas y grupos' }).click();
  await page.getByRole('button', { name: 'Nueva Empresa' }).click();
  const companyDialog = page.getByRole('dialog', { name: 'Nueva Empresa' });
  await companyDialog.getByLabel(/^Nombre de la empresa/).fill('Talleres Prueba S.L.');
  await companyDialog.getByLabel(/^Email de la empresa/).fill(companyEmail);
  await companyDialog.getByLabel(/^Nombre/).last().fill('Sede');
  await companyDialog.getByLabel(/^CCC/).first().fill(ccc);
  await companyDialog.getByRole('button', { name: 'Guardar' }).click();
  await expect(page.getByText('Empresa creada correctamente')).toBeVisible();
  await page.getByRole('button', { name: 'Enviar Email' }).click();
  await expect(page.getByText('Necesitas crear al menos un grupo en la empresa Talleres Prueba S.L. para continuar.')).toBeVisible();

  // Its group (the advisor's contract values), made through the API the group modal calls.
  const { items: companies } = (await (await page.request.get('/api/form-to-flow-client')).json()) as { items: { _id: string }[] };
  const groupKey = randomUUID();
  const groupValues = { Jornada: 'completa', 'Tipo Contrato*': '100', 'Grupo Cotización': '05', 'Convenio Colectivo': '28000435011981', 'CN Ocupación': '4111' };
  const created = await page.request.post(`/api/form-to-flow-client-group/${companies[0]!._id}/groups`, { data: { [groupKey]: { text: 'Administrativo/a', fieldsValues: groupValues } } });
  expect(created.status(), await created.text()).toBeLessThan(300);
  await page.reload();
  await page.getByRole('button', { name: 'Configuración de empresas y grupos' }).click();
  await expect(page.getByText('1 grupo')).toBeVisible();
  await shot(page, 'altas-empresas');
  await page.getByRole('button', { name: 'Enviar Email' }).click();
  await expect(page.getByText(`El email se ha enviado correctamente a ${companyEmail}`)).toBeVisible();

  // The email the company got: the form's link, its user and a password.
  let mail = '';
  await expect.poll(async () => (mail = (await mailsTo(companyEmail)).at(-1)?.text ?? '')).toContain(slug);
  const link = linksIn(mail).find((address) => address.includes(`/form/flows/${slug}`))!;
  const password = /contraseña:?\s*(\S+)/i.exec(mail)?.[1];
  expect(password, mail).toBeTruthy();

  // The company, in a browser of its own, signs in and sends two altas; a bad NIF is caught first.
  const companyContext = await browser.newContext({ baseURL });
  const form = await companyContext.newPage();
  await form.goto(link);
  await expect(form.getByRole('heading', { name: 'Altas de la Asesoría Prueba' })).toBeVisible();
  await form.getByLabel(/^Email/).fill(companyEmail);
  await form.getByLabel(/^Contraseña/).fill(password!);
  await form.getByRole('button', { name: 'Entrar' }).click();
  const cccLabel = `Sede · ${ccc}`;
  const good = { nombre: 'Lucía', apellido: 'Martín', nif: '12345678X', naf: withControl('2898765432'), ccc: cccLabel };
  await fillAlta(form, good);
  await form.getByRole('button', { name: 'Enviar alta' }).click();
  await expect(form.getByText('La letra del NIF no es correcta')).toBeVisible();
  await shot(form, 'altas-formulario-error');
  await form.getByLabel(/^Número de documento/).fill(dni('12345678'));
  await form.getByRole('button', { name: 'Enviar alta' }).click();
  await expect(form.getByText('Hemos recibido el alta de Lucía Martín')).toBeVisible();
  await form.getByRole('button', { name: 'Enviar otra alta' }).click();
  await fillAlta(form, { nombre: 'Pedro', apellido: 'Sanz', nif: dni('23456789'), naf: NAF_ALWAYS_IN_ALTA, ccc: cccLabel });
  await form.getByRole('button', { name: 'Enviar alta' }).click();
  await expect(form.getByText('Hemos recibido el alta de Pedro Sanz')).toBeVisible();
  await shot(form, 'altas-formulario-enviado');
  await companyContext.close();

  // The advisor sees both in 'Pendientes' and registers them in RED Online with ELENA's certificate.
  await page.goto('/altasybajas');
  const pending = page.getByRole('region', { name: 'Pendientes' });
  await expect(pending.getByText(/Lucía Martín/)).toBeVisible();
  await expect(pending.getByText(/Pedro Sanz/)).toBeVisible();
  await pending.getByRole('checkbox', { name: 'Seleccionar todas las altas de Pendientes' }).check();
  await page.getByRole('button', { name: 'Altas Automáticas S. RED' }).click();
  const redDialog = page.getByRole('dialog', { name: 'Altas Automáticas S. RED' });
  await redDialog.getByRole('radio', { name: new RegExp(ELENA.commonName) }).check();
  await redDialog.getByRole('button', { name: 'Registrar altas' }).click();
  await expect(page.getByText(/1 registrada, 1 con error\./)).toBeVisible({ timeout: 90_000 });
  // Filing from the button is a run of 'Altas Automáticas S. RED' on this PC, in the history like any launch (issue 44, 5).
  type Runs = { items: { result: string | null; successfulIterations: number; totalIterations: number; machine: { name: string } | null }[] };
  const runsOf = async (flow: string) => ((await (await page.request.get(`/api/flowlog?flow=${flow}`)).json()) as Runs).items;
  expect(await runsOf('altas-automaticas-red')).toEqual([expect.objectContaining({ result: 'Success', successfulIterations: 1, totalIterations: 2 })]);

  // The refused one stays pending with RED's #DIL text; the admitted one moved to 'Historial'.
  const history = page.getByRole('region', { name: 'Historial' });
  await expect(history.getByText(/Lucía Martín/)).toBeVisible();
  await pending.getByRole('button', { name: /Ver el error de Pedro Sanz/ }).click();
  await expect(page.getByText(/^3012 /)).toBeVisible();
  await shot(page, 'altas-panel');

  // Then into A3 through its import folder: the RED run let go of its selection, so only the registered one goes.
  await expect(pending.getByRole('checkbox', { name: 'Seleccionar todas las altas de Pendientes' })).not.toBeChecked();
  await history.getByRole('checkbox', { name: /Seleccionar Lucía Martín/ }).check();
  await page.getByRole('button', { name: 'Sincronizar con A3' }).click();
  await expect(page.getByText(/1 sincronizada con A3, 0 con error\./)).toBeVisible({ timeout: 60_000 });
  expect(await runsOf('sincronizar-altas-a3')).toEqual([expect.objectContaining({ result: 'Success', successfulIterations: 1, totalIterations: 1 })]);

  // The company was told (the chain's last step), by email with RED's answer.
  await expect.poll(async () => (await mailsTo(companyEmail)).length).toBe(2);
  await desktop.close();
});
