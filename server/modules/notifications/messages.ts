/** The notifications module's Spanish refusals (the contract's own texts live in shared/api/notifications.ts). */
export const INVALID_DATE_MESSAGE = 'La fecha de puesta a disposición no es válida';
export const INVALID_EVENT_DATE_MESSAGE = 'La fecha del acceso no es válida';
export const DOCUMENT_NOT_FOUND_MESSAGE = 'No se ha encontrado este documento';
export const DOCUMENT_TOO_LARGE_MESSAGE = 'El documento supera el tamaño máximo de 20 MB';
/** The notice and the acuse are PDFs (PeticionAcceso's documento, ConsultaAcusePdf): judged by their first bytes. */
export const DOCUMENT_NOT_PDF_MESSAGE = 'La notificación y el acuse deben ser un PDF: el contenido recibido no es un PDF';
/** An annex carries DEHÚ's own mimeType: these types only, judged by their first bytes, and always downloaded. */
export const ANNEX_TYPE_MESSAGE = 'Un anexo debe ser un PDF, una imagen (PNG, JPEG, GIF o TIFF) o un ZIP: el contenido recibido es de otro tipo';
/** Another device of the firm, whose machine does not hold the notification's certificate (it could not open it at DEHÚ either). */
export const notCertificateMachineMessage = (commonName: string) =>
  `Solo el equipo que tiene el certificado «${commonName}» puede abrir esta notificación y guardar sus documentos`;
export const DOCUMENT_MISSING_MESSAGE = 'Falta el documento (campo «file»)';
export const NOT_MULTIPART_MESSAGE = 'Envía el documento como formulario (multipart/form-data)';
export const DIGEST_SUBJECT = 'Resumen diario de notificaciones DEHÚ';
