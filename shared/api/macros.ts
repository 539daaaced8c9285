import { z } from 'zod/mini';
import { FLOW_RUNTIMES } from '../flows/definition.ts';
import { macroDefinitionSchema } from '../macros/definition.ts';

/**
 * Macros (issue 41; spec API 'macro'): robots the firm builds itself with the recorder, SmartBuilder or
 * the scraper, stored per firm and versioned. A macro is seen by its owner and the colleagues it is shared
 * with (shared/api/share.ts, kind 'macro'; a copy through sharePaths.clone), saved by its owner and
 * those with 'edit' access, deleted by its owner. Anything else answers 404, as another firm's would.
 * Creating and saving need a paid plan (402, as /smartbuilder); the desktop's recordings come in through
 * the same POST. It runs as the flow 'macro-<id>' (shared/macros/to-flow.ts).
 */
export const macrosPaths = {
  /** GET -> { items: MacroSummary[] } (own and shared with the caller, by name); POST MacroCreateBody -> Macro (201). */
  macros: '/api/macro',
  /** GET -> Macro (its current definition and version list); PUT MacroSaveBody -> Macro (a new version); DELETE -> 204 (owner; its schedules stop). */
  macro: '/api/macro/:id',
  /** GET -> { items: MacroVersionSummary[] }, newest first. */
  versions: '/api/macro/:id/versions',
  /** GET -> MacroVersion: one kept version's definition. */
  version: '/api/macro/:id/versions/:version',
  /** GET -> the file '<name>.autoasesor-macro.json' (MacroFile) as a download. */
  export: '/api/macro/:id/export',
  /** POST MacroFile -> Macro (201): a new macro of the caller's from an exported file; 400 with the problems, nothing written. */
  import: '/api/macro/import',
} as const;

export const MACRO_FILE_FORMAT = 'autoasesor-macro';
export const MACRO_FILE_VERSION = 1;
export const MACRO_FILE_SUFFIX = '.autoasesor-macro.json';

/** At most this many macros per firm (deleted ones do not count). */
export const MAX_MACROS_PER_FIRM = 500;
/** Versions kept per macro: saving the next one prunes the oldest (a run keeps the definition it ran). */
export const MAX_MACRO_VERSIONS = 50;

export const MACRO_NOT_FOUND_MESSAGE = 'No encontramos ese robot';
export const MACRO_VERSION_NOT_FOUND_MESSAGE = 'Esa versión del robot ya no se conserva';
export const MACRO_VIEW_ONLY_MESSAGE = 'Solo puedes ver este robot: pide a quien lo creó que te deje editarlo';
export const MACRO_OWNER_ONLY_DELETE_MESSAGE = 'Solo quien creó el robot puede borrarlo';
export const MACRO_LIMIT_MESSAGE = `Tu asesoría ya tiene ${MAX_MACROS_PER_FIRM} robots propios: borra alguno para crear otro`;
export const MACRO_PAYMENT_REQUIRED_MESSAGE = 'Crear y editar robots propios necesita un plan de pago activo. Elige un plan en Pagos para continuar';
export const MACRO_FILE_INVALID_MESSAGE = 'El archivo no es un robot de AutoAsesor válido';
export const MACRO_RESERVED_INPUT_MESSAGE = 'Este dato lo pone el servidor al lanzar el robot';

/** Where a new macro comes from: the desktop's recorder, the scraper, SmartBuilder from scratch, or an import. */
export const MACRO_SOURCES = ['recording', 'scraper', 'blank', 'import'] as const;
export type MacroSource = (typeof MACRO_SOURCES)[number];

const note = z.string().check(z.trim(), z.maxLength(300, 'Como mucho 300 caracteres'));

export const macroCreateBodySchema = z.object({
  source: z.enum(MACRO_SOURCES),
  definition: macroDefinitionSchema,
  note: z.optional(note),
});
export type MacroCreateBody = z.infer<typeof macroCreateBodySchema>;

export const macroSaveBodySchema = z.object({
  definition: macroDefinitionSchema,
  /** What changed, in the user's words (the versions list shows it). */
  note: z.optional(note),
});
export type MacroSaveBody = z.infer<typeof macroSaveBodySchema>;

export const macroAccessSchema = z.enum(['owner', 'edit', 'view']);
export type MacroAccess = z.infer<typeof macroAccessSchema>;

export const macroSummarySchema = z.object({
  id: z.string(),
  /** The flow the launcher and schedules name it by ('macro-<id>'). */
  flowId: z.string(),
  name: z.string(),
  description: z.string(),
  /** The current version (what a launch runs). */
  version: z.number(),
  steps: z.number(),
  runsOn: z.enum(FLOW_RUNTIMES),
  access: macroAccessSchema,
  ownerName: z.string(),
  updatedAt: z.string(),
});
export type MacroSummary = z.infer<typeof macroSummarySchema>;

export const macroVersionSummarySchema = z.object({
  version: z.number(),
  note: z.string(),
  createdAt: z.string(),
  /** Who saved it ('' once that user is gone). */
  createdBy: z.string(),
});
export type MacroVersionSummary = z.infer<typeof macroVersionSummarySchema>;

export const macroSchema = z.extend(macroSummarySchema, {
  definition: macroDefinitionSchema,
  versions: z.array(macroVersionSummarySchema),
});
export type Macro = z.infer<typeof macroSchema>;

export const macroVersionSchema = z.extend(macroVersionSummarySchema, { macroId: z.string(), definition: macroDefinitionSchema });
export type MacroVersion = z.infer<typeof macroVersionSchema>;

/** The exported file: the format and its version, and the macro's definition. */
export const macroFileSchema = z.object({
  format: z.literal(MACRO_FILE_FORMAT),
  version: z.literal(MACRO_FILE_VERSION),
  macro: z.unknown(),
});
export interface MacroFile {
  format: typeof MACRO_FILE_FORMAT;
  version: typeof MACRO_FILE_VERSION;
  macro: z.infer<typeof macroDefinitionSchema>;
}

export const macroIdParamsSchema = z.object({ id: z.string().check(z.regex(/^[0-9a-f-]{36}$/)) });
export const macroVersionParamsSchema = z.object({ id: z.string().check(z.regex(/^[0-9a-f-]{36}$/)), version: z.coerce.number().check(z.int(), z.gte(1)) });
