import { z } from 'zod/mini';

/**
 * A flow ("robot") as its folder under resources/flows/<id>/flow.json declares it (spec §3 Flow,
 * Section, Input). The server loads every folder at start, checks it with this schema and keeps the
 * database's catalogue in step; the renderer reads the same shape from GET /api/browserflow/flow/{id}.
 */

/** Where a flow's robot runs: in the server's worker pool, or on a desktop (certificate, office PC). */
export const FLOW_RUNTIMES = ['server', 'desktop'] as const;
export type FlowRuntime = (typeof FLOW_RUNTIMES)[number];

/**
 * The desktop's own processes a flow may stand for instead of a robot module (spec §3 Scheduled flow
 * localProcess): the FIE fetch from SILTRA/FIER, the A3 sync, and both (main/fie/local-processes.ts); the
 * altas' registration in RED and their A3 import (main/altas/local-processes.ts). The desktop app runs
 * them, so such a flow has runsOn 'desktop' and no robot.
 */
export const FLOW_LOCAL_PROCESSES = ['get-fie-siltra', 'sync-fie-a3', 'sync-siltra-a3', 'sync-altas', 'sync-altas-a3', 'update-dehu-notifications'] as const;
export type FlowLocalProcess = (typeof FLOW_LOCAL_PROCESSES)[number];
export const LOCAL_PROCESS_NOT_DESKTOP_MESSAGE = 'Un proceso local (localProcess) solo puede ir en un robot de escritorio (runsOn "desktop")';

/** The six step templates of spec §2 (Flow launcher screen). */
export const SECTION_TEMPLATES = [
  'ErrorSection', 'InputComponents', 'IntrastatSetup', 'LoadingSection', 'OutputSection', 'TutorialSection',
] as const;
export type SectionTemplate = (typeof SECTION_TEMPLATES)[number];

/**
 * Input components a section's builder may hold. Text, Number, Date, Dropdown and Checkbox follow the
 * form field rules of spec §5; FileUpload follows the file picker rules (size, types, filename);
 * ColumnMapping lets the user say which column of an uploaded workbook holds what; SelectionDialog
 * (native file/folder dialog) and Certificate exist only in the desktop app. EmailResult is 'Enviar
 * resultado por email': an email config and recipients (shared/api/mail.ts emailResultValueSchema), or null.
 */
export const INPUT_TEMPLATES = [
  'Text', 'Number', 'Date', 'Dropdown', 'Checkbox', 'FileUpload', 'ColumnMapping', 'SelectionDialog', 'Certificate', 'EmailResult',
] as const;
export type InputTemplate = (typeof INPUT_TEMPLATES)[number];

const keyField = z.string().check(z.regex(/^[A-Za-z][\w-]{0,63}$/, 'Clave no válida'));

export const validValueSchema = z.object({ key: z.string(), text: z.string() });

/** One target of a ColumnMapping input: what the column holds and the header words that auto-detect it. */
export const mappedColumnSchema = z.object({
  key: keyField,
  label: z.string(),
  /** Validator rule of shared/validation ('nienif', 'naf', 'iban', 'ccc'...) the robot checks the column with. */
  validate: z.optional(z.string()),
  /** Lower-case header fragments, accents removed, that select this column automatically ('nif', 'dni'). */
  headerHints: z.array(z.string()),
});
export type MappedColumn = z.infer<typeof mappedColumnSchema>;

export const inputConfigSchema = z.object({
  /** Only offered in the desktop app (SelectionDialog, Certificate). */
  embedded: z.optional(z.boolean()),
  /** SelectionDialog: pick folders rather than files. */
  directory: z.optional(z.boolean()),
  multiple: z.optional(z.boolean()),
  /** FileUpload: accept list ('.xlsx,.csv'); the spec's allowed types still apply on top. */
  accept: z.optional(z.string()),
  /** FileUpload: total bytes allowed (spec default 100,000,000). */
  maxSize: z.optional(z.number()),
  /** ColumnMapping: the FileUpload input whose workbook is mapped, and the columns to find in it. */
  source: z.optional(keyField),
  columns: z.optional(z.array(mappedColumnSchema)),
  /** Date: the key of the Date input this one may not come before ('Hasta' names its 'Desde'). */
  notBefore: z.optional(keyField),
  /** Number: bounds. */
  min: z.optional(z.number()),
  max: z.optional(z.number()),
});
export type InputConfig = z.infer<typeof inputConfigSchema>;

export const flowInputDefinitionSchema = z.object({
  key: keyField,
  template: z.enum(INPUT_TEMPLATES),
  label: z.string().check(z.minLength(1)),
  help: z.optional(z.string()),
  placeholder: z.optional(z.string()),
  /** A shared/validation rule name or alternatives joined with '|' (spec §5 generic validators). */
  validate: z.optional(z.string()),
  required: z.optional(z.boolean()),
  formatRequired: z.optional(z.boolean()),
  hidden: z.optional(z.boolean()),
  order: z.optional(z.number()),
  /** Default value. */
  value: z.optional(z.unknown()),
  /** Dropdown choices; with none a Dropdown is treated as Text (spec §5). */
  validValues: z.optional(z.array(validValueSchema)),
  config: z.optional(inputConfigSchema),
});
export type FlowInputDefinition = z.infer<typeof flowInputDefinitionSchema>;

export const sectionSchema = z.object({
  ref: keyField,
  template: z.enum(SECTION_TEMPLATES),
  title: z.string(),
  subtitle: z.optional(z.string()),
  /** Template parameters: TutorialSection { markdown }, ErrorSection { type }, LoadingSection { text }... */
  params: z.optional(z.record(z.string(), z.unknown())),
  /** 'Next' on this section launches the run (the button reads 'Lanzar tarea'). */
  execution: z.optional(z.boolean()),
  /** This section offers 'Programar' (the scheduler modal). */
  scheduler: z.optional(z.boolean()),
  /** Launch response status ('200', '242', '402'...) -> section ref; wins over the default transitions. */
  router: z.optional(z.record(z.string(), z.string())),
  backTo: z.optional(z.string()),
  hidden: z.optional(z.boolean()),
  builder: z.array(flowInputDefinitionSchema),
});
export type Section = z.infer<typeof sectionSchema>;

export const flowDefinitionSchema = z.object({
  /** The folder name: lower-case words joined by '-'. */
  id: z.string().check(z.regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'El id de un robot va en minúsculas con guiones')),
  name: z.string().check(z.minLength(1)),
  description: z.string(),
  group: z.string().check(z.minLength(1)),
  limits: z.optional(z.string()),
  /** Markdown shown by 'Ver instrucciones'. */
  instructions: z.string(),
  instructionsURL: z.optional(z.string()),
  /** Slans per usage unit: cost = usageUnits × usageRatio (spec §9). */
  usageRatio: z.number().check(z.gte(0)),
  /** What one unit is, in Spanish, singular|plural ('100 filas', 'entrada|entradas'). */
  usageMeasureUnit: z._default(z.string(), 'fila|filas'),
  /** File name in the flow's folder offered as 'Descargar plantilla' (GET browserflow/flow/template/{id}). */
  template: z.optional(z.string()),
  runsOn: z.enum(FLOW_RUNTIMES),
  /** The desktop process this flow runs instead of a robot module (runsOn 'desktop' only). */
  localProcess: z.optional(z.enum(FLOW_LOCAL_PROCESSES)),
  /** Longest run allowed before it is stopped and answered 504. */
  timeLimitSeconds: z._default(z.number().check(z.gt(0), z.lte(3600)), 120),
  /** What a scheduled or remote launch must supply (key, type). */
  flowInputs: z.array(z.object({ key: keyField, type: z.string() })),
  sectionSetup: z.object({
    builder: z.array(sectionSchema).check(z.minLength(1)),
    /** Where 'Repetir' returns; the first visible section when absent. */
    resetTo: z.optional(z.string()),
  }),
}).check(
  // A local process runs on the PC that has the SILTRA folder, the certificate and A3: never on the server.
  z.refine((flow) => flow.localProcess === undefined || flow.runsOn === 'desktop', { message: LOCAL_PROCESS_NOT_DESKTOP_MESSAGE, path: ['localProcess'] }),
);
export type FlowDefinition = z.infer<typeof flowDefinitionSchema>;

/**
 * Cross-field rules a schema cannot state: unique section refs and input keys, routers and backTo
 * pointing at real sections, ColumnMapping sources naming a FileUpload. Returns Spanish problems.
 */
export function flowDefinitionProblems(flow: FlowDefinition): string[] {
  const problems: string[] = [];
  const refs = new Set<string>();
  const inputs = new Map<string, FlowInputDefinition>();
  for (const section of flow.sectionSetup.builder) {
    if (refs.has(section.ref)) problems.push(`Sección repetida: ${section.ref}`);
    refs.add(section.ref);
    for (const input of section.builder) {
      if (inputs.has(input.key)) problems.push(`Entrada repetida: ${input.key}`);
      inputs.set(input.key, input);
    }
  }
  for (const section of flow.sectionSetup.builder) {
    for (const target of Object.values(section.router ?? {})) {
      if (!refs.has(target)) problems.push(`La sección ${section.ref} lleva a una sección que no existe: ${target}`);
    }
    if (section.backTo !== undefined && !refs.has(section.backTo)) problems.push(`backTo de ${section.ref} no existe: ${section.backTo}`);
  }
  const resetTo = flow.sectionSetup.resetTo;
  if (resetTo !== undefined && !refs.has(resetTo)) problems.push(`resetTo no existe: ${resetTo}`);
  for (const input of inputs.values()) {
    const notBefore = input.config?.notBefore;
    if (notBefore !== undefined && (input.template !== 'Date' || inputs.get(notBefore)?.template !== 'Date')) {
      problems.push(`La entrada ${input.key} debe ser una fecha y config.notBefore nombrar otra fecha`);
    }
    if (input.template !== 'ColumnMapping') continue;
    const source = input.config?.source;
    if (source === undefined || inputs.get(source)?.template !== 'FileUpload') {
      problems.push(`La entrada ${input.key} debe indicar en config.source una entrada FileUpload`);
    }
  }
  return problems;
}

/** Singular and plural of a usageMeasureUnit ('entrada|entradas'; a single word serves both). */
export function measureUnitNames(unit: string): { singular: string; plural: string } {
  const [singular = unit, plural = singular] = unit.split('|').map((part) => part.trim());
  return { singular, plural };
}

/**
 * A Date input with config.notBefore: the message when its date comes before the other's ('Hasta'
 * before 'Desde'); null while either is empty or not a date (their own checks say so). ISO dates.
 */
export function dateOrderProblem(input: FlowInputDefinition, earlier: FlowInputDefinition | undefined, isoValue: string | null, isoEarlier: string | null): string | null {
  if (earlier === undefined || isoValue === null || isoEarlier === null) return null;
  return isoValue < isoEarlier ? `«${input.label}» no puede ser anterior a «${earlier.label}»` : null;
}
