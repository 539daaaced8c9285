import type { Locator, Page } from 'playwright-core';
import type { RobotFile, RobotResult } from '#shared/flows/robot.ts';
import { compactIdentifier, isValidCif, isValidNie, isValidNif } from '#shared/validation/identifiers.ts';
import type { DesktopRobot, DesktopRobotContext } from '../_lib/desktop.ts';
import { downloadBytes, isPdf, readPortalSettings, textOf } from '../_lib/portal.ts';
import { stoppedResult, wrongInput } from '../_lib/run.ts';

/**
 * Descargar justificantes: logs in to the administration's portal with the chosen certificate (mutual
 * TLS, presented by the browser the runtime opens), searches the holder's documents between two dates,
 * reads the results table and downloads each PDF, as a person would. Built after DEHú's web access and
 * run against the stand-in portal (standins/portal); the portal's address and selectors are data in
 * settings.json, so another portal (or the real one) differs only there.
 *
 * No results is a Success with 0 documents (nothing is wrong with an empty period; the log says so); an
 * inverted period or a NIF the portal will not search is WrongInput; a refused certificate is a Fail
 * with the portal's own reason.
 */

const CERTIFICATE_INPUT = 'certificado';

/** The selectors of settings.json this robot uses. */
const SELECTOR_NAMES = [
  'loginLink', 'welcome', 'holderNif', 'searchLink', 'nif', 'dateFrom', 'dateTo', 'searchButton',
  'resultsTable', 'resultRow', 'resultId', 'resultDate', 'resultConcept', 'resultDownload', 'noResults', 'errorMessage', 'logoutLink',
] as const;
type Selectors = Record<(typeof SELECTOR_NAMES)[number], string>;

export const certificateRefused = (reason: string) => `El portal ha rechazado el certificado: ${reason}`;

/** A page that is not what the robot expects: the portal is down, or it changed and the selectors are stale. */
class PortalError extends Error {}

const PORTAL_TIMEOUT_MESSAGE =
  'El portal no ha respondido a tiempo o le falta un elemento de la página. Puede que no responda o que haya cambiado (revisa los selectores de la configuración del robot).';

/** Playwright's TimeoutError (a click or a download that never came), told by its name: robots import no values from it. */
function isTimeout(error: unknown): boolean {
  return error instanceof Error && error.name === 'TimeoutError';
}

interface Request {
  certificate: string;
  from: string;
  to: string;
  /** '' when the holder's own NIF (the certificate's) is wanted. */
  nif: string;
}

interface ListedDocument {
  id: string;
  date: string;
  concept: string;
  row: Locator;
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

/** 2026-03-14 -> 14/03/2026, as the advisor reads dates (anything else is shown as the portal wrote it). */
function spanishDate(iso: string): string {
  if (!ISO_DATE.test(iso)) return iso;
  const [year, month, day] = iso.split('-');
  return `${day}/${month}/${year}`;
}

function isHolderId(text: string): boolean {
  return isValidNif(text) || isValidNie(text) || isValidCif(text);
}

function readRequest(inputs: Readonly<Record<string, unknown>>): Request | RobotResult {
  const certificate = inputs[CERTIFICATE_INPUT];
  if (typeof certificate !== 'string' || certificate.trim() === '') return wrongInput('Elige el certificado con el que se entra en el portal.');
  const from = inputs['desde'];
  const to = inputs['hasta'];
  if (typeof from !== 'string' || typeof to !== 'string' || !ISO_DATE.test(from) || !ISO_DATE.test(to)) {
    return wrongInput('Indica las fechas Desde y Hasta del periodo.');
  }
  if (from > to) return wrongInput(`La fecha Desde (${spanishDate(from)}) es posterior a la fecha Hasta (${spanishDate(to)}): corrígelas.`);
  const given = typeof inputs['nif'] === 'string' ? compactIdentifier(inputs['nif']) : '';
  if (given !== '' && !isHolderId(given)) return wrongInput(`«${String(inputs['nif'])}» no es un NIF, NIE ni CIF válido.`);
  return { certificate, from, to, nif: given };
}

/**
 * Waits until one of the selectors shows on the page and says which (the first listed wins when several
 * do); a page with none of them is a PortalError naming the step.
 */
async function whichAppears<Name extends string>(page: Page, step: string, candidates: Record<Name, string>): Promise<Name> {
  const names = Object.keys(candidates) as Name[];
  const any = names.map((name) => page.locator(candidates[name])).reduce((all, next) => all.or(next));
  try {
    await any.first().waitFor();
  } catch {
    throw new PortalError(`${step}: el portal no ha mostrado la página esperada. Puede que no responda o que haya cambiado (revisa los selectores de la configuración del robot).`);
  }
  for (const name of names) if ((await page.locator(candidates[name]).count()) > 0) return name;
  return names[0]!;
}

async function logIn(page: Page, selectors: Selectors, baseUrl: URL, log: DesktopRobotContext['log']): Promise<{ holder: string; nif: string } | RobotResult> {
  log('info', `Abriendo el portal ${baseUrl.origin}.`);
  try {
    await page.goto(baseUrl.href);
  } catch (error) {
    // Chromium's own reason ('net::ERR_CONNECTION_REFUSED'), without Playwright's call name and the address again.
    const reason = (error instanceof Error ? (error.message.split('\n')[0] ?? '') : String(error)).replace(/^page\.goto: /, '').replace(/ at \S+$/, '');
    throw new PortalError(`No se ha podido abrir el portal ${baseUrl.origin}: ${reason}`);
  }
  await whichAppears(page, 'Página de inicio', { loginLink: selectors.loginLink });
  await page.click(selectors.loginLink);
  const shown = await whichAppears(page, 'Acceso con certificado', { welcome: selectors.welcome, refused: selectors.errorMessage });
  if (shown === 'refused') {
    const reason = await textOf(page.locator(selectors.errorMessage));
    log('error', certificateRefused(reason));
    return { result: 'Fail', message: certificateRefused(reason), usageUnits: 0, outputs: [] };
  }
  const holder = await textOf(page.locator(selectors.welcome));
  const nif = compactIdentifier(await textOf(page.locator(selectors.holderNif)));
  if (!isHolderId(nif)) throw new PortalError(`El portal no muestra el NIF del titular del certificado (se ha leído «${nif}»).`);
  log('info', `Dentro del portal: «${holder}», NIF ${nif}.`);
  return { holder, nif };
}

async function search(page: Page, selectors: Selectors, request: Request, nif: string): Promise<ListedDocument[] | RobotResult> {
  await page.click(selectors.searchLink);
  await whichAppears(page, 'Formulario de búsqueda', { form: selectors.dateFrom });
  await page.fill(selectors.nif, nif);
  await page.fill(selectors.dateFrom, request.from);
  await page.fill(selectors.dateTo, request.to);
  await page.click(selectors.searchButton);
  const shown = await whichAppears(page, 'Resultados de la búsqueda', {
    table: selectors.resultsTable, none: selectors.noResults, error: selectors.errorMessage,
  });
  if (shown === 'error') return wrongInput(`El portal no ha aceptado la búsqueda: ${await textOf(page.locator(selectors.errorMessage))}`);
  if (shown === 'none') return [];
  const rows = await page.locator(selectors.resultRow).all();
  return Promise.all(
    rows.map(async (row) => ({
      row,
      id: await textOf(row.locator(selectors.resultId)),
      date: await textOf(row.locator(selectors.resultDate)),
      concept: await textOf(row.locator(selectors.resultConcept)),
    })),
  );
}

/** Clicks the row's download link and returns the PDF, or null (with a warning) when it is not one. */
async function download(page: Page, selectors: Selectors, document: ListedDocument, log: DesktopRobotContext['log']): Promise<RobotFile | null> {
  const [started] = await Promise.all([
    page.waitForEvent('download'),
    document.row.locator(selectors.resultDownload).first().click(),
  ]);
  const failure = await started.failure();
  if (failure !== null) {
    log('warn', `No se ha podido descargar el justificante ${document.id}: ${failure}.`);
    return null;
  }
  const data = await downloadBytes(started);
  await started.delete();
  if (!isPdf(data)) {
    log('warn', `Lo descargado para el justificante ${document.id} no es un PDF; no se guarda.`);
    return null;
  }
  const suggested = started.suggestedFilename();
  return { name: /\.pdf$/i.test(suggested) ? suggested : `${document.id || suggested}.pdf`, data };
}

async function logOut(page: Page, selectors: Selectors): Promise<void> {
  // Courtesy only: a session the portal keeps open does no harm, so a missing link is not a failure.
  const link = page.locator(selectors.logoutLink);
  if ((await link.count()) > 0) await link.first().click({ timeout: 5_000 }).catch(() => undefined);
}

async function run(context: DesktopRobotContext): Promise<RobotResult> {
  const request = readRequest(context.inputs);
  if ('result' in request) return request;
  const settings = readPortalSettings(context.settings, SELECTOR_NAMES);
  if (!settings.ok) return { result: 'Fail', message: settings.problem, usageUnits: 0, outputs: [] };
  const { baseUrl, selectors, pageTimeoutMs } = settings.value;

  const page = await context.openBrowser({ certificateInput: CERTIFICATE_INPUT, origins: [baseUrl.origin] });
  // Every wait (a page, an element, a download) gives up after this; the portal's pace sets it.
  page.setDefaultTimeout(pageTimeoutMs);
  try {
    const session = await logIn(page, selectors, baseUrl, context.log);
    if ('result' in session) return session;
    const nif = request.nif || session.nif;
    const period = `entre el ${spanishDate(request.from)} y el ${spanishDate(request.to)}`;
    context.log('info', `Buscando los justificantes del NIF ${nif} ${period}.`);
    const found = await search(page, selectors, request, nif);
    if ('result' in found) {
      context.log('warn', found.message ?? 'El portal no ha aceptado la búsqueda.');
      return found;
    }
    const summary = { NIF: nif, Desde: spanishDate(request.from), Hasta: spanishDate(request.to), 'Justificantes encontrados': found.length };
    if (found.length === 0) {
      context.log('info', `El portal no tiene justificantes del NIF ${nif} ${period}: no hay nada que descargar.`);
      context.progress(0, 0);
      await logOut(page, selectors);
      return { result: 'Success', usageUnits: 0, outputs: [], summary: { ...summary, 'Justificantes descargados': 0 } };
    }

    context.log('info', `${found.length} ${found.length === 1 ? 'justificante encontrado' : 'justificantes encontrados'}.`);
    context.progress(0, found.length);
    const outputs: RobotFile[] = [];
    for (const [index, document] of found.entries()) {
      if (context.signal.aborted) {
        context.log('warn', `Detenido después de descargar ${outputs.length} de ${found.length} justificantes.`);
        return stoppedResult();
      }
      const file = await download(page, selectors, document, context.log);
      if (file !== null) {
        outputs.push(file);
        context.log('info', `Descargado ${file.name}: ${document.concept} (${spanishDate(document.date)}).`);
      }
      context.progress(index + 1, found.length);
    }
    await logOut(page, selectors);
    const missed = found.length - outputs.length;
    context.log(missed === 0 ? 'info' : 'warn', `Descargados ${outputs.length} de ${found.length} justificantes${missed === 0 ? '.' : `; ${missed} no se han podido descargar.`}`);
    return { result: 'Success', usageUnits: outputs.length, outputs, summary: { ...summary, 'Justificantes descargados': outputs.length } };
  } catch (error) {
    const message = error instanceof PortalError ? error.message : isTimeout(error) ? PORTAL_TIMEOUT_MESSAGE : null;
    if (message === null) throw error;
    context.log('error', message);
    return { result: 'Fail', message, usageUnits: 0, outputs: [] };
  }
}

const robot = { run } satisfies DesktopRobot;
export default robot;
