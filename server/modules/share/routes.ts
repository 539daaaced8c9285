import type { FastifyInstance } from 'fastify';
import { z } from 'zod/mini';
import {
  SHARE_KINDS, objectSharesSchema, shareEditBodySchema, shareGrantsBodySchema, shareParamsSchema, sharePaths, sharedObjectSchema,
} from '#shared/api/share.ts';
import type { AppContext } from '../../context.ts';
import { routeSchema } from '../../http/openapi.ts';
import { parseInput } from '../../http/parse.ts';
import { requireSession } from '../../http/session.ts';
import { sharedObjectNotFound, type Shares } from './service.ts';

const tag = 'share';

const listQuerySchema = z.object({ kind: z.optional(z.enum(SHARE_KINDS)) });
const listResponseSchema = z.object({ items: z.array(sharedObjectSchema) });
const cloneResponseSchema = z.object({ kind: z.enum(SHARE_KINDS), id: z.string() });

/** Params that cannot name one of the firm's objects (an unknown kind, an overlong id) name nothing: 404. */
function objectParams(input: unknown): z.output<typeof shareParamsSchema> {
  const result = z.safeParse(shareParamsSchema, input);
  // Ids are UUIDs: a NUL (which PostgreSQL refuses in text) or other junk names nothing.
  if (!result.success || !/^[\w-]+$/.test(result.data.id)) throw sharedObjectNotFound();
  return result.data;
}

/** Sharing of templates, forms, schedules and robots' saved settings with colleagues (issue 40 §3). */
export function registerShareRoutes(app: FastifyInstance, ctx: AppContext, shares: Shares): void {
  const ownSchema = routeSchema({ tag, summary: "The caller's objects shared with colleagues", querystring: listQuerySchema, response: { 200: listResponseSchema } });
  app.get(sharePaths.own, { schema: ownSchema }, async (request) => {
    const session = await requireSession(request, ctx);
    const { kind } = parseInput(listQuerySchema, request.query);
    return { items: await shares.own(session, kind) };
  });

  const meSchema = routeSchema({ tag, summary: 'Objects colleagues shared with the caller, with the access each gives', querystring: listQuerySchema, response: { 200: listResponseSchema } });
  app.get(sharePaths.me, { schema: meSchema }, async (request) => {
    const session = await requireSession(request, ctx);
    const { kind } = parseInput(listQuerySchema, request.query);
    return { items: await shares.sharedWithMe(session, kind) };
  });

  const objectSchema = routeSchema({ tag, summary: 'Who an object is shared with, and the colleagues it could be (owner only)', params: shareParamsSchema, response: { 200: objectSharesSchema } });
  app.get(sharePaths.object, { schema: objectSchema }, async (request) => {
    const session = await requireSession(request, ctx);
    const { kind, id } = objectParams(request.params);
    return shares.objectShares(session, kind, id);
  });

  const replaceSchema = routeSchema({
    tag, summary: 'Replace who an object is shared with (owner only); a grantee who is not an active colleague of the firm: 400, nothing written',
    params: shareParamsSchema, body: shareGrantsBodySchema, response: { 200: objectSharesSchema },
  });
  app.put(sharePaths.object, { schema: replaceSchema }, async (request) => {
    const session = await requireSession(request, ctx);
    const { kind, id } = objectParams(request.params);
    const { grants } = parseInput(shareGrantsBodySchema, request.body);
    return shares.replaceGrants(session, kind, id, grants);
  });

  const cloneSchema = routeSchema({ tag, summary: "The caller's own copy of an object they may see", params: shareParamsSchema, response: { 201: cloneResponseSchema } });
  app.post(sharePaths.clone, { schema: cloneSchema }, async (request, reply) => {
    const session = await requireSession(request, ctx);
    const { kind, id } = objectParams(request.params);
    return reply.status(201).send(await shares.clone(session, kind, id));
  });

  const editSchema = routeSchema({ tag, summary: "One colleague's access changed, or removed with access null (owner only)", params: shareParamsSchema, body: shareEditBodySchema, response: { 200: objectSharesSchema } });
  app.patch(sharePaths.edit, { schema: editSchema }, async (request) => {
    const session = await requireSession(request, ctx);
    const { kind, id } = objectParams(request.params);
    const { userId, access } = parseInput(shareEditBodySchema, request.body);
    return shares.editGrant(session, kind, id, userId, access);
  });
}
