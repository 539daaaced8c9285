import type { Browser, Page } from '@playwright/test';
import { nifLetter } from '#shared/validation/identifiers.ts';
import { expect, newUser, signUp, test } from './fixtures.ts';

/**
 * Issue 40 end to end, on the SQLite server and, when the suite has one (CI), on the PostgreSQL one:
 * an advisor makes a template from the 'Solicitud de datos de alta' starter, turns it into an online
 * form and publishes it; a client on a 390 px phone with touch fills it, draws a signature and sends
 * it; the advisor sees the answer with its PDF (holding the signature image) and finds it in the
 * document manager once the firm turns that screen on.
 */
/** A full-page screenshot at the page's own width into DOCUMENTS_SHOTS, when set (the phone stays a phone). */
async function shot(page: Page, name: string): Promise<void> {
  const folder = process.env.DOCUMENTS_SHOTS;
  if (folder) await page.screenshot({ path: `${folder}/${name}.png`, fullPage: true });
}

/** A NAF with its two control digits (the first ten modulo 97). */
const naf = (digits: string) => `${digits}${String(Number(BigInt(digits) % 97n)).padStart(2, '0')}`;

const SERVERS: Array<[string, string | undefined]> = [
  ['SQLite', process.env.E2E_BASE_URL],
  ['PostgreSQL', process.env.E2E_PG_BASE_URL],
];

async function clientSignsOnPhone(browser: Browser, link: string, label: string): Promise<void> {
  const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2, locale: 'es-ES', timezoneId: 'Europe/Madrid' });
  const page = await phone.newPage();
  try {
    await page.goto(link);
    await expect(page.getByRole('heading', { level: 1, name: 'Datos para tu alta' })).toBeVisible();
    await shot(page, `${label}-public-empty-390`);

    // A wrong NIF letter is caught before anything is sent.
    await page.getByLabel(/^Empresa/).fill('Talleres Prueba S.L.');
    await page.getByLabel(/^Nombre \*/).fill('Lucía');
    await page.getByLabel(/^Apellidos/).fill('Martín Ruiz');
    await page.getByLabel(/^NIF/).fill('12345678A');
    await page.getByLabel(/^NAF/).fill(naf('2812345678'));
    await page.getByLabel(/^Fecha de nacimiento/).fill('1990-05-31');
    await page.getByLabel(/^Domicilio/).fill('Calle Mayor 1, Madrid');
    await page.getByLabel(/^IBAN/).fill('ES9121000418450200051332');
    await page.getByLabel(/^Fecha de alta/).fill('2026-12-09');
    await page.getByLabel(/^Puesto/).fill('Administrativa');
    await page.getByRole('button', { name: 'Enviar formulario' }).click();
    // A NIF whose letter is wrong says so (issue 44 §4), not just that it is not valid.
    await expect(page.getByText('La letra del NIF no es correcta')).toBeVisible();
    await page.getByLabel(/^NIF/).fill(`12345678${nifLetter(12345678)}`);

    await page.getByLabel(/^Nombre de quien firma/).fill('Lucía Martín Ruiz');
    // The signature, drawn with a finger: touch events on the pad's canvas.
    const pad = page.getByRole('img', { name: /Recuadro para firmar/ }).or(page.getByLabel(/Recuadro para firmar/)).first();
    await pad.scrollIntoViewIfNeeded();
    const box = await pad.boundingBox();
    if (!box) throw new Error('The signature pad has no box');
    const points = [0.15, 0.3, 0.45, 0.6, 0.75, 0.85].map((x, index) => ({ x: box.x + box.width * x, y: box.y + box.height * (index % 2 === 0 ? 0.35 : 0.65) }));
    await page.mouse.move(points[0]!.x, points[0]!.y);
    await page.mouse.down();
    for (const point of points.slice(1)) await page.mouse.move(point.x, point.y, { steps: 4 });
    await page.mouse.up();
    await expect(page.getByText('Firma recogida.')).toBeVisible();
    await shot(page, `${label}-public-signed-390`);
    // Nothing of the page runs past the phone's width.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

    await page.getByRole('button', { name: 'Enviar formulario' }).click();
    await expect(page.getByRole('heading', { name: 'Hemos recibido tu formulario' })).toBeVisible();
    await shot(page, `${label}-public-done-390`);
  } finally {
    await phone.close();
  }
}

for (const [label, server] of SERVERS) {
  test.describe(`documents on ${label}`, () => {
    test.skip(!server, 'No PostgreSQL server in this run (TEST_DATABASE_URL is not set).');
    test.use({ baseURL: server });

    test(`template → online form → a client's signed answer on a phone → PDF with the signature → the answers and the document manager (${label})`, async ({ page, browser }) => {
      test.setTimeout(180_000);
      await page.setViewportSize({ width: 1366, height: 900 });
      await signUp(page, newUser());

      // The template, from a starter.
      await page.goto('/documentcreator');
      await expect(page.getByRole('heading', { level: 1, name: 'Documentos' })).toBeVisible();
      await page.getByRole('button', { name: 'Empezar con una plantilla de ejemplo' }).first().click();
      await page.getByRole('button', { name: 'Usar la plantilla de ejemplo Solicitud de datos de alta' }).click();
      await expect(page.getByText('Plantilla «Solicitud de datos de alta» creada a partir del ejemplo')).toBeVisible();
      await shot(page, `${label}-template-1366`);

      // The form: its fields are the template's, with their guessed types; then published.
      await page.goto('/documentcreator?tab=formularios');
      await page.getByRole('button', { name: 'Nuevo formulario' }).first().click();
      const create = page.getByRole('dialog', { name: 'Nuevo formulario' });
      await create.getByLabel('Plantilla').selectOption({ label: 'Solicitud de datos de alta' });
      await create.getByRole('button', { name: 'Crear formulario' }).click();
      await page.getByLabel('Título', { exact: true }).fill('Datos para tu alta');
      await expect(page.getByText('Campo 4: [[NIF]]')).toBeVisible();
      await page.getByRole('button', { name: 'Publicar' }).click();
      await expect(page.getByText('Formulario publicado: ya admite respuestas')).toBeVisible();
      const link = await page.getByLabel('Enlace público').inputValue();
      expect(link).toMatch(/\/online-form\/[A-Za-z0-9_-]{22,}$/);
      await shot(page, `${label}-form-published-1366`);

      await clientSignsOnPhone(browser, link, label);

      // The advisor's answers: the client's values, the signer and the PDF once made.
      await page.reload();
      await page.getByRole('radio', { name: /Respuestas \(1\)/ }).or(page.getByRole('button', { name: /Respuestas \(1\)/ })).first().click();
      const answers = page.getByRole('table', { name: 'Respuestas del formulario' });
      await expect(answers.getByText('Lucía Martín Ruiz')).toBeVisible();
      // Its PDF is made in the background: the row offers it once it is ready.
      const pdfLink = answers.getByRole('link', { name: /^Descargar el PDF de la respuesta del \d{2}\/\d{2}\/\d{4} \d{2}:\d{2}$/ });
      await expect(pdfLink).toBeVisible({ timeout: 30_000 });
      await shot(page, `${label}-answers-1366`);
      const download = page.waitForEvent('download');
      await pdfLink.click();
      const pdf = await (await download).createReadStream();
      const chunks: Buffer[] = [];
      for await (const chunk of pdf) chunks.push(chunk as Buffer);
      const bytes = Buffer.concat(chunks);
      expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
      // The drawn signature is an image in the PDF.
      expect(bytes.toString('latin1')).toMatch(/\/Subtype\s*\/Image/);

      // The document manager: off until the owner turns it on in Mi cuenta.
      await page.goto('/userprofile');
      await page.getByLabel(/Gestor documental/).check();
      await page.getByRole('button', { name: 'Guardar pantallas' }).click();
      await expect(page.getByText('Configuración de pantallas guardada')).toBeVisible();
      await page.goto('/documanager?kind=submission');
      await expect(page.getByRole('heading', { level: 1, name: 'Gestor documental' })).toBeVisible();
      await expect(page.getByText(/Datos para tu alta/).first()).toBeVisible();
      await expect(page.getByRole('table').getByText('Talleres Prueba S.L.')).toBeVisible();
      await shot(page, `${label}-documanager-1366`);
      await page.setViewportSize({ width: 390, height: 844 });
      await shot(page, `${label}-documanager-390`);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    });
  });
}
