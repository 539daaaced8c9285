import { formatBytes } from '#shared/files/index.ts';
import { HttpError } from '../../http/errors.ts';

/**
 * What the companies' side of altas may keep on the server (issue 39 §4), all in one place (README's
 * caps table lists them). "Unsent" files are uploaded but not yet sent with an alta; "a company" is
 * the email it signs in with (one email may hold several companies of the firm), over all its sessions.
 * Files sent with altas count in the daily caps only: the firm sees them and removes what it does not want.
 */
export interface AltasUploadCaps {
  /** Unsent files of one form session (a whole form has two file fields). */
  filesPerSession: number;
  /** Unsent files and bytes of one company, over all its sessions. */
  unsentFilesPerCompany: number;
  unsentBytesPerCompany: number;
  /** Unsent files and bytes of all the firm's companies together. */
  unsentFilesPerFirm: number;
  unsentBytesPerFirm: number;
  /** Everything one company uploads in 24 hours, sent or not. */
  filesPerCompanyPerDay: number;
  bytesPerCompanyPerDay: number;
}

export const DEFAULT_ALTAS_UPLOAD_CAPS: AltasUploadCaps = {
  filesPerSession: 20,
  unsentFilesPerCompany: 40,
  unsentBytesPerCompany: 200_000_000,
  unsentFilesPerFirm: 400,
  unsentBytesPerFirm: 2_000_000_000,
  filesPerCompanyPerDay: 200,
  bytesPerCompanyPerDay: 1_000_000_000,
};

/** How often ended form sessions and the files they never sent are removed (and once a minute after start). */
export const FORM_PURGE_INTERVAL_MS = 10 * 60_000;

export const TOO_MANY_FILES_MESSAGE = 'Has subido demasiados archivos sin enviar el alta. Envía el alta o vuelve a iniciar sesión.';
const UNSENT_HINT = 'Envía las altas pendientes: los archivos que no se envían se borran al cerrar la sesión o a las 12 horas.';

/** What is stored now, and what one more file may add. */
export interface UploadUsage {
  sessionFiles: number;
  companyFiles: number;
  companyBytes: number;
  firmFiles: number;
  firmBytes: number;
  dayFiles: number;
  dayBytes: number;
}

/** The refusal for the first cap the usage is over, or null. */
export function overCap(caps: AltasUploadCaps, usage: UploadUsage): HttpError | null {
  if (usage.sessionFiles > caps.filesPerSession) return new HttpError(429, 'TOO_MANY_FILES', TOO_MANY_FILES_MESSAGE);
  if (usage.companyFiles > caps.unsentFilesPerCompany) {
    return new HttpError(429, 'TOO_MANY_FILES', `Tu empresa ya tiene ${caps.unsentFilesPerCompany} archivos subidos sin enviar, el máximo. ${UNSENT_HINT}`);
  }
  if (usage.dayFiles > caps.filesPerCompanyPerDay) {
    return new HttpError(429, 'TOO_MANY_FILES', `Tu empresa ha subido hoy ${caps.filesPerCompanyPerDay} archivos, el máximo de un día. Vuelve a intentarlo mañana.`);
  }
  if (usage.firmFiles > caps.unsentFilesPerFirm) {
    return new HttpError(429, 'TOO_MANY_FILES', 'El formulario ha recibido demasiados archivos que aún no se han enviado con ninguna alta. Vuelve a intentarlo más tarde.');
  }
  return overBytes(caps, usage);
}

/** The refusal for the first byte cap the usage is over, or null (413: the file does not fit). */
export function overBytes(caps: AltasUploadCaps, usage: Pick<UploadUsage, 'companyBytes' | 'firmBytes' | 'dayBytes'>): HttpError | null {
  if (usage.companyBytes > caps.unsentBytesPerCompany) {
    return new HttpError(413, 'STORAGE_CAP', `Los archivos sin enviar de tu empresa superarían ${formatBytes(caps.unsentBytesPerCompany)}, el máximo. ${UNSENT_HINT}`);
  }
  if (usage.dayBytes > caps.bytesPerCompanyPerDay) {
    return new HttpError(413, 'STORAGE_CAP', `Tu empresa superaría ${formatBytes(caps.bytesPerCompanyPerDay)} subidos hoy, el máximo de un día. Vuelve a intentarlo mañana.`);
  }
  if (usage.firmBytes > caps.unsentBytesPerFirm) {
    return new HttpError(413, 'STORAGE_CAP', 'El formulario ha recibido demasiados archivos que aún no se han enviado con ninguna alta. Vuelve a intentarlo más tarde.');
  }
  return null;
}
