import type { FastifyInstance } from 'fastify';
import { activeNotesResponseSchema, notesPaths } from '#shared/api/notes.ts';
import type { AppContext } from '../../context.ts';
import { routeSchema } from '../../http/openapi.ts';
import { listActiveNotes } from './service.ts';

/** Public: the same notes whether or not the caller is signed in. */
export function registerNotesRoutes(app: FastifyInstance, ctx: AppContext): void {
  const schema = routeSchema({ tag: 'notes', summary: 'Release notes in force (public)', response: { 200: activeNotesResponseSchema } });
  app.get(notesPaths.active, { schema }, async () => ({ items: await listActiveNotes(ctx.db) }));
}
