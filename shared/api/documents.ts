import { z } from 'zod/mini';
import { templateContentSchema } from '../documents/blocks.ts';

/**
 * The document creator's API (issue 40 §1; spec API 'documentcreator: categories, templates,
 * documents, styles, blocks'). Everything belongs to the caller's firm; a template is seen by its
 * owner and by the colleagues it is shared with (shared/api/share.ts), and edited by its owner and
 * those with 'edit' access. Anything else answers 404, as another firm's would.
 */
export const documentsPaths = {
  /** GET -> { items: Category[] } by name; POST CategoryBody -> Category (201). */
  categories: '/api/documentcreator/categories',
  /** PATCH CategoryBody -> Category; DELETE -> 204 (its templates stay, without category). */
  category: '/api/documentcreator/categories/:id',
  /** GET ?categoryId=&q=&scope=all|own|shared -> { items: TemplateSummary[] } newest first; POST TemplateBody -> Template (201). */
  templates: '/api/documentcreator/templates',
  /** GET -> Template; PUT TemplateBody -> Template (owner or 'edit' access); DELETE -> 204 (owner). */
  template: '/api/documentcreator/templates/:id',
  /** GET -> { items: Starter[] }: the starter templates an asesoría uses. */
  starters: '/api/documentcreator/starters',
  /** POST -> Template (201): the firm's own copy of a starter, owned by the caller. */
  useStarter: '/api/documentcreator/starters/:key',
  /** GET -> { items: StylePreset[] } (shared/documents/blocks.ts STYLE_PRESETS). */
  styles: '/api/documentcreator/styles',
  /** GET -> { items: { type, label }[] }: the block types a template is built from. */
  blocks: '/api/documentcreator/blocks',
  /** GET ?q=&templateId=&page= -> DocumentsPage newest first; POST GenerateBody -> GeneratedDocument (201, status 'generating'). */
  documents: '/api/documentcreator/documents',
  /** GET -> GeneratedDocument; DELETE -> 204 (its files go too). */
  document: '/api/documentcreator/documents/:id',
  /** GET -> the file as a download (application/pdf or the .docx type); 409 while it is being made. */
  documentFile: '/api/documentcreator/documents/:id/:format',
} as const;

export const DOCUMENT_FORMATS = ['pdf', 'docx'] as const;
export type DocumentFormat = (typeof DOCUMENT_FORMATS)[number];

export const TEMPLATE_NOT_FOUND_MESSAGE = 'No encontramos esa plantilla';
export const CATEGORY_NOT_FOUND_MESSAGE = 'No encontramos esa categoría';
export const DOCUMENT_NOT_FOUND_MESSAGE = 'No encontramos ese documento';
export const DOCUMENT_NOT_READY_MESSAGE = 'El documento aún se está generando';
export const CATEGORY_TAKEN_MESSAGE = 'Ya tienes una categoría con ese nombre';
/**
 * JSON bodies of templates carry images as data URLs (at most MAX_IMAGE_DATA_URL each): 640 KB in all.
 * SQLite writes a template on the server's one thread, so a bigger body would hold every firm's requests.
 */
export const TEMPLATE_BODY_LIMIT = 640 * 1024;
export const DOCUMENTS_PAGE_SIZE = 50;

const name = (message: string) => z.string().check(z.trim(), z.minLength(1, message), z.maxLength(120, 'Como mucho 120 caracteres'));

export const categoryBodySchema = z.object({ name: name('Escribe el nombre de la categoría') });
export type CategoryBody = z.infer<typeof categoryBodySchema>;
export const categorySchema = z.object({ id: z.string(), name: z.string(), templates: z.number() });
export type Category = z.infer<typeof categorySchema>;

/** Who may do what with an object: the caller's own, or shared with the caller for reading or editing. */
export const objectAccessSchema = z.enum(['owner', 'edit', 'view']);
export type ObjectAccess = z.infer<typeof objectAccessSchema>;

export const templateBodySchema = z.object({
  name: name('Escribe el nombre de la plantilla'),
  description: z.string().check(z.maxLength(500)),
  categoryId: z.nullable(z.string()),
  content: templateContentSchema,
});
export type TemplateBody = z.infer<typeof templateBodySchema>;

export const templateSummarySchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  categoryId: z.nullable(z.string()),
  /** The data placeholders (templatePlaceholders), what a form from it asks. */
  placeholders: z.array(z.string()),
  takesSignature: z.boolean(),
  access: objectAccessSchema,
  ownerName: z.string(),
  updatedAt: z.string(),
});
export type TemplateSummary = z.infer<typeof templateSummarySchema>;
export const templateSchema = z.extend(templateSummarySchema, { content: templateContentSchema });
export type Template = z.infer<typeof templateSchema>;

export const starterSchema = z.object({ key: z.string(), name: z.string(), description: z.string(), placeholders: z.array(z.string()) });
export type Starter = z.infer<typeof starterSchema>;

export const generateBodySchema = z.object({
  templateId: z.string(),
  /** The file's name without extension; the template's name when empty. */
  name: z.string().check(z.trim(), z.maxLength(120)),
  /** The client company it is about (the document manager groups by it). */
  company: z.optional(z.string().check(z.trim(), z.maxLength(200))),
  values: z.record(z.string().check(z.maxLength(80)), z.string().check(z.maxLength(10_000))),
});
export type GenerateBody = z.infer<typeof generateBodySchema>;

export const generatedDocumentSchema = z.object({
  id: z.string(),
  name: z.string(),
  company: z.nullable(z.string()),
  templateId: z.nullable(z.string()),
  templateName: z.nullable(z.string()),
  /** Set for a document made from an online form's submission. */
  submissionId: z.nullable(z.string()),
  status: z.enum(['generating', 'ready', 'failed']),
  error: z.nullable(z.string()),
  pdfSize: z.nullable(z.number()),
  docxSize: z.nullable(z.number()),
  createdAt: z.string(),
});
export type GeneratedDocument = z.infer<typeof generatedDocumentSchema>;
export const documentsPageSchema = z.object({ items: z.array(generatedDocumentSchema), total: z.number(), page: z.number(), pageSize: z.number() });
export type DocumentsPage = z.infer<typeof documentsPageSchema>;
