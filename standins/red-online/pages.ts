/**
 * The RED Online stand-in's pages: Jacada-style screens of ATR01 in the form `jacadaform`, with RED's
 * field names and button ids (research external-systems §2.2). Messages go in `#DIL` as 'NNNN TEXTO'.
 */
import { dilLine, type DilMessage, type Screen1, type Screen2 } from './rules.ts';

export const ATR01_PATH = '/Xhtml?JacadaApplicationName=SGIRED&TRANSACCION=ATR01&E=I&AP=AFIR';

/** The buttons' ids (names too), as the real forms have them where known; ours for screen 2 and Confirmar. */
export const BUTTONS = {
  screen1: 'Sub2207401004',
  screen2: 'Sub2207402001',
  partTimeWarning: 'Sub0600401054',
  warning: 'Sub0000201056',
  confirm: 'Sub2207403001',
} as const;

export type WarningButton = typeof BUTTONS.partTimeWarning | typeof BUTTONS.warning;

const SCREEN1_FIELDS: Array<[name: string, label: string, key: keyof Screen1, size: number]> = [
  ['txt_SDFPROAFI', 'NAF: provincia', 'nafProvince', 2],
  ['txt_SDFCODAFI', 'NAF: número', 'nafNumber', 10],
  ['txt_SDFREGAFI_ayuda', 'Régimen', 'regimen', 4],
  ['txt_SDFTIPPFI_ayuda', 'Tipo de identificador (IPF)', 'ipfType', 1],
  ['txt_SDFNUMPFI', 'Identificador (IPF)', 'ipfNumber', 10],
  ['txt_SDFTESCTACOT', 'CCC: provincia', 'cccProvince', 2],
  ['txt_SDFCTACOT', 'CCC: número', 'cccNumber', 9],
];

const SCREEN2_FIELDS: Array<[name: string, label: string, key: keyof Screen2, size: number]> = [
  ['txt_SDFSITAFI_ayuda', 'Situación', 'situacion', 2],
  ['txt_SDFFREALDD', 'Fecha real: día', 'day', 2],
  ['txt_SDFFREALMM', 'Fecha real: mes', 'month', 2],
  ['txt_SDFFREALAA', 'Fecha real: año', 'year', 4],
  ['txt_SDFGRUCOT_ayuda', 'Grupo de cotización', 'grupoCotizacion', 2],
  ['txt_SDFTICO_ayuda', 'Tipo de contrato', 'tipoContrato', 3],
  ['txt_SDFCOEFCO_ayuda', 'Coeficiente de parcialidad', 'coeficienteParcialidad', 3],
  ['txt_SDFCONVCOL_ayuda', 'Convenio colectivo', 'convenio', 14],
  ['txt_SDFOCUPACION', 'Ocupación (CNO)', 'ocupacion', 4],
];

export function readScreen1(form: URLSearchParams): Screen1 {
  return Object.fromEntries(SCREEN1_FIELDS.map(([name, , key]) => [key, (form.get(name) ?? '').trim().toUpperCase()])) as unknown as Screen1;
}

export function readScreen2(form: URLSearchParams): Screen2 {
  return Object.fromEntries(SCREEN2_FIELDS.map(([name, , key]) => [key, (form.get(name) ?? '').trim()])) as unknown as Screen2;
}

function inputs<T>(fields: Array<[string, string, keyof T, number]>, values: Partial<T>): string {
  return fields
    .map(([name, label, key, size]) => `<p><label for="${name}">${label}</label> <input type="text" id="${name}" name="${name}" maxlength="${size}" size="${size}" value="${escapeHtml(String(values[key] ?? ''))}"></p>`)
    .join('\n');
}

function dilBlock(message: DilMessage | null): string {
  return `<div id="DIL">${message ? escapeHtml(dilLine(message)) : ''}</div>`;
}

function form(body: string): string {
  return `<form name="jacadaform" id="jacadaform" method="post" action="${escapeHtml(ATR01_PATH)}">\n${body}\n</form>`;
}

export function screen1Page(values: Partial<Screen1>, message: DilMessage | null): string {
  return page(
    'ATR01 - Alta/Baja (1/2)',
    `<h1>Altas y bajas de trabajadores</h1>
${dilBlock(message)}
${form(`<p><label for="cbo_ListaAltasBajas">Movimiento</label> <select id="cbo_ListaAltasBajas" name="cbo_ListaAltasBajas"><option value="0" selected>Alta</option><option value="1">Baja</option></select></p>
${inputs(SCREEN1_FIELDS, values)}
<p><input type="submit" id="${BUTTONS.screen1}" name="${BUTTONS.screen1}" value="Continuar"></p>`)}`,
  );
}

export function screen2Page(values: Partial<Screen2>, message: DilMessage | null): string {
  return page(
    'ATR01 - Alta/Baja (2/2)',
    `<h1>Datos del alta</h1>
${dilBlock(message)}
${form(`${inputs(SCREEN2_FIELDS, values)}
<p><label for="txt_SDFCOLTRA_ayuda">Colectivo</label> <input type="text" id="txt_SDFCOLTRA_ayuda" name="txt_SDFCOLTRA_ayuda" maxlength="3" size="3"></p>
<p><input type="submit" id="${BUTTONS.screen2}" name="${BUTTONS.screen2}" value="Continuar"></p>`)}`,
  );
}

/** A warning: its code in #DIL and the button that goes on. */
export function warningPage(message: DilMessage, button: WarningButton): string {
  return page('ATR01 - Aviso', `<h1>Aviso</h1>\n${dilBlock(message)}\n${form(`<p><input type="submit" id="${button}" name="${button}" value="Continuar"></p>`)}`);
}

export function confirmPage(summary: Array<[string, string]>): string {
  const rows = summary.map(([label, value]) => `<tr><th>${escapeHtml(label)}</th><td>${escapeHtml(value)}</td></tr>`).join('\n');
  return page(
    'ATR01 - Confirmación',
    `<h1>Confirme los datos del alta</h1>
${dilBlock(null)}
<table id="resumen">${rows}</table>
${form(`<p><input type="submit" id="${BUTTONS.confirm}" name="${BUTTONS.confirm}" value="Confirmar"></p>`)}`,
  );
}

/** The answer after Confirmar (or a fatal code there): #DIL, and the resolution when admitted. */
export function answerPage(message: DilMessage, resolution: string | null): string {
  return page(
    'ATR01 - Resultado',
    `<h1>Resultado</h1>
${dilBlock(message)}
${resolution ? `<pre id="resolucion">${escapeHtml(resolution)}</pre>` : ''}
<p><a id="nueva-alta" href="${escapeHtml(ATR01_PATH)}">Nueva alta</a></p>`,
  );
}

export function refusedPage(reason: string): string {
  return page('Acceso denegado', `<h1>Acceso denegado</h1>\n<p id="mensaje-error">${escapeHtml(reason)}</p>`);
}

export function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="es"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head>
<body>
${body}
</body></html>`;
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}
