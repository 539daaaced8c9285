import type { FastifyInstance } from 'fastify';
import { notesPaths } from '#shared/api/notes.ts';
import type { AppContext } from '../../context.ts';
import { listActiveNotes } from './service.ts';

/** Public: the same notes whether or not the caller is signed in. */
export function registerNotesRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.get(notesPaths.active, async () => ({ items: await listActiveNotes(ctx.db) }));
}
