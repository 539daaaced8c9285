import type { FileInputValue } from '#shared/api/flows.ts';
import type { Machine } from '#shared/api/machines.ts';
import { daysUntil } from '#shared/certificates/certificate.ts';
import { detectColumnHeaders } from '#shared/flows/columns.ts';
import { dateOrderProblem, measureUnitNames } from '#shared/flows/definition.ts';
import { expiredCertificateMessage } from '#shared/flows/launch-checks.ts';
import { rowsPerUnit } from '#shared/flows/usage.ts';
import type { FlowDefinition, FlowInputDefinition, Section } from '#shared/flows/definition.ts';
import { toIsoDate } from '#shared/forms/index.ts';
import { formatMadridDate } from '#shared/time/index.ts';
import { z } from 'zod/mini';
import { launcher } from '../../i18n/es-launcher.ts';
import { widgets } from '../../i18n/es-widgets.ts';
import type { FieldRule } from '../../ui/forms.ts';
import { defaultEmailResultText, emailResultProblem, emailResultRequestValue } from './emailResult.ts';

/**
 * The launcher's rules as plain functions (spec §4 Flow launcher): where the wizard starts, where
 * Next, Back and Repeat go, where a launch's status leads, what a launch is estimated to cost, and
 * how the form's text values become the execution request's inputs.
 */

export type ErrorKind = 'result' | 'timeout' | 'default';

export type Transition =
  | { kind: 'section'; ref: string; errorKind?: ErrorKind }
  /** 402: the insufficient-credits prompt (continue / see plans). */
  | { kind: 'creditsPrompt' }
  /** The flow has no section to go to: the fallback text shows. */
  | { kind: 'fallback' };

export function visibleSections(flow: FlowDefinition): Section[] {
  return flow.sectionSetup.builder.filter((section) => section.hidden !== true);
}

export function sectionByRef(flow: FlowDefinition, ref: string | undefined): Section | undefined {
  return ref === undefined ? undefined : flow.sectionSetup.builder.find((section) => section.ref === ref);
}

/** Spec §4: the first visible section, except that a tutorial section is skipped if it is first. */
export function startSection(flow: FlowDefinition): Section | undefined {
  const [first, second] = visibleSections(flow);
  if (first?.template === 'TutorialSection' && second !== undefined) return second;
  return first;
}

/** The visible section after `ref`, for Next on a section that does not launch. */
export function nextSection(flow: FlowDefinition, ref: string): Section | undefined {
  const sections = visibleSections(flow);
  const index = sections.findIndex((section) => section.ref === ref);
  return index === -1 ? undefined : sections[index + 1];
}

/**
 * Where Back goes from a section: its backTo when it has one, else the previous visible section;
 * undefined on the start section (the caller goes to the previous page).
 */
export function previousSection(flow: FlowDefinition, ref: string): Section | undefined {
  const section = sectionByRef(flow, ref);
  if (section?.backTo !== undefined) return sectionByRef(flow, section.backTo);
  const start = startSection(flow);
  if (start === undefined || start.ref === ref) return undefined;
  const sections = visibleSections(flow);
  const index = sections.findIndex((candidate) => candidate.ref === ref);
  return index > 0 ? sections[index - 1] : undefined;
}

/** Spec §4: Repeat returns to resetTo, or to the start. */
export function resetSection(flow: FlowDefinition): Section | undefined {
  return sectionByRef(flow, flow.sectionSetup.resetTo) ?? startSection(flow);
}

const firstOfTemplate = (flow: FlowDefinition, template: Section['template']) =>
  flow.sectionSetup.builder.find((section) => section.template === template);

/** The section the run's progress shows on (LoadingSection); undefined when the flow has none. */
export function loadingSection(flow: FlowDefinition): Section | undefined {
  return firstOfTemplate(flow, 'LoadingSection');
}

/**
 * Spec §4, in order: the launching section's router mapping for the status wins; 200 -> output;
 * 242 -> error (result); 400, 401, 500 -> error; 402 -> credits prompt; 504 -> error (timeout);
 * anything else -> error.
 */
export function transitionFor(flow: FlowDefinition, launchedFrom: Section | undefined, status: number): Transition {
  const routed = sectionByRef(flow, launchedFrom?.router?.[String(status)]);
  if (routed !== undefined) return { kind: 'section', ref: routed.ref, errorKind: errorKindFor(status) };
  if (status === 402) return { kind: 'creditsPrompt' };
  const target = status === 200 ? firstOfTemplate(flow, 'OutputSection') : firstOfTemplate(flow, 'ErrorSection');
  if (target === undefined) return { kind: 'fallback' };
  return status === 200 ? { kind: 'section', ref: target.ref } : { kind: 'section', ref: target.ref, errorKind: errorKindFor(status) };
}

function errorKindFor(status: number): ErrorKind | undefined {
  if (status === 200) return undefined;
  if (status === 242) return 'result';
  if (status === 504) return 'timeout';
  return 'default';
}

// ---------------------------------------------------------------------------------------------------
// Inputs

/** The inputs a section shows, in their order (hidden ones are sent with their default, never shown). */
export function shownInputs(section: Section): FlowInputDefinition[] {
  return section.builder
    .filter((input) => input.hidden !== true)
    .map((input, position) => ({ input, position }))
    .sort((a, b) => (a.input.order ?? a.position) - (b.input.order ?? b.position))
    .map(({ input }) => input);
}

export function allInputs(flow: FlowDefinition): FlowInputDefinition[] {
  return flow.sectionSetup.builder.flatMap((section) => section.builder);
}

/**
 * Desktop-only inputs: a native file dialog, and a certificate marked config.embedded (this PC's own
 * only). A plain Certificate is not one of them: the web app offers those synced on shared machines.
 */
export function isDesktopOnly(input: FlowInputDefinition): boolean {
  return input.template === 'SelectionDialog' || input.config?.embedded === true;
}

/**
 * Whether the user can fill the input where the launcher runs: the desktop app fills every input; the
 * web app none of the desktop-only ones, which it then neither checks nor sends.
 */
export function fillableHere(input: FlowInputDefinition, embedded: boolean): boolean {
  return embedded || !isDesktopOnly(input);
}

/** A Dropdown without choices is treated as text (spec §5). */
export function effectiveTemplate(input: FlowInputDefinition): FlowInputDefinition['template'] {
  return input.template === 'Dropdown' && (input.validValues?.length ?? 0) === 0 ? 'Text' : input.template;
}

/**
 * The check an input gets (spec §5): required, and its format when formatRequired (on unless the
 * flow turns it off). Numbers and dates are checked as such; dropdowns, checkboxes, files and
 * column mappings only for presence.
 */
export function ruleFor(input: FlowInputDefinition, embedded = false, flowInputs: readonly FlowInputDefinition[] = [], now: () => Date = () => new Date()): FieldRule {
  if (input.hidden === true || !fillableHere(input, embedded)) return {};
  const required = input.required === true;
  const formatRequired = input.formatRequired ?? true;
  switch (effectiveTemplate(input)) {
    case 'Text': return { required, formatRequired, rule: input.validate };
    case 'Number': return { required, formatRequired, rule: input.validate ?? 'number' };
    case 'Date': {
      const earlier = flowInputs.find((candidate) => candidate.key === input.config?.notBefore);
      if (earlier === undefined) return { required, formatRequired, rule: 'date' };
      const check = (value: string, values: Readonly<Record<string, string>>) =>
        dateOrderProblem(input, earlier, toIsoDate(value), toIsoDate(values[earlier.key] ?? '')) ?? undefined;
      return { required, formatRequired, rule: 'date', check };
    }
    case 'Certificate': return { required, requiredMessage: widgets.certificate.required, check: (value) => certificateProblem(chosenCertificate(value), now()) };
    // Off is always fine (unless required); on, it needs a config and valid recipients.
    case 'EmailResult': return { required, check: (value) => (value === '' ? undefined : emailResultProblem(value)) };
    default: return { required };
  }
}

/** Days left before a certificate stops serving within which the launcher warns in words. */
export const EXPIRY_WARNING_DAYS = 30;

/** Why a chosen certificate cannot be used: it has expired (the portal would refuse it). */
export function certificateProblem(chosen: ChosenCertificate | null, now: Date): string | undefined {
  if (chosen?.notAfter === undefined) return undefined;
  return expiredCertificateMessage(chosen.commonName, chosen.notAfter, now) ?? undefined;
}

/** The warning a chosen certificate that expires within 30 days shows; undefined otherwise (and when expired: that is an error). */
export function certificateWarning(chosen: ChosenCertificate | null, now: Date): string | undefined {
  if (chosen?.notAfter === undefined) return undefined;
  const days = daysUntil(chosen.notAfter, now);
  if (days < 0 || days > EXPIRY_WARNING_DAYS) return undefined;
  return launcher.inputs.certificate.expiresSoon(days, formatMadridDate(new Date(chosen.notAfter)));
}

/** The form holds every input as text: checkboxes as 'true' or '', files and mappings as JSON. */
export function defaultFormValue(input: FlowInputDefinition): string {
  const value = input.value;
  if (value === undefined || value === null) return '';
  switch (effectiveTemplate(input)) {
    case 'Checkbox': return value === true || value === 'true' ? 'true' : '';
    case 'Date': return toIsoDate(value) ?? String(value);
    case 'FileUpload':
    case 'ColumnMapping': return typeof value === 'object' ? JSON.stringify(value) : '';
    // A certificate is chosen on this PC or a shared machine each time; no flow can know one ahead.
    case 'Certificate': return '';
    case 'EmailResult': return defaultEmailResultText(value);
    case 'SelectionDialog': {
      const paths = (Array.isArray(value) ? value : [value]).filter((path): path is string => typeof path === 'string' && path !== '');
      return paths.length === 0 ? '' : JSON.stringify(paths);
    }
    default: return typeof value === 'object' ? '' : String(value);
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

/** One input's form text as the execution request carries it; undefined leaves the input out. */
export function requestValue(input: FlowInputDefinition, text: string): unknown {
  switch (effectiveTemplate(input)) {
    case 'Checkbox': return text === 'true';
    case 'Number': return text.trim() === '' ? undefined : Number(text.replace(',', '.'));
    case 'Date': return text.trim() === '' ? undefined : (toIsoDate(text) ?? text);
    case 'FileUpload': return text === '' ? [] : parseJson(text);
    case 'ColumnMapping': return text === '' ? undefined : parseJson(text);
    case 'Certificate': return chosenCertificate(text)?.fingerprint;
    // Off travels as null (emailResultValueSchema), so the robot knows not to send.
    case 'EmailResult': return emailResultRequestValue(text);
    case 'SelectionDialog': {
      const paths = selectedPaths(text);
      return paths.length === 0 ? undefined : paths;
    }
    default: return text.trim() === '' ? undefined : text.trim();
  }
}

/**
 * The execution request's inputs: every input of the flow, hidden ones with their default; desktop-only
 * ones only from the desktop app (`embedded`).
 */
export function requestInputs(flow: FlowDefinition, values: Record<string, string>, embedded = false): Record<string, unknown> {
  const inputs: Record<string, unknown> = {};
  for (const input of allInputs(flow)) {
    if (!fillableHere(input, embedded)) continue;
    const value = input.hidden === true ? input.value : requestValue(input, values[input.key] ?? '');
    if (value !== undefined) inputs[input.key] = value;
  }
  return inputs;
}

/**
 * A Certificate input's value: the chosen certificate's fingerprint (what the robot gets), with its name
 * and NIF to show, and in the web app the shared machine that holds it (where the robot would run).
 */
const chosenCertificateSchema = z.object({
  fingerprint: z.string().check(z.regex(/^[0-9a-f]{64}$/)),
  commonName: z.string(),
  nifVat: z.nullable(z.string()),
  machineId: z.optional(z.string()),
  machineName: z.optional(z.string()),
  /** When it stops serving (ISO): an expired one cannot be launched with, one close to it is warned of. */
  notAfter: z.optional(z.string()),
});
export type ChosenCertificate = z.infer<typeof chosenCertificateSchema>;

/** The certificate a Certificate input's form text holds; null when none (or the text is not one). */
export function chosenCertificate(text: string | undefined): ChosenCertificate | null {
  if (!text) return null;
  const parsed = chosenCertificateSchema.safeParse(parseJson(text));
  return parsed.success ? parsed.data : null;
}

/** The paths a SelectionDialog input's form text holds (as the native dialog gave them), in order. */
export function selectedPaths(text: string | undefined): string[] {
  if (!text) return [];
  const parsed = parseJson(text);
  return Array.isArray(parsed) ? parsed.filter((path): path is string => typeof path === 'string' && path !== '') : [];
}

export function uploadedFiles(text: string | undefined): FileInputValue {
  if (!text) return [];
  const parsed = parseJson(text);
  return Array.isArray(parsed) ? (parsed as FileInputValue) : [];
}

// ---------------------------------------------------------------------------------------------------
// Cost (spec §9: cost = usageUnits × usageRatio)

export interface UnitMeasure {
  /** Rows per unit when the unit counts rows ('fila' -> 1, '100 filas' -> 100); null for other units. */
  rowsPerUnit: number | null;
  singular: string;
  plural: string;
}

/** Reads a usageMeasureUnit: 'fila|filas', '100 filas', 'bloque de 100 filas|bloques de 100 filas', 'entrada|entradas'. */
export function unitMeasure(usageMeasureUnit: string): UnitMeasure {
  return { rowsPerUnit: rowsPerUnit(usageMeasureUnit), ...measureUnitNames(usageMeasureUnit) };
}

export interface CostEstimate {
  /** Slans. */
  cost: number;
  units: number;
  /** True when the robot counts its units as it runs and one unit is only the least it can cost. */
  lowerBound: boolean;
}

/**
 * What a launch is estimated to cost, as the server estimates it before starting: for a flow
 * billed by rows, ceil(rows / rows per unit) units of the uploaded workbooks; otherwise one unit.
 * Null while a row-billed flow has no workbook row count yet.
 */
export function estimateCost(flow: Pick<FlowDefinition, 'usageRatio' | 'usageMeasureUnit'>, rowCount: number | null): CostEstimate | null {
  const perUnit = rowsPerUnit(flow.usageMeasureUnit);
  if (perUnit === null) return { cost: flow.usageRatio, units: 1, lowerBound: true };
  if (rowCount === null) return null;
  const units = Math.ceil(rowCount / perUnit);
  return { cost: roundCredits(units * flow.usageRatio), units, lowerBound: false };
}

const roundCredits = (value: number) => Math.round(value * 100) / 100;

const SPREADSHEET = /\.(xlsx|xlsm|xls|ods|csv)$/i;
export const isWorkbookName = (name: string) => SPREADSHEET.test(name);

/** The header each mapped column is preselected with (the robots' own detection by header hints). */
export function guessColumns(columns: readonly { key: string; headerHints: readonly string[] }[], headers: readonly string[]): Record<string, string | null> {
  return detectColumnHeaders(headers, columns);
}

/** A link the launcher may open outside the app: web and mail addresses only. */
export function externalUrl(url: string | undefined): string | undefined {
  if (url === undefined) return undefined;
  try {
    const { protocol } = new URL(url);
    return protocol === 'http:' || protocol === 'https:' || protocol === 'mailto:' ? url : undefined;
  } catch {
    return undefined;
  }
}

// ---------------------------------------------------------------------------------------------------
// Where a desktop flow runs (spec §6: embedded runs here or on another machine; web picks a machine)

/** How a machine is reached now: its desktop called lately, it is linked but quiet, or it was never linked. */
export type Connection = 'online' | 'offline' | 'unlinked';

export function connectionOf(machine: Pick<Machine, 'linked' | 'online'>): Connection {
  if (machine.online) return 'online';
  return machine.linked ? 'offline' : 'unlinked';
}

export const THIS_DEVICE = 'this-device';

/** A machine the robot can run on: this PC (desktop app only) or one the user sees on the server. */
export type DeviceOption =
  | { key: typeof THIS_DEVICE; thisDevice: true; name: string; machine: Machine | undefined }
  | { key: string; thisDevice: false; name: string; machine: Machine; connection: Connection };

/**
 * The choices, in order: in the desktop app this PC first, then the other machines the user sees
 * (theirs, then the firm's shared ones, as the server sorts them); in the web app those machines only.
 */
export function deviceOptions(machines: readonly Machine[], thisDevice: { name: string; machineHashCode: string | null } | null): DeviceOption[] {
  const others = machines
    .filter((machine) => thisDevice === null || machine.machineHashCode !== thisDevice.machineHashCode)
    .map((machine): DeviceOption => ({ key: machine._id, thisDevice: false, name: machine.savedAs || machine.name, machine, connection: connectionOf(machine) }));
  if (thisDevice === null) return others;
  const record = machines.find((machine) => machine.machineHashCode === thisDevice.machineHashCode);
  return [{ key: THIS_DEVICE, thisDevice: true, name: thisDevice.name, machine: record }, ...others];
}

/** Where a desktop flow asks for its device: the first step the user fills in (before any certificate). */
export function deviceSection(flow: FlowDefinition): Section | undefined {
  if (flow.runsOn !== 'desktop') return undefined;
  const sections = visibleSections(flow);
  return sections.find((section) => section.template === 'InputComponents' || section.template === 'IntrastatSetup')
    ?? sections.find((section) => section.execution === true);
}
