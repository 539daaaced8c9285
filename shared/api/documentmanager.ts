import { z } from 'zod/mini';

/**
 * The document manager (issue 40 §4; route /documanager, open only when the firm's allowed_routes
 * lists it): every document the firm holds, from every module, by client company and kind, searchable,
 * with how long it is kept and a download link. Read-only: each document is removed in its own screen.
 */
export const documentManagerPaths = {
  /** GET ?kind=&company=&q=&page= -> ManagedDocumentsPage newest first; 403 when the firm has not enabled /documanager. */
  documents: '/api/documentmanager',
  /** GET -> { items: { company, documents }[] }: the companies documents are about, for the filter. */
  companies: '/api/documentmanager/companies',
} as const;

export const MANAGED_DOCUMENT_KINDS = ['generated', 'submission', 'robot-output', 'alta-attachment', 'fie', 'dehu'] as const;
export type ManagedDocumentKind = (typeof MANAGED_DOCUMENT_KINDS)[number];
export const MANAGED_DOCUMENT_KIND_LABELS: Record<ManagedDocumentKind, string> = {
  generated: 'Documento generado',
  submission: 'Formulario firmado',
  'robot-output': 'Resultado de robot',
  'alta-attachment': 'Adjunto de alta',
  fie: 'Fichero FIE',
  dehu: 'Notificación DEHÚ',
};
export const DOCUMENT_MANAGER_PAGE_SIZE = 50;
export const DOCUMENT_MANAGER_NOT_ENABLED_MESSAGE = 'El gestor documental no está activado en tu asesoría. El propietario puede activarlo en Mi cuenta.';

export const managedDocumentsQuerySchema = z.object({
  kind: z.optional(z.enum(MANAGED_DOCUMENT_KINDS)),
  company: z.optional(z.string().check(z.maxLength(200))),
  q: z.optional(z.string().check(z.maxLength(200))),
  page: z.optional(z.coerce.number().check(z.int(), z.gte(1), z.lte(100_000))),
});
export type ManagedDocumentsQuery = z.infer<typeof managedDocumentsQuerySchema>;

export const managedDocumentSchema = z.object({
  /** '<kind>:<id>', unique in the list. */
  key: z.string(),
  kind: z.enum(MANAGED_DOCUMENT_KINDS),
  name: z.string(),
  company: z.nullable(z.string()),
  /** What it comes from ('Validar identificadores', 'Autorización RED', a certificate's holder…). */
  source: z.string(),
  size: z.nullable(z.number()),
  createdAt: z.string(),
  /** When it will be removed, or null when it is kept until someone removes it. */
  expiresAt: z.nullable(z.string()),
  /** The API path that downloads it (the module's own download route). */
  downloadPath: z.nullable(z.string()),
});
export type ManagedDocument = z.infer<typeof managedDocumentSchema>;
export const managedDocumentsPageSchema = z.object({ items: z.array(managedDocumentSchema), total: z.number(), page: z.number(), pageSize: z.number() });
export type ManagedDocumentsPage = z.infer<typeof managedDocumentsPageSchema>;
