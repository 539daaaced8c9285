import fastifyMultipart from '@fastify/multipart';
import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod/mini';
import { DEVICE_AUTH_SCHEME } from '#shared/api/devices.ts';
import {
  a3ResultsRequestSchema, fieCreateRequestSchema, fieCreateResponseSchema, fieDateListResponseSchema, fieDocumentDetailSchema, fieDocumentViewSchema,
  fieEntrySelectionSchema, fieListPageSchema, fieListQuerySchema, fieMatchingIdsSchema, fieUploadQuerySchema, fieListResponseSchema, fiePaths, fieUpdateRequestSchema, fieUploadResponseSchema, reconciliationRowSchema,
  FIE_UPLOAD_MAX_FILE_BYTES, FIE_UPLOAD_MAX_FILES, type FieUploadResult, fieAppendRequestSchema, fieAppendResponseSchema,
  FIE_ENTRIES_BODY_LIMIT, FIE_RESULTS_BODY_LIMIT, FIE_SELECTION_BODY_LIMIT,
} from '#shared/api/fie.ts';
import { a3SyncRecordWithEntrySchema } from '#shared/bridge/contract.ts';
import { normalizeFilename } from '#shared/files/index.ts';
import type { AppContext } from '../../context.ts';
import { HttpError, validationError } from '../../http/errors.ts';
import { routeSchema } from '../../http/openapi.ts';
import { parseInput } from '../../http/parse.ts';
import { requireSession } from '../../http/session.ts';
import type { DeviceAuth } from '../devices/auth.ts';
import { FIE_UPLOAD_EMPTY_MESSAGE, FIE_UPLOAD_NOT_MULTIPART_MESSAGE, FIE_UPLOAD_TOO_MANY_MESSAGE } from './messages.ts';
import type { FieA3 } from './a3.ts';
import type { FieCaller, FieService, ReceivedFieFile } from './service.ts';
import { newUploadFolder, removeStaleUploadFolders, removeUploadFolder } from './upload-folders.ts';

const XLSX_CONTENT_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const EXPORT_FILE_NAME = 'incidencias-a3.xlsx';

/**
 * Issue 39 (2): JSON bodies are parsed and validated on the event loop, so each is one page (entries,
 * A3's answers) or one selection of ids: a few hundred KB, never tens of MB (96 MB of entries held every
 * firm's requests for seconds). Files come as multipart uploads, decoded in a child process.
 */
const ENTRIES_BODY_LIMIT = FIE_ENTRIES_BODY_LIMIT;
const RESULTS_BODY_LIMIT = FIE_RESULTS_BODY_LIMIT;
const SELECTION_BODY_LIMIT = FIE_SELECTION_BODY_LIMIT;

const documentParamsSchema = z.object({ id: z.string().check(z.minLength(1), z.maxLength(64)) });
const a3RecordsResponseSchema = z.object({ records: z.array(a3SyncRecordWithEntrySchema) });
const a3ResultsResponseSchema = z.object({ updated: z.number() });
const reconciliationResponseSchema = z.object({ items: z.array(reconciliationRowSchema) });

/**
 * Spec §7 FIE, within the caller's firm: a signed-in member, or a linked device with
 * `Authorization: Device <token>` (the desktop's SILTRA fetch uploads, its A3 sync asks for records
 * and reports results). Every body and query is parsed with shared/api/fie.ts before anything is written.
 */
export async function registerFieRoutes(app: FastifyInstance, ctx: AppContext, fie: FieService, a3: FieA3, deviceAuth: DeviceAuth): Promise<void> {
  const callerOf = async (request: FastifyRequest): Promise<FieCaller> => {
    const header = request.headers.authorization;
    if (typeof header === 'string' && header.trim().startsWith(`${DEVICE_AUTH_SCHEME} `)) {
      const device = await deviceAuth.require(request);
      return { groupId: device.groupId, userId: device.userId };
    }
    const session = await requireSession(request, ctx);
    return { groupId: session.groupId, userId: session.userId };
  };
  const tag = 'fie';

  // What a stopped server left (issue 39, 6): its half-written imports and its uploads' folders.
  await fie.removeAbandonedImports();
  await removeStaleUploadFolders();
  app.addHook('onClose', async () => fie.close());

  const listSchema = routeSchema({
    tag,
    summary: "The firm's FIE list: one page of its matching entries (with limit), every document with its matching entries, the ids of the matching partes (select=ids), or only the documents' dates",
    querystring: fieListQuerySchema,
    response: { 200: z.union([fieListPageSchema, fieListResponseSchema, fieMatchingIdsSchema, fieDateListResponseSchema]) },
  });
  app.get(fiePaths.fie, { schema: listSchema }, async (request) => {
    const { groupId } = await callerOf(request);
    const query = parseInput(fieListQuerySchema, request.query);
    if (query.select === 'date') return { items: await fie.listDates(groupId) };
    if (query.select === 'ids') return fie.matchingIds(groupId, query);
    if (query.limit !== undefined) return fie.listPage(groupId, { ...query, limit: query.limit });
    return { items: await fie.list(groupId, query) };
  });

  const createSchema = routeSchema({ tag, summary: 'Create a FIE document from its entries', body: fieCreateRequestSchema, response: { 201: fieCreateResponseSchema } });
  app.post(fiePaths.fie, { schema: createSchema, bodyLimit: ENTRIES_BODY_LIMIT }, async (request, reply) => {
    const caller = await callerOf(request);
    const body = parseInput(fieCreateRequestSchema, request.body);
    return reply.status(201).send(await fie.create(caller, body));
  });

  const updateSchema = routeSchema({ tag, summary: "Replace a FIE document's entries", body: fieUpdateRequestSchema, response: { 200: fieDocumentViewSchema } });
  for (const method of ['patch', 'put'] as const) {
    app[method](fiePaths.fie, { schema: updateSchema, bodyLimit: ENTRIES_BODY_LIMIT }, async (request) => {
      const caller = await callerOf(request);
      const body = parseInput(fieUpdateRequestSchema, request.body);
      return fie.update(caller, body);
    });
  }

  const appendSchema = routeSchema({ tag, summary: "Append one more page of entries to a FIE document", params: documentParamsSchema, body: fieAppendRequestSchema, response: { 200: fieAppendResponseSchema } });
  app.post(fiePaths.entries, { schema: appendSchema, bodyLimit: ENTRIES_BODY_LIMIT }, async (request) => {
    const caller = await callerOf(request);
    const { id } = parseInput(documentParamsSchema, request.params);
    const body = parseInput(fieAppendRequestSchema, request.body);
    return fie.append(caller, id, body.entries);
  });

  const detailSchema = routeSchema({ tag, summary: 'A FIE document with every field of every entry', params: documentParamsSchema, response: { 200: fieDocumentDetailSchema } });
  app.get(fiePaths.document, { schema: detailSchema }, async (request) => {
    const { groupId } = await callerOf(request);
    const { id } = parseInput(documentParamsSchema, request.params);
    return fie.detail(groupId, id);
  });

  const deleteSchema = routeSchema({ tag, summary: 'Delete a FIE document and the entries no other document has', params: documentParamsSchema, response: { 204: null } });
  app.delete(fiePaths.document, { schema: deleteSchema }, async (request, reply) => {
    const { groupId } = await callerOf(request);
    const { id } = parseInput(documentParamsSchema, request.params);
    await fie.remove(groupId, id);
    return reply.status(204).send();
  });

  const exportSchema = routeSchema({ tag, summary: 'The A3 incidences workbook (.xlsx) of the selected entries', body: fieEntrySelectionSchema });
  app.post(fiePaths.exportA3, { schema: exportSchema, bodyLimit: SELECTION_BODY_LIMIT }, async (request, reply) => {
    const { groupId } = await callerOf(request);
    const { entryIds } = parseInput(fieEntrySelectionSchema, request.body);
    const workbook = await a3.exportA3(groupId, entryIds);
    return reply.header('content-type', XLSX_CONTENT_TYPE).header('content-disposition', `attachment; filename="${EXPORT_FILE_NAME}"`).send(Buffer.from(workbook));
  });

  const recordsSchema = routeSchema({ tag, summary: "The A3 sync records of the selected entries (RunFieRobot's input)", body: fieEntrySelectionSchema, response: { 200: a3RecordsResponseSchema } });
  app.post(fiePaths.a3Records, { schema: recordsSchema, bodyLimit: SELECTION_BODY_LIMIT }, async (request) => {
    const { groupId } = await callerOf(request);
    const { entryIds } = parseInput(fieEntrySelectionSchema, request.body);
    return { records: await a3.a3Records(groupId, entryIds) };
  });

  const resultsSchema = routeSchema({ tag, summary: 'What the A3 import answered per entry', body: a3ResultsRequestSchema, response: { 200: a3ResultsResponseSchema } });
  app.post(fiePaths.a3Results, { schema: resultsSchema, bodyLimit: RESULTS_BODY_LIMIT }, async (request) => {
    const { groupId } = await callerOf(request);
    const body = parseInput(a3ResultsRequestSchema, request.body);
    return { updated: await a3.a3Results(groupId, body) };
  });

  const reconciliationSchema = routeSchema({ tag, summary: 'Workers with an open baja, and whether A3 has it', response: { 200: reconciliationResponseSchema } });
  app.get(fiePaths.reconciliation, { schema: reconciliationSchema }, async (request) => ({ items: await a3.reconciliation((await callerOf(request)).groupId) }));

  // Encapsulated: the multipart parser serves the upload only.
  await app.register(async (scope) => {
    await scope.register(fastifyMultipart, {
      // A file over the cap is cut (part.file.truncated) and answered as failed, the others still count.
      throwFileSizeLimit: false,
      limits: { fileSize: FIE_UPLOAD_MAX_FILE_BYTES, files: FIE_UPLOAD_MAX_FILES, fields: 10, parts: FIE_UPLOAD_MAX_FILES + 10 },
    });
    const uploadSchema = routeSchema({
      tag,
      summary: 'Upload FIE files: each judged by its content, decoded off the request thread and stored once per firm',
      querystring: fieUploadQuerySchema,
      description: "multipart/form-data with one or more files in the field 'files' (text FIE3/FIE4 or the Excel form).",
      response: { 200: fieUploadResponseSchema },
    });
    scope.post(fiePaths.upload, { schema: uploadSchema }, async (request) => {
      const caller = await callerOf(request);
      const { source } = parseInput(fieUploadQuerySchema, request.query);
      if (!request.isMultipart()) throw new HttpError(415, 'UNSUPPORTED_MEDIA_TYPE', FIE_UPLOAD_NOT_MULTIPART_MESSAGE);
      // Every file is received (to disk, hashed as it streams) before any is processed: a request over
      // the limits is refused whole, with nothing written.
      const dir = await newUploadFolder();
      const results: FieUploadResult[] = [];
      try {
        const received: ReceivedFieFile[] = [];
        try {
          for await (const part of request.files()) {
            const path = join(dir, String(received.length));
            const hash = createHash('sha256');
            const hashing = new Transform({
              transform(chunk: Buffer, _encoding, done) {
                hash.update(chunk);
                done(null, chunk);
              },
            });
            await pipeline(part.file, hashing, createWriteStream(path));
            received.push({ fileName: normalizeFilename(part.filename ?? '') || 'archivo', path, contentHash: hash.digest('hex'), truncated: part.file.truncated });
          }
        } catch (error) {
          if ((error as { code?: string }).code === 'FST_FILES_LIMIT') throw new HttpError(413, 'TOO_MANY_FILES', FIE_UPLOAD_TOO_MANY_MESSAGE);
          throw error;
        }
        for (const file of received) {
          results.push(await fie.processUpload(caller, file, source));
          await rm(file.path, { force: true });
        }
      } finally {
        await removeUploadFolder(dir);
      }
      if (results.length === 0) throw validationError([{ path: 'files', message: FIE_UPLOAD_EMPTY_MESSAGE }]);
      const count = (status: FieUploadResult['status']) => results.filter((result) => result.status === status).length;
      return { results, processed: count('processed'), failed: count('failed'), alreadyAdded: count('already-added') };
    });
  });
}
