import { z } from 'zod/mini';
import { pathFor } from '#shared/api/flows.ts';
import { macroSchema, macroSummarySchema, macrosPaths } from '#shared/api/macros.ts';
import type { Macro, MacroSource, MacroSummary } from '#shared/api/macros.ts';
import { sharePaths } from '#shared/api/share.ts';
import type { MacroDefinition } from '#shared/macros/definition.ts';
import type { HttpError } from './baseApi.ts';
import { baseApi } from './baseApi.ts';

/*
 * The firm's macros (issue 41; shared/api/macros.ts): SmartBuilder's list and editor, the recorder's and
 * the scraper's 'save as a robot'. A copy goes through sharing's clone (kind 'macro').
 */
export { macrosPaths as macroPaths };
export type { MacroAccess, MacroSource, MacroSummary, MacroVersionSummary as MacroVersion } from '#shared/api/macros.ts';
export type MacroDetail = Macro;

export interface SaveMacroArgs {
  id: string;
  definition: MacroDefinition;
  note?: string;
}

const listSchema = z.object({ items: z.array(macroSummarySchema) });
const clonedSchema = z.object({ id: z.string() });

export const macrosApi = baseApi.enhanceEndpoints({ addTagTypes: ['Macros'] }).injectEndpoints({
  endpoints: (build) => ({
    macros: build.query<MacroSummary[], void>({
      query: () => macrosPaths.macros,
      transformResponse: (response: unknown) => listSchema.parse(response).items,
      providesTags: [{ type: 'Macros', id: 'LIST' }],
    }),
    macro: build.query<MacroDetail, string>({
      query: (id) => pathFor(macrosPaths.macro, { id }),
      transformResponse: (response: unknown) => macroSchema.parse(response),
      providesTags: (_result, _error, id) => [{ type: 'Macros', id }],
    }),
    createMacro: build.mutation<MacroDetail, { source: MacroSource; definition: MacroDefinition }>({
      query: (body) => ({ url: macrosPaths.macros, method: 'POST', body }),
      transformResponse: (response: unknown) => macroSchema.parse(response),
      invalidatesTags: [{ type: 'Macros', id: 'LIST' }],
    }),
    saveMacro: build.mutation<MacroDetail, SaveMacroArgs>({
      query: ({ id, definition, note }) => ({ url: pathFor(macrosPaths.macro, { id }), method: 'PUT', body: note ? { definition, note } : { definition } }),
      transformResponse: (response: unknown) => macroSchema.parse(response),
      invalidatesTags: (_result, _error, { id }) => [{ type: 'Macros', id }, { type: 'Macros', id: 'LIST' }],
    }),
    deleteMacro: build.mutation<void, string>({
      query: (id) => ({ url: pathFor(macrosPaths.macro, { id }), method: 'DELETE' }),
      invalidatesTags: [{ type: 'Macros', id: 'LIST' }],
    }),
    cloneMacro: build.mutation<{ id: string }, string>({
      query: (id) => ({ url: pathFor(sharePaths.clone, { kind: 'macro', id }), method: 'POST' }),
      transformResponse: (response: unknown) => clonedSchema.parse(response),
      invalidatesTags: [{ type: 'Macros', id: 'LIST' }],
    }),
    importMacro: build.mutation<MacroDetail, unknown>({
      query: (file) => ({ url: macrosPaths.import, method: 'POST', body: file }),
      transformResponse: (response: unknown) => macroSchema.parse(response),
      invalidatesTags: [{ type: 'Macros', id: 'LIST' }],
    }),
  }),
});

export const {
  useMacrosQuery, useMacroQuery, useCreateMacroMutation, useSaveMacroMutation, useDeleteMacroMutation, useCloneMacroMutation, useImportMacroMutation,
} = macrosApi;

/** The address that downloads a macro as its .json file (the browser keeps the session cookie). */
export function macroExportUrl(id: string): string {
  return pathFor(macrosPaths.export, { id });
}

/** What went wrong with a request, as lines to list: the server's field problems, else its message. */
export function problemsOf(error: unknown, fallback: string): string[] {
  const http = error as Partial<HttpError> | undefined;
  const data = http?.data;
  const problems = data?.details?.problems;
  if (Array.isArray(problems) && problems.every((problem) => typeof problem === 'string') && problems.length > 0) return problems as string[];
  // The macro routes' issues carry parseMacro's own lines ('steps.0.target: …', 'El paso 3 (…) …') under one path.
  if (data?.issues && data.issues.length > 0) return data.issues.map((issue) => issue.message);
  return [http?.message || data?.message || fallback];
}
