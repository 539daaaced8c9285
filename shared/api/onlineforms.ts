import { z } from 'zod/mini';
import { onlineFormFieldSchema, MAX_FORM_FIELDS } from '../documents/form-fields.ts';

/**
 * Online forms (issue 40 §2; spec API 'documentcreator: forms, submissions'; route /online-form/:id):
 * an advisor makes a form from a template's placeholders, publishes it and mails its link; a client
 * fills it on the public page, signs it with a drawn signature, and the server checks every value with
 * the same rules (checkOnlineFormValues), stores it and makes its PDF. The advisor's calls take a
 * session and see the firm's forms the caller owns or that are shared with them; the public calls know
 * a form only by its unguessable public id and tell nothing else.
 */
export const onlineFormsPaths = {
  /** GET -> { items: OnlineFormSummary[] }; POST FormBody -> OnlineForm (201, a draft). */
  forms: '/api/documentcreator/forms',
  /** GET -> OnlineForm; PUT FormBody -> OnlineForm (owner or 'edit'); DELETE -> 204 (owner; its submissions go too). */
  form: '/api/documentcreator/forms/:id',
  /** POST -> OnlineForm: published (the template's content is copied in), or again after a change. */
  publish: '/api/documentcreator/forms/:id/publish',
  /** POST -> OnlineForm: closed; the public link then says the form no longer takes answers. */
  close: '/api/documentcreator/forms/:id/close',
  /** POST SendLinkBody -> { sent: number }: mails the public link (published forms only). */
  sendLink: '/api/documentcreator/forms/:id/send',
  /** GET ?q=&from=&to=&page= -> SubmissionsPage newest first. */
  submissions: '/api/documentcreator/forms/:id/submissions',
  /** GET ?q=&from=&to= -> the filtered submissions as an .xlsx download. */
  submissionsExport: '/api/documentcreator/forms/:id/submissions.xlsx',
  /** GET -> FormSubmission; DELETE -> 204 (its signature and document go too). */
  submission: '/api/documentcreator/submissions/:id',
  /** GET -> the drawn signature (image/png) as a download. */
  submissionSignature: '/api/documentcreator/submissions/:id/signature',
  /** Public. GET -> PublicOnlineForm; 404 for an unknown or draft form; 410 for a closed one. */
  publicForm: '/api/online-forms/:publicId',
  /** Public. POST PublicSubmissionBody -> { id, receivedAt } (201). */
  publicSubmissions: '/api/online-forms/:publicId/submissions',
} as const;

/** The browser's page of a form: /online-form/<publicId>. */
export const ONLINE_FORM_PAGE_PREFIX = '/online-form/';

export const FORM_NOT_FOUND_MESSAGE = 'No encontramos ese formulario';
export const FORM_CLOSED_MESSAGE = 'Este formulario ya no admite respuestas';
export const SUBMISSION_NOT_FOUND_MESSAGE = 'No encontramos esa respuesta';
export const SIGNATURE_REQUIRED_MESSAGE = 'Firma en el recuadro para enviar el formulario';
export const SIGNATURE_REFUSED_MESSAGE = 'La firma no es una imagen válida; vuelve a firmar';
export const FORM_NOT_PUBLISHED_MESSAGE = 'Publica el formulario antes de enviar su enlace';
/** The drawn signature, a PNG as a data URL: at most this many characters (~150 KB). */
export const MAX_SIGNATURE_DATA_URL = 200_000;
export const PUBLIC_SUBMISSION_BODY_LIMIT = 300_000;
export const SUBMISSIONS_PAGE_SIZE = 50;
export const MAX_LINK_RECIPIENTS = 50;

export const formBodySchema = z.object({
  templateId: z.string(),
  title: z.string().check(z.trim(), z.minLength(1, 'Escribe el título del formulario'), z.maxLength(200)),
  description: z.string().check(z.maxLength(2_000)),
  fields: z.array(onlineFormFieldSchema).check(z.minLength(1, 'El formulario necesita al menos un campo'), z.maxLength(MAX_FORM_FIELDS)),
  requireSignature: z.boolean(),
});
export type FormBody = z.infer<typeof formBodySchema>;

export const formStatusSchema = z.enum(['draft', 'published', 'closed']);
export type FormStatus = z.infer<typeof formStatusSchema>;

export const onlineFormSummarySchema = z.object({
  id: z.string(),
  title: z.string(),
  templateId: z.nullable(z.string()),
  templateName: z.string(),
  status: formStatusSchema,
  /** The public page's path, '/online-form/<publicId>'. */
  publicPath: z.string(),
  submissions: z.number(),
  lastSubmissionAt: z.nullable(z.string()),
  access: z.enum(['owner', 'edit', 'view']),
  ownerName: z.string(),
  updatedAt: z.string(),
});
export type OnlineFormSummary = z.infer<typeof onlineFormSummarySchema>;
export const onlineFormSchema = z.extend(onlineFormSummarySchema, {
  description: z.string(),
  fields: z.array(onlineFormFieldSchema),
  requireSignature: z.boolean(),
});
export type OnlineForm = z.infer<typeof onlineFormSchema>;

export const sendLinkBodySchema = z.object({
  emails: z.array(z.email('Revisa las direcciones de correo')).check(z.minLength(1, 'Escribe al menos un correo'), z.maxLength(MAX_LINK_RECIPIENTS)),
  message: z.string().check(z.maxLength(2_000)),
});
export type SendLinkBody = z.infer<typeof sendLinkBodySchema>;

export const formSubmissionSchema = z.object({
  id: z.string(),
  formId: z.string(),
  values: z.record(z.string(), z.union([z.string(), z.boolean()])),
  signerName: z.nullable(z.string()),
  hasSignature: z.boolean(),
  /** The generated PDF (shared/api/documents.ts GeneratedDocument id), once made. */
  documentId: z.nullable(z.string()),
  documentStatus: z.nullable(z.enum(['generating', 'ready', 'failed'])),
  createdAt: z.string(),
});
export type FormSubmission = z.infer<typeof formSubmissionSchema>;
export const submissionsPageSchema = z.object({ items: z.array(formSubmissionSchema), total: z.number(), page: z.number(), pageSize: z.number() });
export type SubmissionsPage = z.infer<typeof submissionsPageSchema>;

/** What the public page shows: nothing of the firm but its name, and the form to fill. */
export const publicOnlineFormSchema = z.object({
  title: z.string(),
  description: z.string(),
  firmName: z.string(),
  fields: z.array(onlineFormFieldSchema),
  requireSignature: z.boolean(),
});
export type PublicOnlineForm = z.infer<typeof publicOnlineFormSchema>;

export const publicSubmissionBodySchema = z.object({
  values: z.record(z.string().check(z.maxLength(80)), z.union([z.string().check(z.maxLength(10_000)), z.boolean()])),
  signerName: z.optional(z.string().check(z.trim(), z.maxLength(200))),
  /** 'data:image/png;base64,…' from the signature pad; judged by its bytes on the server. */
  signature: z.optional(z.string().check(z.maxLength(MAX_SIGNATURE_DATA_URL, SIGNATURE_REFUSED_MESSAGE))),
});
export type PublicSubmissionBody = z.infer<typeof publicSubmissionBodySchema>;
export const publicSubmissionReceiptSchema = z.object({ id: z.string(), receivedAt: z.string() });
