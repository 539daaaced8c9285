import { z } from 'zod/mini';

/** GET /api/support: public, so signed-out pages can also show where to ask for help. */
export const supportPath = '/api/support';

export const supportInfoSchema = z.object({
  /** The address users write to until support tickets exist (SUPPORT_EMAIL on the server). */
  email: z.email(),
});
export type SupportInfo = z.infer<typeof supportInfoSchema>;
