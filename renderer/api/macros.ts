import { z } from 'zod/mini';
import { pathFor } from '#shared/api/flows.ts';
import { macroDefinitionSchema } from '#shared/macros/definition.ts';
import type { MacroDefinition } from '#shared/macros/definition.ts';
import type { HttpError } from './baseApi.ts';
import { baseApi } from './baseApi.ts';

/*
 * The firm's macros (issue 41): SmartBuilder's list and editor, the recorder's and the scraper's
 * 'save as a robot'. Written against the shape the API helper announced for shared/api/macros.ts;
 * the responses are parsed here so a drift shows up as a clear error, not as a broken screen.
 */
export const macroPaths = {
  /** GET -> { items: MacroSummary[] }; POST { definition } -> MacroDetail (201). */
  macros: '/api/macro',
  /** GET -> MacroDetail; PUT { definition, note? } -> MacroDetail (a new version); DELETE -> 204. */
  macro: '/api/macro/:id',
  /** POST -> MacroDetail (201): the caller's own copy. */
  clone: '/api/macro/:id/clone',
  /** GET -> the macro as a .json attachment. */
  export: '/api/macro/:id/export',
  /** POST { format, version, macro } (an exported file as it is) -> MacroDetail (201). */
  import: '/api/macro/import',
} as const;

const accessSchema = z.enum(['owner', 'edit', 'view']);
export type MacroAccess = z.infer<typeof accessSchema>;

export const macroSummarySchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  version: z.number(),
  updatedAt: z.string(),
  steps: z.number(),
  access: accessSchema,
  ownerName: z.string(),
  flowId: z.string(),
});
export type MacroSummary = z.infer<typeof macroSummarySchema>;

export const macroVersionSchema = z.object({ version: z.number(), createdAt: z.string(), createdBy: z.string(), note: z.nullish(z.string()) });
export type MacroVersion = z.infer<typeof macroVersionSchema>;

export const macroDetailSchema = z.object({
  id: z.string(),
  name: z.string(),
  access: accessSchema,
  version: z.number(),
  definition: macroDefinitionSchema,
  versions: z.array(macroVersionSchema),
});
export type MacroDetail = z.infer<typeof macroDetailSchema>;

export interface SaveMacroArgs {
  id: string;
  definition: MacroDefinition;
  note?: string;
}

const listSchema = z.object({ items: z.array(macroSummarySchema) });

export const macrosApi = baseApi.enhanceEndpoints({ addTagTypes: ['Macros'] }).injectEndpoints({
  endpoints: (build) => ({
    macros: build.query<MacroSummary[], void>({
      query: () => macroPaths.macros,
      transformResponse: (response: unknown) => listSchema.parse(response).items,
      providesTags: [{ type: 'Macros', id: 'LIST' }],
    }),
    macro: build.query<MacroDetail, string>({
      query: (id) => pathFor(macroPaths.macro, { id }),
      transformResponse: (response: unknown) => macroDetailSchema.parse(response),
      providesTags: (_result, _error, id) => [{ type: 'Macros', id }],
    }),
    createMacro: build.mutation<MacroDetail, MacroDefinition>({
      query: (definition) => ({ url: macroPaths.macros, method: 'POST', body: { definition } }),
      transformResponse: (response: unknown) => macroDetailSchema.parse(response),
      invalidatesTags: [{ type: 'Macros', id: 'LIST' }],
    }),
    saveMacro: build.mutation<MacroDetail, SaveMacroArgs>({
      query: ({ id, definition, note }) => ({ url: pathFor(macroPaths.macro, { id }), method: 'PUT', body: note ? { definition, note } : { definition } }),
      transformResponse: (response: unknown) => macroDetailSchema.parse(response),
      invalidatesTags: (_result, _error, { id }) => [{ type: 'Macros', id }, { type: 'Macros', id: 'LIST' }],
    }),
    deleteMacro: build.mutation<void, string>({
      query: (id) => ({ url: pathFor(macroPaths.macro, { id }), method: 'DELETE' }),
      invalidatesTags: [{ type: 'Macros', id: 'LIST' }],
    }),
    cloneMacro: build.mutation<MacroDetail, string>({
      query: (id) => ({ url: pathFor(macroPaths.clone, { id }), method: 'POST' }),
      transformResponse: (response: unknown) => macroDetailSchema.parse(response),
      invalidatesTags: [{ type: 'Macros', id: 'LIST' }],
    }),
    importMacro: build.mutation<MacroDetail, unknown>({
      query: (file) => ({ url: macroPaths.import, method: 'POST', body: file }),
      transformResponse: (response: unknown) => macroDetailSchema.parse(response),
      invalidatesTags: [{ type: 'Macros', id: 'LIST' }],
    }),
  }),
});

export const {
  useMacrosQuery, useMacroQuery, useCreateMacroMutation, useSaveMacroMutation, useDeleteMacroMutation, useCloneMacroMutation, useImportMacroMutation,
} = macrosApi;

/** The address that downloads a macro as its .json file (the browser keeps the session cookie). */
export function macroExportUrl(id: string): string {
  return pathFor(macroPaths.export, { id });
}

/** What went wrong with a request, as lines to list: the server's field problems, else its message. */
export function problemsOf(error: unknown, fallback: string): string[] {
  const http = error as Partial<HttpError> | undefined;
  const data = http?.data;
  const problems = data?.details?.problems;
  if (Array.isArray(problems) && problems.every((problem) => typeof problem === 'string') && problems.length > 0) return problems as string[];
  if (data?.issues && data.issues.length > 0) return data.issues.map((issue) => (issue.path && issue.path !== '(body)' ? `${issue.path}: ${issue.message}` : issue.message));
  return [http?.message || data?.message || fallback];
}
