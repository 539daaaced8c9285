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

/** Fastify's own 4xx errors (bad JSON, wrong content type, body too large) in our shape. */
function fromFastifyError(error: FastifyError): HttpError | null {
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
    request.log.error({ err: error }, 'Error no controlado');
    const body: ApiError = { statusCode: 500, code: 'INTERNAL', message: 'Error interno del servidor' };
    return reply.status(500).send(body);
  });
}
