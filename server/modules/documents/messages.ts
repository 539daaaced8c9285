import { z } from 'zod/mini';
import { CATEGORY_NOT_FOUND_MESSAGE, DOCUMENT_FORMATS, DOCUMENT_NOT_FOUND_MESSAGE, TEMPLATE_NOT_FOUND_MESSAGE } from '#shared/api/documents.ts';
import { HttpError } from '../../http/errors.ts';

/** The document creator's refusals (Spanish) and the shapes of its paths and queries. */

export const STARTER_NOT_FOUND_MESSAGE = 'No encontramos esa plantilla de ejemplo';
export const VIEW_ONLY_MESSAGE = 'Solo puedes ver esta plantilla: pide a quien la creó permiso para editarla';
export const DOCUMENT_FAILED_MESSAGE = 'Este documento no se pudo generar: vuelve a generarlo';
export const OWNER_ONLY_DELETE_MESSAGE = 'Solo quien creó la plantilla puede eliminarla';

export const notFound = (message: string) => new HttpError(404, 'NOT_FOUND', message);
export const templateNotFound = () => notFound(TEMPLATE_NOT_FOUND_MESSAGE);
export const categoryNotFound = () => notFound(CATEGORY_NOT_FOUND_MESSAGE);
export const documentNotFound = () => notFound(DOCUMENT_NOT_FOUND_MESSAGE);
export const forbidden = (message: string) => new HttpError(403, 'FORBIDDEN', message);

/** Our ids are UUIDs: anything else names nothing (404, as another firm's would). */
const id = z.string().check(z.uuid());
export const idParamsSchema = z.object({ id });
export const starterParamsSchema = z.object({ key: z.string().check(z.maxLength(64)) });
export const documentFileParamsSchema = z.object({ id, format: z.enum(DOCUMENT_FORMATS) });

const optionalText = (max: number) => z.optional(z.string().check(z.trim(), z.maxLength(max, `Como mucho ${max} caracteres`)));

export const TEMPLATE_SCOPES = ['all', 'own', 'shared'] as const;
export const templatesQuerySchema = z.object({
  categoryId: optionalText(64),
  q: optionalText(200),
  scope: z._default(z.enum(TEMPLATE_SCOPES), 'all'),
});
export type TemplatesQuery = z.infer<typeof templatesQuerySchema>;

export const documentsQuerySchema = z.object({
  q: optionalText(200),
  templateId: optionalText(64),
  page: z._default(z.coerce.number().check(z.int('La página debe ser un número entero'), z.gte(1, 'La página debe ser 1 o más'), z.lte(100_000)), 1),
});
export type DocumentsQuery = z.infer<typeof documentsQuerySchema>;

/** A LIKE pattern that finds `text` anywhere in a lower-cased column, its wildcards taken literally (escape '\'). */
export const containsPattern = (text: string) => `%${text.toLowerCase().replace(/[\\%_]/g, (char) => `\\${char}`)}%`;

/** An image block whose bytes are not the PNG or JPEG its data URL names (templates.ts checkImages). */
export const IMAGE_CONTENT_MESSAGE = 'La imagen no es un PNG o JPEG válido; elige otra imagen';
