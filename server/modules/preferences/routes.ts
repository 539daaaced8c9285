import type { FastifyInstance } from 'fastify';
import { PREFERENCES_MAX_BYTES, preferencesPatchSchema, preferencesPath, preferencesResponseSchema } from '#shared/api/preferences.ts';
import type { AppContext } from '../../context.ts';
import { routeSchema } from '../../http/openapi.ts';
import { parseInput } from '../../http/parse.ts';
import { requireSession } from '../../http/session.ts';
import { getPreferences, patchPreferences } from './service.ts';

/** The signed-in user's own UI preferences; nobody else's are reachable. */
export function registerPreferencesRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.get(preferencesPath, { schema: routeSchema({ tag: 'preferences', summary: 'The signed-in user\'s UI preferences', response: { 200: preferencesResponseSchema } }) }, async (request) => {
    const { userId } = await requireSession(request, ctx);
    return { preferences: await getPreferences(ctx.db, userId) };
  });

  // A PATCH bigger than everything one user may store is refused before it is read.
  const patchSchema = routeSchema({
    tag: 'preferences',
    summary: 'Merge keys into the preferences (a null value removes its key)',
    body: preferencesPatchSchema,
    response: { 200: preferencesResponseSchema },
  });
  app.patch(preferencesPath, { schema: patchSchema, bodyLimit: PREFERENCES_MAX_BYTES + 1024 }, async (request) => {
    const { userId } = await requireSession(request, ctx);
    const patch = parseInput(preferencesPatchSchema, request.body);
    return { preferences: await patchPreferences(ctx.db, userId, patch, ctx.now()) };
  });
}
