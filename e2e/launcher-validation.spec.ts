import { readFileSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import * as XLSX from 'xlsx';
import { expect, newUser, signUp, test } from './fixtures.ts';

const DAY = 86_400_000;

/** A certificate as a PC syncs it (no agent: the web app only needs the synced facts). */
function syncedCertificate(name: string, nif: string, daysLeft: number) {
  return {
    fingerprint: createHash('sha256').update(`cert:${name}`).digest('hex'),
    serialNumber: createHash('md5').update(name).digest('hex').toUpperCase(),
    subjectString: `CN=${name} - ${nif}, serialNumber=IDCES-${nif}, C=ES`,
    commonName: `${name} - ${nif}`,
    issuer: 'AC FNMT Usuarios',
    notBefore: new Date(Date.now() - 700 * DAY).toISOString(),
    notAfter: new Date(Date.now() + daysLeft * DAY + DAY / 2).toISOString(),
    nifVat: nif,
    kind: 'person',
    store: 'windows',
  };
}

test('Descargar justificantes from the web: Hasta before Desde, NIF 1234 and an expired certificate are refused in the wizard; nothing is queued', async ({ page }) => {
  await signUp(page, newUser());
  const expired = syncedCertificate('CADUCADO PEREZ ANA', '00000000T', -10);
  const soon = syncedCertificate('PRONTO GARCIA LUIS', '12345678Z', 20);
  const synced = await page.request.post(`/api/certificates?machineName=${encodeURIComponent('PC Oficina')}`, {
    data: { machineHashCode: createHash('sha256').update(`pc:${Date.now()}`).digest('hex'), digitalCertificates: [expired, soon] },
  });
  expect([200, 201], await synced.text()).toContain(synced.status());

  await page.goto('/launcher/descargar-justificantes');
  await expect(page.getByRole('heading', { level: 1, name: 'Descargar justificantes' })).toBeVisible();
  await page.getByRole('radio', { name: /PC Oficina/ }).check();

  // The expired certificate cannot be picked: the reason, in Spanish, beside the button.
  await page.getByRole('button', { name: 'Elegir certificado' }).click();
  let picker = page.getByRole('dialog', { name: 'Elige certificado' });
  await picker.getByRole('radio', { name: expired.commonName }).click();
  await picker.getByRole('button', { name: 'Aceptar' }).click();
  await expect(page.getByRole('alert').filter({ hasText: `El certificado «${expired.commonName}» caducó el` })).toBeVisible();
  await expect(page.getByText('Ningún certificado elegido.')).toBeVisible();

  // One that expires within 30 days is taken, with a warning in words.
  await page.getByRole('button', { name: 'Elegir certificado' }).click();
  picker = page.getByRole('dialog', { name: 'Elige certificado' });
  await picker.getByRole('radio', { name: soon.commonName }).click();
  await picker.getByRole('button', { name: 'Aceptar' }).click();
  await expect(page.getByText(/Atención: este certificado caduca en 20 días/)).toBeVisible();

  await page.getByLabel(/^Desde/).fill('2026-03-31');
  await page.getByLabel(/^Hasta/).fill('2026-03-01');
  await page.getByLabel(/^NIF del titular/).fill('1234');
  let launches = 0;
  page.on('request', (request) => {
    if (request.method() === 'POST' && request.url().includes('/api/browserflow/execution/')) launches += 1;
  });
  await page.getByRole('button', { name: 'Lanzar tarea' }).click();
  await expect(page.getByText('«Hasta» no puede ser anterior a «Desde»')).toBeVisible();
  await expect(page.getByText('Introduce un NIF, NIE o CIF válido')).toBeVisible();
  expect(launches).toBe(0);
  await expect(page.getByRole('heading', { level: 2, name: 'Certificado y periodo' })).toBeVisible();
});

test('Validar identificadores: the template downloads from beside the file input, and an empty workbook is refused naming the expected headers', async ({ page }, testInfo) => {
  await signUp(page, newUser());
  await page.goto('/launcher/validar-identificadores');
  await expect(page.getByRole('heading', { level: 1, name: 'Validar identificadores' })).toBeVisible();

  // The template link is reachable from the keyboard and downloads the flow's workbook.
  const link = page.getByRole('link', { name: 'Descargar plantilla' });
  await link.focus();
  await expect(link).toBeFocused();
  const [download] = await Promise.all([page.waitForEvent('download'), page.keyboard.press('Enter')]);
  expect(download.suggestedFilename()).toBe('plantilla.xlsx');
  expect(readFileSync(await download.path()).subarray(0, 2).toString('latin1')).toBe('PK');

  // A workbook with headers and no rows.
  const book = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet([['Producto', 'Precio']]), 'Hoja1');
  const emptyPath = testInfo.outputPath('vacio.xlsx');
  writeFileSync(emptyPath, XLSX.write(book, { type: 'buffer', bookType: 'xlsx' }) as Buffer);
  await page.getByTestId('file-input').setInputFiles(emptyPath);
  await expect(page.getByText('Archivo subido')).toBeVisible();
  await expect(page.getByText('La hoja «Hoja1» no tiene filas de datos: añade al menos una fila debajo de los encabezados.')).toBeVisible();
  await page.getByRole('button', { name: 'Lanzar tarea' }).click();
  await expect(page.getByRole('heading', { level: 2, name: 'Resultado' })).toHaveCount(0);

  // Rows, but no header the robot knows: the message names the headers it expects.
  const otherBook = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(otherBook, XLSX.utils.aoa_to_sheet([['Producto', 'Precio'], ['Lápiz', 1]]), 'Hoja1');
  const unknownPath = testInfo.outputPath('productos.xlsx');
  writeFileSync(unknownPath, XLSX.write(otherBook, { type: 'buffer', bookType: 'xlsx' }) as Buffer);
  await page.getByTestId('file-input').setInputFiles(unknownPath);
  await expect(page.getByText(/No se reconoce ninguna columna del archivo\. El robot espera encabezados como: «NIF\/NIE», «NAF \(número de afiliación\)», «IBAN»/)).toBeVisible();
});
