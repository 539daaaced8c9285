import type { FastifyInstance } from 'fastify';
import { OWNER_ONLY_SETTINGS_MESSAGE, firmNameSchema, groupsPaths, routeSettingsSchema } from '#shared/api/groups.ts';
import type { AppContext } from '../../context.ts';
import { HttpError, unauthenticated } from '../../http/errors.ts';
import { routeSchema } from '../../http/openapi.ts';
import { parseInput } from '../../http/parse.ts';
import { requireSession } from '../../http/session.ts';
import { findGroup, isFirmOwner, renameFirm, routeSettingsOf, updateRouteSettings } from './service.ts';

const tag = 'groups';

/**
 * The firm's screen settings (issue 40 §4) and its name (issue 44 §6): every member reads them (the
 * session's user carries them too); only the owner changes them.
 */
export function registerGroupsRoutes(app: FastifyInstance, ctx: AppContext): void {
  const { db } = ctx;

  const getSchema = routeSchema({ tag, summary: "The firm's hidden screens, opt-in screens turned on and the screen the app opens on", response: { 200: routeSettingsSchema } });
  app.get(groupsPaths.routeSettings, { schema: getSchema }, async (request) => {
    const session = await requireSession(request, ctx);
    const group = await findGroup(db, session.groupId);
    if (!group) throw unauthenticated();
    return routeSettingsOf(group.config);
  });

  const putSchema = routeSchema({ tag, summary: "Change the firm's screen settings (owner only; the config's other keys are kept)", body: routeSettingsSchema, response: { 200: routeSettingsSchema } });
  app.put(groupsPaths.routeSettings, { schema: putSchema }, async (request) => {
    const session = await requireSession(request, ctx);
    const settings = parseInput(routeSettingsSchema, request.body);
    if (!(await isFirmOwner(db, session.userId))) throw new HttpError(403, 'OWNER_ONLY', OWNER_ONLY_SETTINGS_MESSAGE);
    const updated = await updateRouteSettings(db, session.groupId, settings);
    if (!updated) throw unauthenticated();
    return updated;
  });

  const nameSchema = routeSchema({ tag, summary: "Rename the firm (owner only): the name colleagues, companies and support read", body: firmNameSchema, response: { 200: firmNameSchema } });
  app.put(groupsPaths.firmName, { schema: nameSchema }, async (request) => {
    const session = await requireSession(request, ctx);
    const { name } = parseInput(firmNameSchema, request.body);
    if (!(await isFirmOwner(db, session.userId))) throw new HttpError(403, 'OWNER_ONLY', OWNER_ONLY_SETTINGS_MESSAGE);
    if (!(await renameFirm(db, session.groupId, name))) throw unauthenticated();
    return { name };
  });
}
