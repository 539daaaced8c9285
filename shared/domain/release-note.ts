import { z } from 'zod/mini';

export const releaseNoteSchema = z.object({
  id: z.string(),
  /** Markdown. */
  content: z.string(),
  createAt: z.string(),
});
export type ReleaseNote = z.infer<typeof releaseNoteSchema>;
