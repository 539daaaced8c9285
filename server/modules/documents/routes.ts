import type { FastifyInstance } from 'fastify';
import { z } from 'zod/mini';
import {
  categoryBodySchema, categorySchema, documentsPageSchema, documentsPaths, generateBodySchema, generatedDocumentSchema, starterSchema, templateBodySchema, templateSchema,
  templateSummarySchema, TEMPLATE_BODY_LIMIT,
} from '#shared/api/documents.ts';
import { BLOCK_LABELS, BLOCK_TYPES, documentStylesSchema, STYLE_PRESETS } from '#shared/documents/blocks.ts';
import type { AppContext } from '../../context.ts';
import { routeSchema } from '../../http/openapi.ts';
import { parseNulFreeInput as parseInput } from '../../http/parse.ts';
import { requireSession } from '../../http/session.ts';
import { GeneratedDocuments } from './documents.ts';
import type { DocumentGenerator } from './generator.ts';
import { categoryNotFound, documentFileParamsSchema, documentNotFound, documentsQuerySchema, idParamsSchema, starterParamsSchema, templateNotFound, templatesQuerySchema } from './messages.ts';
import { starterSummaries } from './starters.ts';
import { DocumentTemplates } from './templates.ts';

const tag = 'documents';

/** A download's policy: nothing in it may load or run, and it is never framed. */
const DOWNLOAD_CSP = "default-src 'none'; sandbox; frame-ancestors 'none'";

const categoriesSchema = z.object({ items: z.array(categorySchema) });
const templatesSchema = z.object({ items: z.array(templateSummarySchema) });
const startersSchema = z.object({ items: z.array(starterSchema) });
const stylesSchema = z.object({ items: z.array(z.object({ key: z.string(), name: z.string(), styles: documentStylesSchema })) });
const blocksSchema = z.object({ items: z.array(z.object({ type: z.enum(BLOCK_TYPES), label: z.string() })) });


/** An id that cannot be one of ours names nothing: 404, as another firm's would. */
function parsedOr404<Schema extends z.core.$ZodType>(schema: Schema, input: unknown, notFound: () => Error): z.output<Schema> {
  const result = z.safeParse(schema, input);
  if (!result.success) throw notFound();
  return result.data;
}

/** `filename*` (RFC 6266 / 5987): any name, accents included, without breaking the header; a plain ASCII fallback first. */
function attachment(name: string): string {
  const ascii = name.normalize('NFD').replace(/[^\x20-\x7e]/g, '').replace(/["\\/:*?<>|]/g, '_') || 'documento';
  const encoded = encodeURIComponent(name).replace(/['()*]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

/**
 * The document creator (issue 40 §1; shared/api/documents.ts): categories, templates (own and shared
 * with the caller), starters, the styles and blocks catalogues, and the documents generated from
 * templates with their PDF and .docx. Returns the services so others (online forms) can use them.
 */
export async function registerDocumentsRoutes(app: FastifyInstance, ctx: AppContext, generator: DocumentGenerator): Promise<{ templates: DocumentTemplates; documents: GeneratedDocuments }> {
  const { db, now } = ctx;
  const templates = new DocumentTemplates({ db, now });
  const documents = new GeneratedDocuments({ db, storage: generator.storage, templates, generator });

  // Categories.
  app.get(documentsPaths.categories, { schema: routeSchema({ tag, summary: "The firm's template categories by name, with how many of the caller's visible templates each holds", response: { 200: categoriesSchema } }) }, async (request) => ({
    items: await templates.categories(await requireSession(request, ctx)),
  }));

  app.post(documentsPaths.categories, { schema: routeSchema({ tag, summary: 'A new category (its name unique in the firm)', body: categoryBodySchema, response: { 201: categorySchema } }) }, async (request, reply) => {
    const session = await requireSession(request, ctx);
    const body = parseInput(categoryBodySchema, request.body);
    return reply.status(201).send(await templates.createCategory(session, body));
  });

  app.patch(documentsPaths.category, { schema: routeSchema({ tag, summary: 'Rename a category', params: idParamsSchema, body: categoryBodySchema, response: { 200: categorySchema } }) }, async (request) => {
    const session = await requireSession(request, ctx);
    const { id } = parsedOr404(idParamsSchema, request.params, categoryNotFound);
    return templates.renameCategory(session, id, parseInput(categoryBodySchema, request.body));
  });

  app.delete(documentsPaths.category, { schema: routeSchema({ tag, summary: 'Delete a category; its templates stay, without category', params: idParamsSchema, response: { 204: null } }) }, async (request, reply) => {
    const session = await requireSession(request, ctx);
    const { id } = parsedOr404(idParamsSchema, request.params, categoryNotFound);
    await templates.deleteCategory(session, id);
    return reply.status(204).send();
  });

  // Templates.
  const listTemplatesSchema = routeSchema({ tag, summary: "The caller's templates and those shared with them, newest first: by category, name and scope", querystring: templatesQuerySchema, response: { 200: templatesSchema } });
  app.get(documentsPaths.templates, { schema: listTemplatesSchema }, async (request) => {
    const session = await requireSession(request, ctx);
    const query = parseInput(templatesQuerySchema, request.query);
    // The creator is open: a document may be asked for soon.
    generator.warmUp();
    return { items: await templates.list(session, query) };
  });

  const createTemplateSchema = routeSchema({ tag, summary: 'A new template of blocks and styles, owned by the caller', body: templateBodySchema, response: { 201: templateSchema } });
  app.post(documentsPaths.templates, { schema: createTemplateSchema, bodyLimit: TEMPLATE_BODY_LIMIT }, async (request, reply) => {
    const session = await requireSession(request, ctx);
    const body = parseInput(templateBodySchema, request.body);
    return reply.status(201).send(await templates.create(session, body));
  });

  app.get(documentsPaths.template, { schema: routeSchema({ tag, summary: 'One template the caller may see, with its content and their access', params: idParamsSchema, response: { 200: templateSchema } }) }, async (request) => {
    const session = await requireSession(request, ctx);
    return templates.get(session, parsedOr404(idParamsSchema, request.params, templateNotFound).id);
  });

  const updateTemplateSchema = routeSchema({ tag, summary: "Replace a template (its owner, or a colleague with 'edit' access)", params: idParamsSchema, body: templateBodySchema, response: { 200: templateSchema } });
  app.put(documentsPaths.template, { schema: updateTemplateSchema, bodyLimit: TEMPLATE_BODY_LIMIT }, async (request) => {
    const session = await requireSession(request, ctx);
    const { id } = parsedOr404(idParamsSchema, request.params, templateNotFound);
    return templates.update(session, id, parseInput(templateBodySchema, request.body));
  });

  app.delete(documentsPaths.template, { schema: routeSchema({ tag, summary: 'Delete a template (its owner only); its shares go too', params: idParamsSchema, response: { 204: null } }) }, async (request, reply) => {
    const session = await requireSession(request, ctx);
    await templates.delete(session, parsedOr404(idParamsSchema, request.params, templateNotFound).id);
    return reply.status(204).send();
  });

  // Starters and catalogues.
  app.get(documentsPaths.starters, { schema: routeSchema({ tag, summary: 'The starter templates an asesoría uses (autorización RED, datos de alta, RGPD)', response: { 200: startersSchema } }) }, async (request) => {
    await requireSession(request, ctx);
    return { items: starterSummaries() };
  });

  app.post(documentsPaths.useStarter, { schema: routeSchema({ tag, summary: "The caller's own copy of a starter template", params: starterParamsSchema, response: { 201: templateSchema } }) }, async (request, reply) => {
    const session = await requireSession(request, ctx);
    const { key } = parseInput(starterParamsSchema, request.params);
    return reply.status(201).send(await templates.useStarter(session, key));
  });

  app.get(documentsPaths.styles, { schema: routeSchema({ tag, summary: 'The style presets a template can take', response: { 200: stylesSchema } }) }, async (request) => {
    await requireSession(request, ctx);
    return { items: STYLE_PRESETS };
  });

  app.get(documentsPaths.blocks, { schema: routeSchema({ tag, summary: 'The block types a template is built from', response: { 200: blocksSchema } }) }, async (request) => {
    await requireSession(request, ctx);
    return { items: BLOCK_TYPES.map((type) => ({ type, label: BLOCK_LABELS[type] })) };
  });

  // Generated documents.
  const listDocumentsSchema = routeSchema({ tag, summary: "A page of the firm's generated documents, newest first: by name or company, and template", querystring: documentsQuerySchema, response: { 200: documentsPageSchema } });
  app.get(documentsPaths.documents, { schema: listDocumentsSchema }, async (request) => {
    const session = await requireSession(request, ctx);
    return documents.list(session, parseInput(documentsQuerySchema, request.query));
  });

  const generateSchema = routeSchema({ tag, summary: "Generate a document from a template and values: answered at once as 'generating'; its PDF and .docx are made in the background", body: generateBodySchema, response: { 201: generatedDocumentSchema } });
  app.post(documentsPaths.documents, { schema: generateSchema }, async (request, reply) => {
    const session = await requireSession(request, ctx);
    const body = parseInput(generateBodySchema, request.body);
    return reply.status(201).send(await documents.generate(session, body));
  });

  app.get(documentsPaths.document, { schema: routeSchema({ tag, summary: 'One generated document and its status', params: idParamsSchema, response: { 200: generatedDocumentSchema } }) }, async (request) => {
    const session = await requireSession(request, ctx);
    return documents.get(session, parsedOr404(idParamsSchema, request.params, documentNotFound).id);
  });

  app.delete(documentsPaths.document, { schema: routeSchema({ tag, summary: 'Delete a generated document and its files', params: idParamsSchema, response: { 204: null } }) }, async (request, reply) => {
    const session = await requireSession(request, ctx);
    await documents.delete(session, parsedOr404(idParamsSchema, request.params, documentNotFound).id);
    return reply.status(204).send();
  });

  const fileSchema = routeSchema({ tag, summary: "A generated document's PDF or .docx as a download; 409 while it is being made", params: documentFileParamsSchema });
  app.get(documentsPaths.documentFile, { schema: fileSchema }, async (request, reply) => {
    const session = await requireSession(request, ctx);
    const { id, format } = parsedOr404(documentFileParamsSchema, request.params, documentNotFound);
    const file = await documents.file(session, id, format);
    return reply
      .header('content-type', file.type)
      .header('content-disposition', attachment(file.name))
      .header('content-security-policy', DOWNLOAD_CSP)
      .header('x-content-type-options', 'nosniff')
      .header('x-frame-options', 'DENY')
      .header('cache-control', 'private, no-store')
      .send(file.data);
  });

  return { templates, documents };
}
