import fastifyMultipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod/mini';
import { flowsPaths, uploadColumnsResponseSchema, uploadResponseSchema, type UploadedFile } from '#shared/api/flows.ts';
import { DEFAULT_MAX_UPLOAD_BYTES, acceptedTypesText, claimedFileType, formatBytes, normalizeFilename } from '#shared/files/index.ts';
import type { AppContext } from '../../context.ts';
import { FileRefusal } from '../../files/errors.ts';
import { WORKBOOK_TYPES } from '../../files/inspected-types.ts';
import { StartSniffer } from '../../files/sniff.ts';
import { HttpError, validationError } from '../../http/errors.ts';
import { routeSchema } from '../../http/openapi.ts';
import { parseInput } from '../../http/parse.ts';
import { requireSession } from '../../http/session.ts';
import { refusalError, type UploadInspections } from './inspections.ts';
import { UPLOAD_NOT_FOUND_MESSAGE, findGroupUpload, insertStoredFiles, type FileStorage, type NewStoredFile } from './service.ts';

/** Files one upload request may carry (the launcher sends one input's files at a time). */
const MAX_FILES_PER_REQUEST = 20;

const uploadIdParamsSchema = z.object({ id: z.string().check(z.uuid('El identificador del archivo no es válido')) });

/** Spec §5 'filesizeexceeded': the actual and the allowed sizes, in base-1000 units. */
export function uploadTooLarge(actualBytes: number, limitBytes = DEFAULT_MAX_UPLOAD_BYTES): HttpError {
  return new HttpError(413, 'FILE_SIZE_EXCEEDED', `Los archivos ocupan ${formatBytes(actualBytes)} y el máximo es ${formatBytes(limitBytes)}`, {
    details: { actualBytes, limitBytes, actual: formatBytes(actualBytes), limit: formatBytes(limitBytes) },
  });
}

export function refusedFileType(name: string): HttpError {
  return new HttpError(415, 'FILE_TYPE_REFUSED', `No se admite el tipo de archivo de «${name}». Tipos admitidos: ${acceptedTypesText()}`);
}

class TooLarge extends Error {}

/**
 * Uploads to storage before a launch (spec §5 Uploads), and the columns of an uploaded workbook.
 * Each file is streamed to disk as it arrives, never held whole in memory, and judged by its content
 * (issue 18): its first bytes as they arrive, then the stored file, once (workbooks and FIE files in a
 * child process with caps; see server/files/). What was found is stored with it. A request over the
 * size limit, with a refused type, or with a file over a cap or unreadable leaves nothing behind.
 */
export async function registerStorageRoutes(app: FastifyInstance, ctx: AppContext, storage: FileStorage, inspections: UploadInspections): Promise<void> {
  // Encapsulated: the multipart parser serves these routes only.
  await app.register(async (scope) => {
    await scope.register(fastifyMultipart, { limits: { fileSize: DEFAULT_MAX_UPLOAD_BYTES + 1, files: MAX_FILES_PER_REQUEST, fields: 10, parts: MAX_FILES_PER_REQUEST + 10 } });

    const uploadsSchema = routeSchema({
      tag: 'storage',
      summary: 'Upload files before a launch',
      description: "multipart/form-data with one or more 'file' parts; each file is judged by its content.",
      response: { 201: uploadResponseSchema },
    });
    scope.post(flowsPaths.uploads, { schema: uploadsSchema }, async (request, reply) => {
      const owner = await requireSession(request, ctx);
      if (!request.isMultipart()) throw new HttpError(415, 'UNSUPPORTED_MEDIA_TYPE', 'Envía los archivos como multipart/form-data');
      // A declared length far over the limit is refused before a byte is read (multipart adds a little framing).
      const declared = Number(request.headers['content-length'] ?? Number.NaN);
      if (declared > DEFAULT_MAX_UPLOAD_BYTES + 64 * 1024) throw uploadTooLarge(declared);

      const written: NewStoredFile[] = [];
      let total = 0;
      try {
        for await (const part of request.files()) {
          const name = normalizeFilename(part.filename ?? '') || 'archivo';
          const type = claimedFileType(name);
          if (type === null) {
            part.file.resume();
            throw refusedFileType(name);
          }
          const { id, storageKey } = storage.newKey(owner.groupId);
          const sniffer = new StartSniffer(type);
          try {
            const size = await storage.writeStream(storageKey, part.file, (chunk) => {
              if (total + chunk.length > DEFAULT_MAX_UPLOAD_BYTES) throw new TooLarge();
              total += chunk.length;
              sniffer.push(chunk);
            });
            const file: NewStoredFile = { id, storageKey, name, size };
            written.push(file);
            sniffer.finish();
            file.inspection = await inspections.inspectNew(storage.pathOf(storageKey), name, type, sniffer.start);
          } catch (error) {
            if (error instanceof FileRefusal) {
              part.file.resume();
              throw refusalError(name, error);
            }
            throw error;
          }
        }
        if (written.length === 0) throw validationError([{ path: 'file', message: 'Adjunta al menos un archivo' }]);
        const items: UploadedFile[] = await insertStoredFiles(ctx.db, { ...owner, kind: 'upload', runId: null }, written, ctx.now());
        return reply.status(201).send({ items });
      } catch (error) {
        await storage.remove(written.map((file) => file.storageKey));
        if (error instanceof TooLarge || (error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') {
          throw uploadTooLarge(Math.max(declared || 0, total + 1));
        }
        throw error;
      }
    });
  });

  const columnsSchema = routeSchema({ tag: 'storage', summary: 'The columns and rows of an uploaded workbook', params: uploadIdParamsSchema, response: { 200: uploadColumnsResponseSchema } });
  app.get(flowsPaths.uploadColumns, { schema: columnsSchema }, async (request) => {
    const { groupId } = await requireSession(request, ctx);
    const { id } = parseInput(uploadIdParamsSchema, request.params);
    const upload = await findGroupUpload(ctx.db, groupId, id);
    if (!upload) throw new HttpError(404, 'UPLOAD_NOT_FOUND', UPLOAD_NOT_FOUND_MESSAGE);
    // What the upload's inspection found: the file itself is not read here.
    const inspection = await inspections.of(upload);
    if (inspection instanceof FileRefusal || inspection.sheet === null || !WORKBOOK_TYPES.has(inspection.detectedType)) {
      throw new HttpError(415, 'NOT_A_WORKBOOK', `«${upload.name}» no es un libro de Excel, ODS o CSV que se pueda leer`);
    }
    return inspection.sheet;
  });
}
