import type { ClientCompany, FormField, Submission } from '#shared/api/altas.ts';
import { altaRuleErrors } from '#shared/altas/alta-rules.ts';
import { FIELD } from '#shared/altas/form-definition.ts';
import { formatAltaDay } from '#shared/altas/records.ts';
import { apiErrorSchema } from '#shared/api/errors.ts';
import { formFieldError } from '#shared/forms/index.ts';
import type { Output } from '#shared/api/flows.ts';
import type { Machine } from '#shared/api/machines.ts';
import { altasRunCounts } from '#shared/altas/runs.ts';
import { toMadridParts } from '#shared/time/madrid.ts';
import { altas as text } from '../../i18n/es-altas.ts';

/** The rules of the /altasybajas screen as plain functions, tested without React. */

const pad = (value: number) => String(value).padStart(2, '0');

/** Spec §9: registration rows show 'dd/mm/yy hh:mm', on the Madrid clock. */
export function formatRowDate(iso: string): string {
  const instant = new Date(iso);
  if (Number.isNaN(instant.getTime())) return '';
  const { year, month, day, hour, minute } = toMadridParts(instant);
  return `${pad(day)}/${pad(month)}/${pad(year % 100)} ${pad(hour)}:${pad(minute)}`;
}

/** Spec §4 Registration lifecycle: pending until Sistema RED has it; then history. */
export function splitSubmissions(items: readonly Submission[]): { pending: Submission[]; history: Submission[] } {
  const visible = items.filter((item) => !item.removed);
  return {
    pending: visible.filter((item) => item.processed.syncSistemaRed === null),
    history: visible.filter((item) => item.processed.syncSistemaRed !== null),
  };
}

/** Lowercase without accents, so 'garcia' finds 'García'. */
export function searchKey(value: string): string {
  return value.normalize('NFD').replace(/\p{Diacritic}/gu, '').toLowerCase().trim();
}

export function byCompany(items: readonly Submission[], companyId: string): Submission[] {
  return companyId === '' ? [...items] : items.filter((item) => item.company._id === companyId);
}

export function byName(items: readonly Submission[], search: string): Submission[] {
  const wanted = searchKey(search);
  return wanted === '' ? [...items] : items.filter((item) => searchKey(item.title).includes(wanted));
}

/** The company filter's label: its name and its CCCs (spec §2: 'a company by CCC'). */
export function companyLabel(company: ClientCompany): string {
  const cccs = company.fieldsValues.CCC.map((row) => row.key).filter((key) => key !== '');
  return cccs.length === 0 ? company.fieldsValues.nombreEmpresa : `${company.fieldsValues.nombreEmpresa} · ${cccs.join(', ')}`;
}

export interface ChainStep {
  key: 'received' | 'red' | 'a3' | 'notified';
  /** The step in words as it stands now ('Registrada en RED', 'Pendiente de A3'…), never 'hecho'/'pendiente'. */
  label: string;
  at: string | null;
  /** RED or A3 refused it: the step needs the advisor. */
  refused: boolean;
}

/** Where the last error came from: RED until RED has it, A3 after (null: no error). */
export function errorSource(submission: Submission): 'red' | 'a3' | null {
  if (!submission.lastError) return null;
  return (submission.chain.redAt ?? submission.processed.syncSistemaRed) === null ? 'red' : 'a3';
}

/** Issue 23 ★ and issue 44 (5): received -> RED -> A3 -> company told, each worded as it stands, with its time when done. */
export function chainSteps(submission: Submission): ChainStep[] {
  const { chain } = submission;
  const redAt = chain.redAt ?? submission.processed.syncSistemaRed;
  const a3At = chain.a3At ?? submission.processed.syncA3;
  const source = errorSource(submission);
  const redPending = submission.afiFile ? text.chain.afiWaiting : source === 'red' ? text.chain.redRefused : text.chain.redPending;
  return [
    { key: 'received', label: text.chain.received, at: chain.receivedAt, refused: false },
    { key: 'red', label: redAt ? text.chain.redDone : redPending, at: redAt, refused: !redAt && source === 'red' },
    { key: 'a3', label: a3At ? text.chain.a3Done : source === 'a3' ? text.chain.a3Refused : text.chain.a3Pending, at: a3At, refused: !a3At && source === 'a3' },
    { key: 'notified', label: chain.companyNotifiedAt ? text.chain.notifiedDone : text.chain.notifiedPending, at: chain.companyNotifiedAt, refused: false },
  ];
}

/** A row's NIF and fecha de alta as people read them (issue 44, 5); '' when the alta has none. */
export function rowFacts(submission: Submission): { nif: string; fechaAlta: string } {
  const nif = submission.fieldsValues[FIELD.nif];
  return { nif: typeof nif === 'string' ? nif.trim() : '', fechaAlta: formatAltaDay(submission.fieldsValues[FIELD.fechaAlta]) };
}

/** Adds or removes one id. */
export function toggled(selection: ReadonlySet<string>, id: string, on: boolean): Set<string> {
  const next = new Set(selection);
  if (on) next.add(id);
  else next.delete(id);
  return next;
}

/** 'Seleccionar todas' over what the list shows now: ticks them all, or clears them when all were ticked. */
export function toggledAll(selection: ReadonlySet<string>, shownIds: readonly string[]): Set<string> {
  const next = new Set(selection);
  const allOn = shownIds.length > 0 && shownIds.every((id) => selection.has(id));
  for (const id of shownIds) {
    if (allOn) next.delete(id);
    else next.add(id);
  }
  return next;
}

export interface ServerFailure {
  status: number;
  message: string | null;
  /** Per-field messages of a 400 ({ fieldKey: message }). */
  fields: Record<string, string>;
}

/** A failed RTK Query call as status, the server's Spanish message and its per-field messages. */
export function readServerFailure(error: unknown): ServerFailure {
  const status = typeof error === 'object' && error !== null && 'status' in error && typeof error.status === 'number' ? error.status : 0;
  const data = typeof error === 'object' && error !== null && 'data' in error ? error.data : undefined;
  const parsed = apiErrorSchema.safeParse(data);
  if (!parsed.success) return { status, message: null, fields: {} };
  const fields: Record<string, string> = {};
  for (const issue of parsed.data.issues ?? []) {
    // 'fieldsValues.NIF' (a create body) or 'NIF' (a PATCH body, which is fieldsValues itself).
    const key = issue.path.startsWith('fieldsValues.') ? issue.path.slice('fieldsValues.'.length) : issue.path;
    fields[key] ??= issue.message;
  }
  const detailFields = parsed.data.details?.fields;
  if (typeof detailFields === 'object' && detailFields !== null) {
    for (const [key, message] of Object.entries(detailFields)) if (typeof message === 'string') fields[key] ??= message;
  }
  return { status, message: parsed.data.message, fields };
}

/** The options a dropdown offers now: its own, the ones of the field it depends on, or the company's CCCs. */
export function fieldOptions(field: FormField, values: Record<string, unknown>, company: ClientCompany | undefined): { key: string; text: string }[] {
  if (field.validValuesFromExtraFields?.field === 'CCC') {
    return (company?.fieldsValues.CCC ?? []).map((row) => ({ key: row.key, text: `${row.label} (${row.key})` }));
  }
  if (field.dependentKey !== undefined && field.dependentOptions !== undefined) {
    const parent = values[field.dependentKey];
    return typeof parent === 'string' ? (field.dependentOptions[parent] ?? []) : [];
  }
  return field.validValues ?? [];
}

/** The result toast of 'Altas Automáticas S. RED', from its run's summary (shared/altas/runs.ts): counts, the AFI file, the first error. */
export function redRunOutcome(output: Output): { failedOnly: boolean; lines: string[] } {
  const counts = altasRunCounts(output.data.summary, 'registered');
  if (counts === null) return { failedOnly: true, lines: [output.data.message ?? text.desktop.redFailed, text.desktop.inHistory] };
  const lines = [counts.afiFile ? text.desktop.afiWritten(counts.afiFile) : text.desktop.redDone(counts.done, counts.failed)];
  if (counts.afiFile && counts.failed > 0) lines.push(text.desktop.redDone(counts.done, counts.failed));
  if (counts.firstError) lines.push(text.desktop.firstError(counts.firstError));
  lines.push(text.desktop.inHistory);
  return { failedOnly: counts.failed > 0 && counts.done === 0 && !counts.afiFile, lines };
}

/** The result toast of 'Sincronizar con A3', from its run's summary. */
export function a3RunOutcome(output: Output): { failedOnly: boolean; lines: string[] } {
  const counts = altasRunCounts(output.data.summary, 'synced');
  if (counts === null) return { failedOnly: true, lines: [output.data.message ?? text.desktop.a3Failed, text.desktop.inHistory] };
  const lines = [text.desktop.a3Done(counts.done, counts.failed)];
  if (counts.firstError) lines.push(text.desktop.firstError(counts.firstError));
  lines.push(text.desktop.inHistory);
  return { failedOnly: counts.failed > 0 && counts.done === 0, lines };
}

/** The machines a web user can launch the altas robots on: linked to a desktop app or agent (theirs or shared). */
export function launchableMachines(machines: readonly Machine[]): Machine[] {
  return machines.filter((machine) => machine.linked);
}

/** The flow's launcher with this machine already chosen (the launcher reads ?machine=). */
export function launcherHref(flowId: string, machineId: string): string {
  return `/launcher/${encodeURIComponent(flowId)}?${new URLSearchParams({ machine: machineId }).toString()}`;
}

/** The fields in page order; fields no page names come last under 'Otros datos'. */
export function pagedFields(fieldsOrder: readonly string[], fields: Record<string, FormField>, pages: readonly { title: string; fields: string[] }[]): { title: string; keys: string[] }[] {
  const placed = new Set<string>();
  const result = pages.map((page) => {
    const keys = page.fields.filter((key) => fields[key] !== undefined);
    for (const key of keys) placed.add(key);
    return { title: page.title, keys };
  });
  const rest = [...fieldsOrder, ...Object.keys(fields)].filter((key, index, all) => fields[key] !== undefined && !placed.has(key) && all.indexOf(key) === index);
  if (rest.length > 0) result.push({ title: text.submission.others, keys: rest });
  return result.filter((page) => page.keys.length > 0);
}

/** A changed value also clears the dependent dropdowns whose choice its new value no longer offers. */
export function withValue(fields: Record<string, FormField>, values: Record<string, unknown>, key: string, value: unknown): Record<string, unknown> {
  const next: Record<string, unknown> = { ...values, [key]: value };
  for (const [childKey, child] of Object.entries(fields)) {
    if (child.dependentKey !== key) continue;
    const chosen = next[childKey];
    if (typeof chosen === 'string' && chosen !== '' && !fieldOptions(child, next, undefined).some((option) => option.key === chosen)) next[childKey] = '';
  }
  return next;
}

/**
 * Spec §5: each field's error (required, then its format), files apart: the company attaches them.
 * Then the rules across the shown fields that the server applies too (issue 44, shared/altas/alta-rules.ts):
 * the coefficient against the jornada (a group's and an alta's), the worker's age and the date order.
 */
export function fieldErrors(fields: Record<string, FormField>, keys: readonly string[], values: Record<string, unknown>): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const key of keys) {
    const field = fields[key];
    if (field === undefined || field.fieldType === 'file') continue;
    const error = formFieldError(field, values[key] ?? '');
    if (error) errors[key] = error;
  }
  const shown = Object.fromEntries(keys.map((key) => [key, values[key] ?? null]));
  for (const [key, message] of Object.entries(altaRuleErrors(shown))) {
    if (keys.includes(key) && !(key in errors)) errors[key] = message;
  }
  return errors;
}

/**
 * A 400's per-field messages of a groups body ('<groupKey>.fieldsValues.<field>') by field, so they show
 * under the group modal's fields; other paths stay as they are.
 */
export function groupFieldMessages(fields: Record<string, string>, groupKey: string): Record<string, string> {
  const prefix = `${groupKey}.fieldsValues.`;
  return Object.fromEntries(Object.entries(fields).map(([path, message]) => [path.startsWith(prefix) ? path.slice(prefix.length) : path, message]));
}
