import type { FastifyInstance } from 'fastify';
import { z } from 'zod/mini';
import {
  MACRO_FILE_FORMAT, MACRO_FILE_INVALID_MESSAGE, MACRO_FILE_SUFFIX, MACRO_FILE_VERSION, macroCreateBodySchema, macroFileSchema, macroIdParamsSchema, macroSaveBodySchema,
  macroSchema, macroSummarySchema, macroVersionParamsSchema, macroVersionSchema, macroVersionSummarySchema, macrosPaths, type MacroFile,
} from '#shared/api/macros.ts';
import { MACRO_BODY_LIMIT, macroProblems, parseMacro, type MacroDefinition } from '#shared/macros/definition.ts';
import type { AppContext } from '../../context.ts';
import { HttpError, validationError } from '../../http/errors.ts';
import { routeSchema } from '../../http/openapi.ts';
import { NUL_MESSAGE, nulAt, parseNulFreeInput as parseInput } from '../../http/parse.ts';
import { requireSession } from '../../http/session.ts';
import { attachment } from '../storage/download.ts';
import { macroNotFound, type Macros } from './store.ts';

const tag = 'macro';

/** What the schema cannot say (macroProblems), as a 400 on `definition`; nothing is written. */
function checkDefinition(macro: MacroDefinition): MacroDefinition {
  const problems = macroProblems(macro);
  if (problems.length > 0) throw validationError(problems.map((message) => ({ path: 'definition', message })));
  return macro;
}

/** An id that cannot be one of ours names nothing: 404, as another firm's would. */
function parsedOr404<Schema extends z.core.$ZodType>(schema: Schema, input: unknown): z.output<Schema> {
  const result = z.safeParse(schema, input);
  if (!result.success) throw macroNotFound();
  return result.data;
}

/** An exported file read back: its format, then the definition with parseMacro. A 400 with the Spanish problems. */
function importedMacro(body: unknown): MacroDefinition {
  const file = z.safeParse(macroFileSchema, body);
  if (!file.success) throw new HttpError(400, 'MACRO_FILE_INVALID', MACRO_FILE_INVALID_MESSAGE, { issues: [{ path: 'format', message: MACRO_FILE_INVALID_MESSAGE }] });
  const parsed = parseMacro(file.data.macro);
  if (!parsed.ok) throw new HttpError(400, 'MACRO_FILE_INVALID', MACRO_FILE_INVALID_MESSAGE, { issues: parsed.problems.map((message) => ({ path: 'macro', message })) });
  const at = nulAt(parsed.macro, '');
  if (at !== null) throw validationError([{ path: `macro.${at}`, message: NUL_MESSAGE }]);
  return parsed.macro;
}

/** A file name from a macro's name: no path separators nor characters file systems refuse. */
const fileName = (name: string) => `${[...name].map((char) => (char < ' ' || '\\/:*?"<>|'.includes(char) ? ' ' : char)).join('').trim() || 'robot'}${MACRO_FILE_SUFFIX}`;

/**
 * Macros (issue 41; shared/api/macros.ts): the firm's own robots, versioned, shared like templates
 * (share kind 'macro'), exported and imported as JSON files. Bodies are capped at MACRO_BODY_LIMIT (413).
 */
export function registerMacrosRoutes(app: FastifyInstance, ctx: AppContext, macros: Macros): void {
  const listSchema = routeSchema({ tag, summary: "The caller's macros and those shared with them, by name", response: { 200: z.object({ items: z.array(macroSummarySchema) }) } });
  app.get(macrosPaths.macros, { schema: listSchema }, async (request) => ({ items: await macros.list(await requireSession(request, ctx)) }));

  const createSchema = routeSchema({
    tag, summary: 'A new macro from a recording, a scraper result or SmartBuilder (paid plans: 402 otherwise)', body: macroCreateBodySchema, response: { 201: macroSchema },
  });
  app.post(macrosPaths.macros, { schema: createSchema, bodyLimit: MACRO_BODY_LIMIT }, async (request, reply) => {
    const session = await requireSession(request, ctx);
    const body = parseInput(macroCreateBodySchema, request.body);
    checkDefinition(body.definition);
    return reply.status(201).send(await macros.create(session, body));
  });

  const importSchema = routeSchema({ tag, summary: 'A new macro of the caller from an exported file; 400 with the problems, nothing written', body: macroFileSchema, response: { 201: macroSchema } });
  app.post(macrosPaths.import, { schema: importSchema, bodyLimit: MACRO_BODY_LIMIT }, async (request, reply) => {
    const session = await requireSession(request, ctx);
    const definition = importedMacro(request.body);
    return reply.status(201).send(await macros.create(session, { source: 'import', definition }));
  });

  const getSchema = routeSchema({ tag, summary: 'One macro the caller may see: its current definition and kept versions', params: macroIdParamsSchema, response: { 200: macroSchema } });
  app.get(macrosPaths.macro, { schema: getSchema }, async (request) => {
    const session = await requireSession(request, ctx);
    return macros.get(session, parsedOr404(macroIdParamsSchema, request.params).id);
  });

  const saveSchema = routeSchema({ tag, summary: "Save a new version (the owner, or a colleague with 'edit' access)", params: macroIdParamsSchema, body: macroSaveBodySchema, response: { 200: macroSchema } });
  app.put(macrosPaths.macro, { schema: saveSchema, bodyLimit: MACRO_BODY_LIMIT }, async (request) => {
    const session = await requireSession(request, ctx);
    const { id } = parsedOr404(macroIdParamsSchema, request.params);
    const body = parseInput(macroSaveBodySchema, request.body);
    checkDefinition(body.definition);
    return macros.save(session, id, body);
  });

  const deleteSchema = routeSchema({ tag, summary: 'Delete a macro (its owner only): its shares go and its schedules stop', params: macroIdParamsSchema, response: { 204: null } });
  app.delete(macrosPaths.macro, { schema: deleteSchema }, async (request, reply) => {
    const session = await requireSession(request, ctx);
    await macros.delete(session, parsedOr404(macroIdParamsSchema, request.params).id);
    return reply.status(204).send();
  });

  const versionsSchema = routeSchema({ tag, summary: "A macro's kept versions, newest first", params: macroIdParamsSchema, response: { 200: z.object({ items: z.array(macroVersionSummarySchema) }) } });
  app.get(macrosPaths.versions, { schema: versionsSchema }, async (request) => {
    const session = await requireSession(request, ctx);
    return { items: await macros.versions(session, parsedOr404(macroIdParamsSchema, request.params).id) };
  });

  const versionSchema = routeSchema({ tag, summary: 'One kept version of a macro, with its definition', params: macroVersionParamsSchema, response: { 200: macroVersionSchema } });
  app.get(macrosPaths.version, { schema: versionSchema }, async (request) => {
    const session = await requireSession(request, ctx);
    const { id, version } = parsedOr404(macroVersionParamsSchema, request.params);
    return macros.version(session, id, version);
  });

  const exportSchema = routeSchema({ tag, summary: "A macro's current definition as a '.autoasesor-macro.json' download", params: macroIdParamsSchema });
  app.get(macrosPaths.export, { schema: exportSchema }, async (request, reply) => {
    const session = await requireSession(request, ctx);
    const macro = await macros.current(session, parsedOr404(macroIdParamsSchema, request.params).id);
    const file: MacroFile = { format: MACRO_FILE_FORMAT, version: MACRO_FILE_VERSION, macro };
    return reply
      .header('content-type', 'application/json; charset=utf-8')
      .header('content-disposition', attachment(fileName(macro.name)))
      .send(JSON.stringify(file, null, 2));
  });
}
