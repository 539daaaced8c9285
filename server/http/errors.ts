import type { FastifyError, FastifyInstance } from 'fastify';
import type { ApiError, FieldIssue } from '#shared/api/errors.ts';

/** An error the API answers on purpose: its status, a stable code and a Spanish message. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
    readonly extra: Pick<ApiError, 'issues' | 'logoutReason' | 'details'> = {},
  ) {
    super(message);
    this.name = 'HttpError';
  }

  toBody(): ApiError {
    return { statusCode: this.statusCode, code: this.code, message: this.message, ...this.extra };
  }
}

export const VALIDATION_MESSAGE = 'Revisa los datos enviados';

export function validationError(issues: FieldIssue[]): HttpError {
  return new HttpError(400, 'VALIDATION', VALIDATION_MESSAGE, { issues });
}

export function unauthenticated(logoutReason?: string): HttpError {
  return new HttpError(401, 'UNAUTHENTICATED', 'Inicia sesión para continuar', logoutReason ? { logoutReason } : {});
}

export const MALFORMED_MULTIPART_MESSAGE = 'El envío de archivos está incompleto o mal formado: vuelve a adjuntar los archivos y envíalos de nuevo';
export const CLIENT_ABORTED_MESSAGE = 'La petición se interrumpió antes de terminar de enviarse';

/**
 * What busboy (through @fastify/multipart) throws at a malformed multipart/form-data body: plain
 * errors with no code or status, known by their messages (@fastify/busboy 3: lib/types/multipart.js,
 * index.js, deps/dicer, deps/streamsearch for a boundary longer than its search allows).
 */
const BUSBOY_MESSAGES = [
  /^Multipart: Boundary not found$/,
  /^Unexpected end of multipart data$/,
  /terminated early due to unexpected end of multipart data$/,
  /^Unsupported Content-Type\.$/,
  /^Missing Content-Type-header\.$/,
  /^Boundary required$/,
  /^The needle cannot (be an empty String\/Buffer|have a length bigger than \d+)\.$/,
];

/** @fastify/multipart's own errors (their codes) that are the client's fault; its limits (413) stay Fastify's 413. */
const MULTIPART_CODES: Record<string, () => HttpError> = {
  FST_MP_PREMATURE_CLOSE: () => new HttpError(400, 'CLIENT_ABORTED', CLIENT_ABORTED_MESSAGE),
  FST_PROTO_VIOLATION: () => new HttpError(400, 'MALFORMED_MULTIPART', MALFORMED_MULTIPART_MESSAGE),
  FST_INVALID_MULTIPART_CONTENT_TYPE: () => new HttpError(415, 'UNSUPPORTED_MEDIA_TYPE', 'Envía los archivos como multipart/form-data'),
  FST_INVALID_JSON_FIELD_ERROR: () => new HttpError(400, 'MALFORMED_MULTIPART', MALFORMED_MULTIPART_MESSAGE),
};

/** A malformed or cut multipart body (busboy's and @fastify/multipart's errors) as the 4xx it is; else null. */
export function multipartError(error: { code?: unknown; message?: unknown }): HttpError | null {
  const byCode = typeof error.code === 'string' ? MULTIPART_CODES[error.code] : undefined;
  if (byCode) return byCode();
  const message = typeof error.message === 'string' ? error.message : '';
  return BUSBOY_MESSAGES.some((pattern) => pattern.test(message)) ? new HttpError(400, 'MALFORMED_MULTIPART', MALFORMED_MULTIPART_MESSAGE) : null;
}

/** The client went away before its request was whole (its socket closed): nothing to answer, nothing to log but a line. */
export function clientAborted(raw: { aborted?: boolean; readableEnded?: boolean; socket?: { destroyed?: boolean } | null }): boolean {
  return raw.aborted === true || (raw.readableEnded === false && raw.socket?.destroyed === true);
}

/** A stream's errors when the other end went away (any other error stays unexpected, hung-up client or not). */
const STREAM_ERROR_CODES = new Set(['ERR_STREAM_PREMATURE_CLOSE', 'ECONNRESET', 'ECONNABORTED', 'EPIPE', 'ERR_STREAM_DESTROYED', 'FST_MP_PREMATURE_CLOSE']);

/** Fastify's own 4xx errors (bad JSON, wrong content type, body too large) in our shape. */
function fromFastifyError(error: FastifyError): HttpError | null {
  const multipart = multipartError(error);
  if (multipart) return multipart;
  const status = error.statusCode ?? 500;
  if (status >= 500) return null;
  if (status === 413) return new HttpError(413, 'PAYLOAD_TOO_LARGE', 'La petición es demasiado grande');
  if (status === 415) return new HttpError(415, 'UNSUPPORTED_MEDIA_TYPE', 'Envía los datos en formato JSON');
  if (status === 400) return validationError([{ path: '(body)', message: 'El cuerpo de la petición no es JSON válido' }]);
  return new HttpError(status, error.code ?? 'BAD_REQUEST', VALIDATION_MESSAGE);
}

/** Every error leaves as an ApiError; anything unexpected is logged and becomes a plain 500. */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const known = error instanceof HttpError ? error : fromFastifyError(error);
    if (known) return reply.status(known.statusCode).send(known.toBody());
    // A stream error after the client hung up (a premature close, a reset) is the client's doing: the
    // request log writes its one line (request-log.ts), no stack here.
    if (clientAborted(request.raw) && STREAM_ERROR_CODES.has(String((error as { code?: unknown }).code))) return reply.status(400).send(new HttpError(400, 'CLIENT_ABORTED', CLIENT_ABORTED_MESSAGE).toBody());
    request.log.error({ err: error }, 'Error no controlado');
    const body: ApiError = { statusCode: 500, code: 'INTERNAL', message: 'Error interno del servidor' };
    return reply.status(500).send(body);
  });
}
