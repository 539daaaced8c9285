import { formatMadridDate, formatMadridDateTime, toMadridParts } from '../time/madrid.ts';

/**
 * Document templates (spec §3 Document template placeholders). Design, as the spec leaves it open:
 * - [[DATESTAMP]] -> 'dd/mm/yyyy', [[TIMESTAMP]] -> 'HH:mm:ss', [[DATETIMESTAMP]] -> 'dd/mm/yyyy HH:mm',
 *   all on the Madrid clock at `now`;
 * - [[SIGNATURE]] -> values.SIGNATURE when it is given; otherwise the placeholder stays, so a later
 *   signing step can still find where the signature goes;
 * - [[key]] -> the value of `key` (spaces and accents allowed, as in 'Fecha Alta'); arrays are joined
 *   with ', ', null and undefined give ''; keys not in `values` stay visible so typos can be spotted;
 * - [[IF key]]...[[/IF]] keeps its content when the value is truthy and drops it otherwise. Truthy
 *   means not undefined, null, false, 0, NaN, blank text, the text 'false', nor an empty array.
 *   IF blocks nest; an IF without its [[/IF]] is left as written.
 * Values are inserted once and never expanded again, so a value cannot inject placeholders.
 */

export type TemplateValues = Readonly<Record<string, unknown>>;

const INNERMOST_IF = /\[\[IF\s+([^[\]]+?)\s*\]\]((?:(?!\[\[IF\s)[\s\S])*?)\[\[\/IF\]\]/;
const PLACEHOLDER = /\[\[\s*([^[\]]+?)\s*\]\]/g;

export function isTruthyTemplateValue(value: unknown): boolean {
  if (typeof value === 'string') return value.trim() !== '' && value.trim().toLowerCase() !== 'false';
  if (Array.isArray(value)) return value.length > 0;
  return Boolean(value);
}

function valueText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (Array.isArray(value)) return value.map(valueText).join(', ');
  if (value instanceof Date) return formatMadridDate(value);
  return String(value);
}

function resolveConditionals(template: string, values: TemplateValues): string {
  let text = template;
  for (let match = INNERMOST_IF.exec(text); match !== null; match = INNERMOST_IF.exec(text)) {
    const [whole, key = '', body = ''] = match;
    const kept = isTruthyTemplateValue(values[key]) ? body : '';
    text = text.slice(0, match.index) + kept + text.slice(match.index + whole.length);
  }
  return text;
}

export function renderDocumentTemplate(template: string, values: TemplateValues, now: Date): string {
  const { hour, minute, second } = toMadridParts(now);
  const pad = (part: number): string => String(part).padStart(2, '0');
  const stamps: Record<string, string> = {
    DATESTAMP: formatMadridDate(now),
    TIMESTAMP: `${pad(hour)}:${pad(minute)}:${pad(second)}`,
    DATETIMESTAMP: formatMadridDateTime(now),
  };

  return resolveConditionals(template, values).replace(PLACEHOLDER, (placeholder, key: string) => {
    if (Object.hasOwn(stamps, key)) return stamps[key] ?? placeholder;
    if (key === 'SIGNATURE') return typeof values.SIGNATURE === 'string' ? values.SIGNATURE : placeholder;
    return Object.hasOwn(values, key) ? valueText(values[key]) : placeholder;
  });
}
