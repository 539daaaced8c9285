import { HttpError, VALIDATION_MESSAGE } from '../../http/errors.ts';

/** The altas module's refusals (Spanish), shared by its services and routes. */

export const COMPANY_NOT_FOUND_MESSAGE = 'No se ha encontrado esta empresa';
export const GROUP_NOT_FOUND_MESSAGE = 'No se ha encontrado este grupo';
export const SUBMISSION_NOT_FOUND_MESSAGE = 'No se ha encontrado esta alta';
export const FORM_NOT_FOUND_MESSAGE = 'Este formulario no existe';
export const FILE_NOT_FOUND_MESSAGE = 'No se ha encontrado este archivo';
export const FLOW_NOT_FOUND_MESSAGE = 'Este formulario no existe';
export const SUBMISSION_REMOVED_MESSAGE = 'Esta alta se ha eliminado';
export const ALREADY_REGISTERED_MESSAGE = 'Esta alta ya está registrada en Sistema RED';
export const NOT_REGISTERED_MESSAGE = 'Esta alta aún no está registrada en Sistema RED';
export const ALREADY_IN_A3_MESSAGE = 'Esta alta ya está en A3';
export const FILE_NOT_YOURS_MESSAGE = 'Este archivo no se ha subido en esta sesión';
export const FILE_TOO_LARGE_MESSAGE = 'El archivo supera el tamaño máximo de 10 MB';
export const FILE_TYPE_MESSAGE = 'Solo se admiten imágenes (PNG, JPG, WEBP) y PDF';
export const LOGO_TOO_LARGE_MESSAGE = 'El logo supera el tamaño máximo de 1 MB';
export const LOGO_TYPE_MESSAGE = 'El logo debe ser una imagen PNG, JPG, WEBP o GIF';
export const NOT_MULTIPART_MESSAGE = 'Envía los datos como formulario (multipart/form-data)';
export const NO_FILE_MESSAGE = 'Adjunta un archivo';
export const CREDENTIALS_DISABLED_MESSAGE = 'El acceso de esta empresa al formulario está desactivado';
export const FORM_SESSION_MESSAGE = 'Inicia sesión en el formulario para continuar';

export const notFound = (message: string) => new HttpError(404, 'NOT_FOUND', message);

/** A 400 with one message per field: issues (path 'fieldsValues.<key>' or as given) and details.fields. */
export function fieldErrors(errors: Record<string, string>, prefix: string | null = 'fieldsValues'): HttpError {
  const issues = Object.entries(errors).map(([key, message]) => ({ path: prefix === null ? key : `${prefix}.${key}`, message }));
  return new HttpError(400, 'VALIDATION', VALIDATION_MESSAGE, { issues, details: { fields: errors } });
}
