import fastifyMultipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod/mini';
import { flowsPaths, type UploadedFile } from '#shared/api/flows.ts';
import { ALLOWED_EXTENSIONS, DEFAULT_MAX_UPLOAD_BYTES, formatBytes, isAcceptedFile, normalizeFilename } from '#shared/files/index.ts';
import type { AppContext } from '../../context.ts';
import { HttpError, validationError } from '../../http/errors.ts';
import { parseInput } from '../../http/parse.ts';
import { requireSession } from '../../http/session.ts';
import { findGroupUpload, insertStoredFiles, type FileStorage, type NewStoredFile } from './service.ts';
import type { UploadColumnsReader } from './workbook.ts';

/** Files one upload request may carry (the launcher sends one input's files at a time). */
const MAX_FILES_PER_REQUEST = 20;

const uploadIdParamsSchema = z.object({ id: z.string().check(z.uuid('El identificador del archivo no es válido')) });

export const UPLOAD_NOT_FOUND_MESSAGE = 'No se ha encontrado este archivo';

/** Spec §5 'filesizeexceeded': the actual and the allowed sizes, in base-1000 units. */
export function uploadTooLarge(actualBytes: number, limitBytes = DEFAULT_MAX_UPLOAD_BYTES): HttpError {
  return new HttpError(413, 'FILE_SIZE_EXCEEDED', `Los archivos ocupan ${formatBytes(actualBytes)} y el máximo es ${formatBytes(limitBytes)}`, {
    details: { actualBytes, limitBytes, actual: formatBytes(actualBytes), limit: formatBytes(limitBytes) },
  });
}

export function refusedFileType(name: string): HttpError {
  return new HttpError(415, 'FILE_TYPE_REFUSED', `No se admite el tipo de archivo de «${name}». Tipos admitidos: ${ALLOWED_EXTENSIONS.join(', ')}`);
}

class TooLarge extends Error {}

/**
 * Uploads to storage before a launch (spec §5 Uploads), and the columns of an uploaded workbook.
 * Each file is streamed to disk as it arrives, never held whole in memory; a request over the size
 * limit or with a refused type leaves nothing behind.
 */
export async function registerStorageRoutes(app: FastifyInstance, ctx: AppContext, storage: FileStorage, columnsReader: UploadColumnsReader): Promise<void> {
  // Encapsulated: the multipart parser serves these routes only.
  await app.register(async (scope) => {
    await scope.register(fastifyMultipart, { limits: { fileSize: DEFAULT_MAX_UPLOAD_BYTES + 1, files: MAX_FILES_PER_REQUEST, fields: 10, parts: MAX_FILES_PER_REQUEST + 10 } });

    scope.post(flowsPaths.uploads, async (request, reply) => {
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
          if (!isAcceptedFile({ name, type: part.mimetype })) {
            part.file.resume();
            throw refusedFileType(name);
          }
          const { id, storageKey } = storage.newKey(owner.groupId);
          const size = await storage.writeStream(storageKey, part.file, (chunk) => {
            if (total + chunk.length > DEFAULT_MAX_UPLOAD_BYTES) throw new TooLarge();
            total += chunk.length;
          });
          written.push({ id, storageKey, name, size });
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

  app.get(flowsPaths.uploadColumns, async (request) => {
    const { groupId } = await requireSession(request, ctx);
    const { id } = parseInput(uploadIdParamsSchema, request.params);
    const upload = await findGroupUpload(ctx.db, groupId, id);
    if (!upload) throw new HttpError(404, 'UPLOAD_NOT_FOUND', UPLOAD_NOT_FOUND_MESSAGE);
    const columns = await columnsReader.columnsOf(upload);
    if (columns === null) throw new HttpError(415, 'NOT_A_WORKBOOK', `«${upload.name}» no es un libro de Excel, ODS o CSV que se pueda leer`);
    return columns;
  });
}
