import type { FastifyInstance } from 'fastify';
import { z } from 'zod/mini';
import {
  DOCUMENT_MANAGER_NOT_ENABLED_MESSAGE, documentManagerPaths, managedDocumentsPageSchema, managedDocumentsQuerySchema,
} from '#shared/api/documentmanager.ts';
import type { AppContext } from '../../context.ts';
import { HttpError } from '../../http/errors.ts';
import { routeSchema } from '../../http/openapi.ts';
import { parseInput } from '../../http/parse.ts';
import { requireSession } from '../../http/session.ts';
import { firmAllowsRoute } from '../groups/service.ts';
import type { DocumentManager } from './service.ts';

const tag = 'documentmanager';

const companiesResponseSchema = z.object({ items: z.array(z.object({ company: z.string(), documents: z.number() })) });

/** The document manager (issue 40 §4): open only when the firm's allowed_routes lists '/documanager'. */
export function registerDocumentManagerRoutes(app: FastifyInstance, ctx: AppContext, manager: DocumentManager): void {
  async function enabledFirm(request: Parameters<typeof requireSession>[0]): Promise<string> {
    const { groupId } = await requireSession(request, ctx);
    if (!(await firmAllowsRoute(ctx.db, groupId, '/documanager'))) throw new HttpError(403, 'DOCUMENT_MANAGER_NOT_ENABLED', DOCUMENT_MANAGER_NOT_ENABLED_MESSAGE);
    return groupId;
  }

  const listSchema = routeSchema({
    tag, summary: "A page of the firm's documents from every module, newest first, by kind, company and text; 403 when the firm has not enabled /documanager",
    querystring: managedDocumentsQuerySchema, response: { 200: managedDocumentsPageSchema },
  });
  app.get(documentManagerPaths.documents, { schema: listSchema }, async (request) => {
    const groupId = await enabledFirm(request);
    return manager.list(groupId, parseInput(managedDocumentsQuerySchema, request.query));
  });

  const companiesSchema = routeSchema({ tag, summary: "The companies the firm's documents are about, with how many each", response: { 200: companiesResponseSchema } });
  app.get(documentManagerPaths.companies, { schema: companiesSchema }, async (request) => ({ items: await manager.companies(await enabledFirm(request)) }));
}
