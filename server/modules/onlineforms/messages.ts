import { formatBytes } from '#shared/files/index.ts';
import { FORM_NOT_FOUND_MESSAGE, SUBMISSION_NOT_FOUND_MESSAGE } from '#shared/api/onlineforms.ts';
import { TEMPLATE_NOT_FOUND_MESSAGE } from '#shared/api/documents.ts';
import { HttpError, VALIDATION_MESSAGE } from '../../http/errors.ts';

/** The online forms module's refusals (Spanish) and caps, shared by its services and routes. */

/**
 * What the public side of online forms may take (issue 40 §2), all in one place. A day is the last 24
 * hours; bytes are what submissions hold in storage: their signature and values (doc_submissions.bytes)
 * and the PDF and .docx generated from them.
 */
export interface OnlineFormCaps {
  /** Submissions one client address may send in a minute (any form). */
  submissionsPerIpPerMinute: number;
  /** Submissions one form takes in 24 hours. */
  submissionsPerFormPerDay: number;
  /** Submissions all the firm's forms take in 24 hours. */
  submissionsPerFirmPerDay: number;
  /** Bytes one form's submissions hold, and all the firm's. */
  bytesPerForm: number;
  bytesPerFirm: number;
  /** Link mails a firm may send in a Madrid day. */
  linkMailsPerFirmPerDay: number;
}

export const DEFAULT_ONLINE_FORM_CAPS: OnlineFormCaps = {
  submissionsPerIpPerMinute: 10,
  submissionsPerFormPerDay: 300,
  submissionsPerFirmPerDay: 2_000,
  bytesPerForm: 200_000_000,
  bytesPerFirm: 2_000_000_000,
  linkMailsPerFirmPerDay: 200,
};

/** A drawn signature is at most this many pixels wide and high. */
export const MAX_SIGNATURE_WIDTH = 2_000;
export const MAX_SIGNATURE_HEIGHT = 1_000;

export const FIELD_NOT_IN_TEMPLATE_MESSAGE = 'Este campo no es un marcador de la plantilla';
export const FORM_FULL_TODAY_MESSAGE = 'Este formulario ha recibido hoy todas las respuestas que admite. Vuelve a intentarlo mañana.';
export const FIRM_FULL_TODAY_MESSAGE = 'Los formularios de esta asesoría han recibido hoy todas las respuestas que admiten. Vuelve a intentarlo mañana.';
export const LINK_MAILS_TODAY_MESSAGE = (cap: number) => `Hoy ya se han enviado ${cap} correos con enlaces a formularios, el máximo de un día. Vuelve a intentarlo mañana.`;
export const formBytesMessage = (cap: number) => `Este formulario ya guarda ${formatBytes(cap)} de respuestas, el máximo. Avisa a tu asesoría.`;
export const firmBytesMessage = (cap: number) => `Los formularios de esta asesoría ya guardan ${formatBytes(cap)} de respuestas, el máximo. Avisa a tu asesoría.`;
export const VIEW_ONLY_MESSAGE = 'Este formulario está compartido contigo solo para verlo';
export const OWNER_ONLY_MESSAGE = 'Solo quien creó el formulario puede borrarlo';
export const NO_SIGNATURE_MESSAGE = 'Esta respuesta no tiene firma';

export const notFound = (message: string) => new HttpError(404, 'NOT_FOUND', message);
export const formNotFound = () => notFound(FORM_NOT_FOUND_MESSAGE);
export const submissionNotFound = () => notFound(SUBMISSION_NOT_FOUND_MESSAGE);
export const templateNotFound = () => notFound(TEMPLATE_NOT_FOUND_MESSAGE);

/** A 400 with one message per field, as the altas public form answers: issues at '<prefix>.<key>' and details.fields. */
export function fieldErrors(errors: Record<string, string>, prefix: string): HttpError {
  const issues = Object.entries(errors).map(([key, message]) => ({ path: `${prefix}.${key}`, message }));
  return new HttpError(400, 'VALIDATION', VALIDATION_MESSAGE, { issues, details: { fields: errors } });
}
