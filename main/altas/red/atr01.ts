/**
 * One alta through RED Online's ATR01 in a browser page (research external-systems §2.2): screen 1 (NAF,
 * régimen, IPF, CCC), screen 2 (situación, fecha real, grupo, contrato, coeficiente, convenio, ocupación),
 * the warning pages, Confirmar, and the answer in #DIL ('NNNN texto'). A code other than the non-fatal
 * ones ends the alta with RED's own text. The screen-2 and Confirmar buttons are found by their label:
 * the research names only screen 1's (#Sub2207401004) and the warnings' ids.
 */
import type { Page } from 'playwright-core';
import type { RedAltaRecord, RedResult } from '#shared/api/altas.ts';
import type { AltasLog } from '../types.ts';

export const ATR01_PATH = '/Xhtml?JacadaApplicationName=SGIRED&TRANSACCION=ATR01&E=I&AP=AFIR';
/** Codes the known RED robots go past (research §2.2); any other code is fatal. */
export const RED_NON_FATAL_CODES: readonly string[] = ['3408', '9125', '9086', '0350'];
const MAX_WARNING_PAGES = 6;

const SELECTORS = {
  form: 'form#jacadaform',
  dil: '#DIL',
  altaOrBaja: '#cbo_ListaAltasBajas',
  screen1Submit: '#Sub2207401004',
  screen2Marker: '#txt_SDFSITAFI_ayuda',
  warningButtons: ['#Sub0600401054', '#Sub0000201056'],
  continueButton: 'form#jacadaform input[type="submit"][value="Continuar"]',
  confirmButton: 'form#jacadaform input[type="submit"][value="Confirmar"]',
  resolution: '#resolucion',
} as const;

/** A page RED Online should not have shown at this step: the alta fails with this message. */
export class UnexpectedRedPage extends Error {}

export interface DilAnswer {
  code: string | null;
  text: string;
}

export function parseDil(text: string): DilAnswer {
  const trimmed = text.replace(/\s+/g, ' ').trim();
  return { code: /^(\d{4})\b/.exec(trimmed)?.[1] ?? null, text: trimmed };
}

const isFatal = (answer: DilAnswer) => answer.code !== null && !RED_NON_FATAL_CODES.includes(answer.code);

/** 'yyyy-mm-dd' -> the three boxes of the fecha real. */
function dateBoxes(iso: string): { day: string; month: string; year: string } {
  const [year = '', month = '', day = ''] = iso.split('-');
  return { day, month, year };
}

export interface Atr01Options {
  log: AltasLog;
  /** ATR01's full address on this RED Online. */
  atr01Url: string;
}

/** Files one alta; throws UnexpectedRedPage (or Playwright's timeout) when the pages are not what ATR01 shows. */
export async function fileAltaInAtr01(page: Page, record: RedAltaRecord, { log, atr01Url }: Atr01Options): Promise<RedResult> {
  const who = `${record.worker} (${record.company})`;
  const fail = (answer: DilAnswer): RedResult => {
    log('error', `${who}: RED ha rechazado el alta: ${answer.text}`);
    return { submissionId: record.submissionId, state: 'error', message: answer.text.slice(0, 1000) };
  };

  log('info', `${who}: abriendo el alta de trabajadores (ATR01)`);
  const response = await page.goto(atr01Url);
  if (response && response.status() === 403) throw new CertificateRefused(await bodyText(page));
  await expectOn(page, SELECTORS.screen1Submit, 'la pantalla 1 del alta');

  log('info', `${who}: pantalla 1 (NAF, IPF y cuenta de cotización)`);
  await page.selectOption(SELECTORS.altaOrBaja, '0');
  await page.fill('#txt_SDFPROAFI', record.nafProvince);
  await page.fill('#txt_SDFCODAFI', record.nafNumber);
  await page.fill('#txt_SDFREGAFI_ayuda', record.regimen);
  await page.fill('#txt_SDFTIPPFI_ayuda', record.ipfType);
  await page.fill('#txt_SDFNUMPFI', record.ipfNumber);
  await page.fill('#txt_SDFTESCTACOT', record.cccProvince);
  await page.fill('#txt_SDFCTACOT', record.cccNumber);
  await submit(page, SELECTORS.screen1Submit);
  let answer = await readDil(page);
  if (isFatal(answer)) return fail(answer);
  await expectOn(page, SELECTORS.screen2Marker, 'la pantalla 2 del alta');

  log('info', `${who}: pantalla 2 (fecha real ${record.fechaReal}, contrato ${record.tipoContrato})`);
  const { day, month, year } = dateBoxes(record.fechaReal);
  await page.fill('#txt_SDFSITAFI_ayuda', record.situacion);
  await page.fill('#txt_SDFFREALDD', day);
  await page.fill('#txt_SDFFREALMM', month);
  await page.fill('#txt_SDFFREALAA', year);
  await page.fill('#txt_SDFGRUCOT_ayuda', record.grupoCotizacion.padStart(2, '0'));
  await page.fill('#txt_SDFTICO_ayuda', record.tipoContrato);
  await page.fill('#txt_SDFCOEFCO_ayuda', record.coeficienteParcialidad);
  await page.fill('#txt_SDFCONVCOL_ayuda', record.convenio);
  await page.fill('#txt_SDFOCUPACION', record.ocupacion);
  await submit(page, SELECTORS.continueButton);

  answer = await passWarnings(page, who, log);
  if (isFatal(answer)) return fail(answer);
  if ((await page.locator(SELECTORS.confirmButton).count()) === 0) {
    throw new UnexpectedRedPage(`RED Online ha mostrado una página inesperada tras la pantalla 2 («${await page.title()}»)`);
  }

  log('info', `${who}: confirmando el alta`);
  await submit(page, SELECTORS.confirmButton);
  // A warning may also come after Confirmar; the answer is on the page after the last one.
  answer = await passWarnings(page, who, log);
  if (isFatal(answer)) return fail(answer);
  if (answer.code === null) throw new UnexpectedRedPage(`RED Online no ha dado respuesta al confirmar («${await page.title()}»)`);
  const resolution = (await page.locator(SELECTORS.resolution).count()) > 0 ? (await page.locator(SELECTORS.resolution).innerText()).trim() : '';
  const message = [answer.text, resolution].filter(Boolean).join('\n').slice(0, 1000);
  log('info', `${who}: RED ha admitido el alta: ${answer.text}`);
  return { submissionId: record.submissionId, state: 'registered', message };
}

/** Goes past the warning pages (a non-fatal code and a warning button) and answers the #DIL of the page after them. */
async function passWarnings(page: Page, who: string, log: AltasLog): Promise<DilAnswer> {
  for (let warnings = 0; ; warnings += 1) {
    const answer = await readDil(page);
    if (isFatal(answer)) return answer;
    const warningButton = await firstPresent(page, SELECTORS.warningButtons);
    if (warningButton === null) return answer;
    if (warnings === MAX_WARNING_PAGES) throw new UnexpectedRedPage(`RED Online ha mostrado más de ${MAX_WARNING_PAGES} avisos seguidos`);
    log('warn', `${who}: aviso de RED: ${answer.text || 'sin texto'}; se continúa`);
    await submit(page, warningButton);
  }
}

/** RED Online refused the certificate itself: no alta of the batch can go through. */
export class CertificateRefused extends Error {
  constructor(reason: string) {
    super(`RED Online no ha aceptado el certificado${reason ? `: ${reason}` : ''}`);
  }
}

/** Presses a button and waits for the page it loads. */
async function submit(page: Page, selector: string): Promise<void> {
  await Promise.all([page.waitForEvent('domcontentloaded'), page.click(selector)]);
}

async function readDil(page: Page): Promise<DilAnswer> {
  const dil = page.locator(SELECTORS.dil);
  if ((await dil.count()) === 0) throw new UnexpectedRedPage(`RED Online ha mostrado una página sin mensajes (#DIL): «${await page.title()}»`);
  return parseDil(await dil.first().innerText());
}

async function expectOn(page: Page, selector: string, what: string): Promise<void> {
  if ((await page.locator(selector).count()) === 0) throw new UnexpectedRedPage(`RED Online no ha mostrado ${what} («${await page.title()}»)`);
}

async function firstPresent(page: Page, selectors: readonly string[]): Promise<string | null> {
  for (const selector of selectors) if ((await page.locator(selector).count()) > 0) return selector;
  return null;
}

async function bodyText(page: Page): Promise<string> {
  const text = await page.locator('body').innerText().catch(() => '');
  return text.replace(/\s+/g, ' ').replace(/^Acceso denegado\s*/, '').trim().slice(0, 300);
}
