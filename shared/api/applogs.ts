import { z } from 'zod/mini';

export const applogsPath = '/api/applogs';

/** A client-side error report (uncaught window errors, failed chunks). Public: no session needed. */
export const appLogRequestSchema = z.object({
  level: z._default(z.enum(['error', 'warn', 'info']), 'error'),
  message: z.string().check(z.minLength(1, 'Este campo es obligatorio'), z.maxLength(4000)),
  stack: z.optional(z.string().check(z.maxLength(20000))),
  url: z.optional(z.string().check(z.maxLength(2000))),
  context: z.optional(z.record(z.string(), z.json())),
});
export type AppLogRequest = z.input<typeof appLogRequestSchema>;
