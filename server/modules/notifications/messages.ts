/** The notifications module's Spanish refusals (the contract's own texts live in shared/api/notifications.ts). */
export const INVALID_DATE_MESSAGE = 'La fecha de puesta a disposición no es válida';
export const INVALID_EVENT_DATE_MESSAGE = 'La fecha del acceso no es válida';
export const DOCUMENT_NOT_FOUND_MESSAGE = 'No se ha encontrado este documento';
export const DOCUMENT_TOO_LARGE_MESSAGE = 'El documento supera el tamaño máximo de 20 MB';
export const DOCUMENT_TYPE_MESSAGE = 'El documento debe ser un PDF, una imagen, un XML o un ZIP';
export const DOCUMENT_MISSING_MESSAGE = 'Falta el documento (campo «file»)';
export const NOT_MULTIPART_MESSAGE = 'Envía el documento como formulario (multipart/form-data)';
export const DIGEST_SUBJECT = 'Resumen diario de notificaciones DEHÚ';
