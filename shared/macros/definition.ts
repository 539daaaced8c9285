import { z } from 'zod/mini';

/**
 * A macro (issue 41): a robot the firm builds itself, recorded in the desktop app (MacroRecorder),
 * edited in SmartBuilder, or made by the scraper. It is stored per firm, versioned, and runs as a
 * desktop flow (shared/macros/to-flow.ts): the player (main/macros/) walks these steps in the robot's
 * own Chromium, with the certificate chosen at launch. The server, the desktop and the screens all
 * check a macro with this schema plus macroProblems(), so a definition is valid everywhere or nowhere.
 */

export const MACRO_SCHEMA_VERSION = 1;
/** Every step, loops and conditions included: a recording longer than this is split by the user. */
export const MAX_MACRO_STEPS = 500;
/** Loops and conditions inside each other, at most this deep. */
export const MAX_MACRO_DEPTH = 4;
export const MAX_MACRO_INPUTS = 30;
/** A step waits this long for its element by default; a step may say up to MAX_STEP_TIMEOUT_MS. */
export const DEFAULT_STEP_TIMEOUT_MS = 15_000;
export const MAX_STEP_TIMEOUT_MS = 120_000;
/** repeatWhile runs at most this many rounds (a paginated table of 500 pages). */
export const MAX_REPEAT_TIMES = 500;
/** The body a macro travels in (import, save): a recording of MAX_MACRO_STEPS fits with room. */
export const MACRO_BODY_LIMIT = 512 * 1024;

const text = (max: number) => z.string().check(z.maxLength(max, `Como mucho ${max} caracteres`));
const required = (max: number, message: string) => z.string().check(z.trim(), z.minLength(1, message), z.maxLength(max, `Como mucho ${max} caracteres`));

/** An input's key, as the launcher and the run's inputs name it. */
export const macroKeySchema = z.string().check(z.regex(/^[a-z][a-z0-9_]{0,39}$/, 'La clave va en minúsculas, sin espacios (letras, números y _)'));

/** What a launch asks for: text, a date, a certificate, a workbook to loop over, a file to upload. */
export const MACRO_INPUT_KINDS = ['text', 'date', 'certificate', 'workbook', 'file'] as const;
export type MacroInputKind = (typeof MACRO_INPUT_KINDS)[number];
export const MACRO_INPUT_KIND_LABELS: Record<MacroInputKind, string> = {
  text: 'Texto',
  date: 'Fecha',
  certificate: 'Certificado',
  workbook: 'Hoja de cálculo (una vuelta por fila)',
  file: 'Fichero para subir',
};

export const macroInputSchema = z.object({
  key: macroKeySchema,
  label: required(80, 'Escribe cómo se llama este dato'),
  kind: z.enum(MACRO_INPUT_KINDS),
  required: z.boolean(),
  help: z.optional(text(300)),
});
export type MacroInput = z.infer<typeof macroInputSchema>;

/**
 * A value a step types, picks or visits: written in the macro, asked at launch, taken from the current
 * row of the workbook being looped over (by its header), or a password typed while recording, which
 * is never stored: the macro keeps a reference and the value stays encrypted on the machine that
 * recorded it (main/macros/secrets.ts), or the user gives it as an input.
 */
export const macroValueSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('text'), text: text(2000) }),
  z.object({ kind: z.literal('input'), key: macroKeySchema }),
  z.object({ kind: z.literal('column'), column: required(120, 'Escribe el nombre de la columna') }),
  z.object({ kind: z.literal('secret'), ref: z.string().check(z.regex(/^[A-Za-z0-9_-]{8,64}$/, 'Referencia de contraseña no válida')) }),
]);
export type MacroValue = z.infer<typeof macroValueSchema>;

/** A Playwright selector (shared/macros/locator.ts). */
const targetSchema = required(2000, 'Indica el elemento de la página');
const stepIdSchema = z.string().check(z.regex(/^[A-Za-z0-9_-]{1,40}$/, 'Identificador de paso no válido'));

const base = {
  id: stepIdSchema,
  /** What the step is for, in the user's words (SmartBuilder shows it above the step). */
  note: z.optional(text(300)),
  /** How long the step waits for its element, in ms (DEFAULT_STEP_TIMEOUT_MS when absent). */
  timeoutMs: z.optional(z.number().check(z.int(), z.gte(500), z.lte(MAX_STEP_TIMEOUT_MS))),
};

export const MACRO_STEP_TYPES = [
  'goto', 'click', 'fill', 'press', 'select', 'check', 'upload', 'download', 'waitFor', 'extractText', 'extractTable', 'extractList', 'ifText', 'forEachRow', 'repeatWhile',
] as const;
export type MacroStepType = (typeof MACRO_STEP_TYPES)[number];

export const MACRO_STEP_LABELS: Record<MacroStepType, string> = {
  goto: 'Ir a una dirección',
  click: 'Hacer clic',
  fill: 'Escribir',
  press: 'Pulsar una tecla',
  select: 'Elegir en un desplegable',
  check: 'Marcar o desmarcar',
  upload: 'Subir un fichero',
  download: 'Descargar un fichero',
  waitFor: 'Esperar a un elemento',
  extractText: 'Copiar un texto al resultado',
  extractTable: 'Copiar una tabla al resultado',
  extractList: 'Copiar una lista al resultado',
  ifText: 'Si la página dice…',
  forEachRow: 'Por cada fila de la hoja',
  repeatWhile: 'Repetir mientras haya «Siguiente»',
};

/** One column of a repeated block: the text of `target`, looked for inside each item. */
export interface MacroListField {
  column: string;
  target: string;
}

export type MacroStep =
  | { id: string; note?: string; timeoutMs?: number; type: 'goto'; url: MacroValue }
  | { id: string; note?: string; timeoutMs?: number; type: 'click'; target: string; count?: number }
  | { id: string; note?: string; timeoutMs?: number; type: 'fill'; target: string; value: MacroValue }
  | { id: string; note?: string; timeoutMs?: number; type: 'press'; target: string; key: string }
  | { id: string; note?: string; timeoutMs?: number; type: 'select'; target: string; value: MacroValue }
  | { id: string; note?: string; timeoutMs?: number; type: 'check'; target: string; checked: boolean }
  | { id: string; note?: string; timeoutMs?: number; type: 'upload'; target: string; input: string }
  | { id: string; note?: string; timeoutMs?: number; type: 'download'; target: string; fileName?: string }
  | { id: string; note?: string; timeoutMs?: number; type: 'waitFor'; target: string; state: 'visible' | 'hidden' }
  | { id: string; note?: string; timeoutMs?: number; type: 'extractText'; target: string; column: string }
  | { id: string; note?: string; timeoutMs?: number; type: 'extractTable'; target: string }
  | { id: string; note?: string; timeoutMs?: number; type: 'extractList'; target: string; fields: MacroListField[] }
  | { id: string; note?: string; timeoutMs?: number; type: 'ifText'; text: MacroValue; present: boolean; steps: MacroStep[]; otherwise: MacroStep[] }
  | { id: string; note?: string; timeoutMs?: number; type: 'forEachRow'; input: string; steps: MacroStep[] }
  | { id: string; note?: string; timeoutMs?: number; type: 'repeatWhile'; target: string; maxTimes: number; steps: MacroStep[] };

const KEY_NAMES = /^(?:(?:Control|Shift|Alt|Meta)\+)*(?:[A-Za-z0-9]|Enter|Tab|Escape|Backspace|Delete|Space|ArrowUp|ArrowDown|ArrowLeft|ArrowRight|Home|End|PageUp|PageDown|F\d{1,2})$/;

export const macroStepSchema: z.ZodMiniType<MacroStep> = z.discriminatedUnion('type', [
  z.object({ ...base, type: z.literal('goto'), url: macroValueSchema }),
  z.object({ ...base, type: z.literal('click'), target: targetSchema, count: z.optional(z.number().check(z.int(), z.gte(1), z.lte(2))) }),
  z.object({ ...base, type: z.literal('fill'), target: targetSchema, value: macroValueSchema }),
  z.object({ ...base, type: z.literal('press'), target: targetSchema, key: z.string().check(z.regex(KEY_NAMES, 'Tecla no válida (Enter, Tab, Escape, Control+A…)')) }),
  z.object({ ...base, type: z.literal('select'), target: targetSchema, value: macroValueSchema }),
  z.object({ ...base, type: z.literal('check'), target: targetSchema, checked: z.boolean() }),
  z.object({ ...base, type: z.literal('upload'), target: targetSchema, input: macroKeySchema }),
  z.object({ ...base, type: z.literal('download'), target: targetSchema, fileName: z.optional(text(120)) }),
  z.object({ ...base, type: z.literal('waitFor'), target: targetSchema, state: z.enum(['visible', 'hidden']) }),
  z.object({ ...base, type: z.literal('extractText'), target: targetSchema, column: required(120, 'Escribe el nombre de la columna del resultado') }),
  z.object({ ...base, type: z.literal('extractTable'), target: targetSchema }),
  z.object({
    ...base,
    type: z.literal('extractList'),
    target: targetSchema,
    fields: z.array(z.object({ column: required(120, 'Escribe el nombre de la columna del resultado'), target: targetSchema })).check(z.minLength(1, 'Elige al menos un dato de cada elemento'), z.maxLength(30)),
  }),
  z.object({
    ...base,
    type: z.literal('ifText'),
    text: macroValueSchema,
    present: z.boolean(),
    get steps() { return z.array(macroStepSchema); },
    get otherwise() { return z.array(macroStepSchema); },
  }),
  z.object({ ...base, type: z.literal('forEachRow'), input: macroKeySchema, get steps() { return z.array(macroStepSchema); } }),
  z.object({
    ...base,
    type: z.literal('repeatWhile'),
    target: targetSchema,
    maxTimes: z.number().check(z.int(), z.gte(1), z.lte(MAX_REPEAT_TIMES)),
    get steps() { return z.array(macroStepSchema); },
  }),
]) as unknown as z.ZodMiniType<MacroStep>;

/** What a run costs: per run, or per row of the workbook looped over (forEachRow). */
export const MACRO_CHARGE_UNITS = ['run', 'row'] as const;
export type MacroChargeUnit = (typeof MACRO_CHARGE_UNITS)[number];

export const macroDefinitionSchema = z.object({
  schemaVersion: z.literal(MACRO_SCHEMA_VERSION),
  name: required(80, 'Escribe el nombre del robot'),
  description: text(1000),
  /** Where the robot's browser starts. */
  startUrl: z.string().check(z.maxLength(2000), z.regex(/^https?:\/\/[^\s]+$/, 'La dirección debe empezar por https:// o http://')),
  /** The Certificate input the browser presents to these https origins (mutual TLS), if the site asks for one. */
  certificate: z.optional(z.object({
    input: macroKeySchema,
    origins: z.array(z.string().check(z.regex(/^https:\/\/[^/\s]+$/, 'Un origen es https://servidor[:puerto], sin ruta'))).check(z.minLength(1, 'Indica al menos un origen'), z.maxLength(10)),
  })),
  inputs: z.array(macroInputSchema).check(z.maxLength(MAX_MACRO_INPUTS, `Como mucho ${MAX_MACRO_INPUTS} datos`)),
  steps: z.array(macroStepSchema).check(z.minLength(1, 'El robot necesita al menos un paso')),
  charge: z.object({ per: z.enum(MACRO_CHARGE_UNITS), slans: z.number().check(z.gte(0), z.lte(1000)) }),
  /** The workbook extractText and extractTable write, when a step extracts anything. */
  outputFileName: z.string().check(z.regex(/^[\w .()-]{1,80}\.xlsx$/, 'El resultado es un .xlsx con un nombre sencillo')),
  /** The whole run's limit (the launcher's flow timeLimitSeconds). */
  timeLimitSeconds: z.number().check(z.int(), z.gte(10), z.lte(3600)),
});
export type MacroDefinition = z.infer<typeof macroDefinitionSchema>;

/** Each step once, depth first, with how deep it sits and whether a forEachRow encloses it. */
export function* walkSteps(steps: readonly MacroStep[], depth = 1, inRow = false): Generator<{ step: MacroStep; depth: number; inRow: boolean }> {
  for (const step of steps) {
    yield { step, depth, inRow };
    if (step.type === 'ifText') {
      yield* walkSteps(step.steps, depth + 1, inRow);
      yield* walkSteps(step.otherwise, depth + 1, inRow);
    } else if (step.type === 'forEachRow') {
      yield* walkSteps(step.steps, depth + 1, true);
    } else if (step.type === 'repeatWhile') {
      yield* walkSteps(step.steps, depth + 1, inRow);
    }
  }
}

function valuesOf(step: MacroStep): MacroValue[] {
  switch (step.type) {
    case 'goto':
      return [step.url];
    case 'fill':
    case 'select':
      return [step.value];
    case 'ifText':
      return [step.text];
    default:
      return [];
  }
}

/**
 * What the schema cannot say, in Spanish: unique input keys and step ids, values and steps naming inputs
 * that exist and are of the right kind, row columns only inside a loop over a workbook, the certificate
 * naming a Certificate input, the size and depth limits, a per-row charge with a loop to count.
 */
export function macroProblems(macro: MacroDefinition): string[] {
  const problems: string[] = [];
  const inputs = new Map<string, MacroInput>();
  for (const input of macro.inputs) {
    if (inputs.has(input.key)) problems.push(`El dato «${input.key}» está repetido`);
    inputs.set(input.key, input);
  }
  const inputOfKind = (key: string, kinds: readonly MacroInputKind[], what: string) => {
    const input = inputs.get(key);
    if (!input) problems.push(`${what} usa el dato «${key}», que no existe`);
    else if (!kinds.includes(input.kind)) problems.push(`${what} necesita un dato de tipo ${kinds.map((kind) => MACRO_INPUT_KIND_LABELS[kind].toLowerCase()).join(' o ')}, y «${input.label}» es ${MACRO_INPUT_KIND_LABELS[input.kind].toLowerCase()}`);
  };
  if (macro.certificate) inputOfKind(macro.certificate.input, ['certificate'], 'El certificado del navegador');

  const ids = new Set<string>();
  let count = 0;
  let loops = 0;
  for (const { step, depth, inRow } of walkSteps(macro.steps)) {
    count += 1;
    const where = `El paso ${count} (${MACRO_STEP_LABELS[step.type]})`;
    if (ids.has(step.id)) problems.push(`${where} repite el identificador ${step.id}`);
    ids.add(step.id);
    if (depth > MAX_MACRO_DEPTH) problems.push(`${where} está dentro de más de ${MAX_MACRO_DEPTH - 1} bucles o condiciones`);
    if (step.type === 'goto' && step.url.kind === 'text' && !/^https?:\/\/[^\s]+$/i.test(step.url.text)) {
      problems.push(`${where} debe ir a una dirección que empiece por https:// o http://`);
    }
    for (const value of valuesOf(step)) {
      if (value.kind === 'input') inputOfKind(value.key, ['text', 'date'], where);
      if (value.kind === 'column' && !inRow) problems.push(`${where} usa la columna «${value.column}» fuera de un «${MACRO_STEP_LABELS.forEachRow}»`);
    }
    if (step.type === 'upload') inputOfKind(step.input, ['file'], where);
    if (step.type === 'forEachRow') {
      loops += 1;
      inputOfKind(step.input, ['workbook'], where);
      if (inRow) problems.push(`${where} está dentro de otro «${MACRO_STEP_LABELS.forEachRow}»`);
    }
  }
  if (count > MAX_MACRO_STEPS) problems.push(`El robot tiene ${count} pasos; como mucho ${MAX_MACRO_STEPS}`);
  if (macro.charge.per === 'row' && loops === 0) problems.push(`Para cobrar por fila, el robot necesita un paso «${MACRO_STEP_LABELS.forEachRow}»`);
  return problems;
}

/** Parses a macro from anything (an import, a body): the definition, or the Spanish problems. */
export function parseMacro(value: unknown): { ok: true; macro: MacroDefinition } | { ok: false; problems: string[] } {
  const parsed = z.safeParse(macroDefinitionSchema, value);
  if (!parsed.success) {
    return { ok: false, problems: parsed.error.issues.slice(0, 20).map((issue) => `${issue.path.map(String).join('.') || 'robot'}: ${issue.message}`) };
  }
  const problems = macroProblems(parsed.data);
  return problems.length > 0 ? { ok: false, problems } : { ok: true, macro: parsed.data };
}

/** The secret references of a macro (passwords typed while recording), in step order. */
export function secretRefsOf(macro: MacroDefinition): string[] {
  const refs: string[] = [];
  for (const { step } of walkSteps(macro.steps)) for (const value of valuesOf(step)) if (value.kind === 'secret') refs.push(value.ref);
  return refs;
}
