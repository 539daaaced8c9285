import { z } from 'zod';

export const applogsPath = '/api/applogs';

/** A client-side error report (uncaught window errors, failed chunks). Public: no session needed. */
export const appLogRequestSchema = z.object({
  level: z.enum(['error', 'warn', 'info']).default('error'),
  message: z.string().min(1, 'Este campo es obligatorio').max(4000),
  stack: z.string().max(20000).optional(),
  url: z.string().max(2000).optional(),
  context: z.record(z.string(), z.json()).optional(),
});
export type AppLogRequest = z.input<typeof appLogRequestSchema>;
