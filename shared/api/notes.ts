import { z } from 'zod/mini';
import { releaseNoteSchema } from '../domain/release-note.ts';

export const notesPaths = { active: '/api/notes/active' } as const;
export const activeNotesResponseSchema = z.object({ items: z.array(releaseNoteSchema) });
export type ActiveNotesResponse = z.infer<typeof activeNotesResponseSchema>;
