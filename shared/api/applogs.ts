import { z } from 'zod/mini';

export const APPLOG_CONTEXT_MAX_KEYS = 50;
export const APPLOG_CONTEXT_MAX_CHARS = 4000;

/** A client-side error report (uncaught window errors, failed chunks). Public: no session needed. */
export const appLogRequestSchema = z.object({
  level: z._default(z.enum(['error', 'warn', 'info']), 'error'),
  message: z.string().check(z.minLength(1, 'Este campo es obligatorio'), z.maxLength(4000)),
  stack: z.optional(z.string().check(z.maxLength(20000))),
  url: z.optional(z.string().check(z.maxLength(2000))),
  // Small structured details (route, ids); capped, since any guest may send reports.
  context: z.optional(
    z.record(z.string().check(z.maxLength(100)), z.json()).check(
      z.refine((context) => Object.keys(context).length <= APPLOG_CONTEXT_MAX_KEYS, { message: `Como máximo ${APPLOG_CONTEXT_MAX_KEYS} datos de contexto` }),
      z.refine((context) => JSON.stringify(context).length <= APPLOG_CONTEXT_MAX_CHARS, { message: `El contexto no puede superar ${APPLOG_CONTEXT_MAX_CHARS} caracteres` }),
    ),
  ),
});
export type AppLogRequest = z.input<typeof appLogRequestSchema>;
