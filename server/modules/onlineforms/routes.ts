import type { FastifyInstance } from 'fastify';
import { z } from 'zod/mini';
import {
  formBodySchema, onlineFormSchema, onlineFormsPaths, onlineFormSummarySchema, publicOnlineFormSchema, PUBLIC_SUBMISSION_BODY_LIMIT, publicSubmissionBodySchema,
  publicSubmissionReceiptSchema, formSubmissionSchema, sendLinkBodySchema, submissionsPageSchema,
} from '#shared/api/onlineforms.ts';
import type { AppContext } from '../../context.ts';
import { routeSchema } from '../../http/openapi.ts';
import { parseInput } from '../../http/parse.ts';
import { perIp } from '../../http/rate-limit.ts';
import { requireSession } from '../../http/session.ts';
import { attachment } from '../storage/download.ts';
import { formNotFound, submissionNotFound } from './messages.ts';
import type { OnlineFormsModule } from './module.ts';
import { submissionsQuerySchema } from './submissions.ts';

const tag = 'onlineforms';
const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

const idParamsSchema = z.object({ id: z.string().check(z.uuid()) });
const publicIdParamsSchema = z.object({ publicId: z.string().check(z.regex(/^[A-Za-z0-9_-]{22,64}$/)) });

/** An id that cannot be one of ours names nothing: 404, as another firm's would. */
function parsedOr404<Schema extends z.core.$ZodType>(schema: Schema, input: unknown, notFound: () => Error): z.output<Schema> {
  const result = z.safeParse(schema, input);
  if (!result.success) throw notFound();
  return result.data;
}

/** The advisor's online form routes (session) and the client's public ones (the form's public id only). */
export function registerOnlineFormsRoutes(app: FastifyInstance, ctx: AppContext, module: OnlineFormsModule): void {
  const { forms, submissions, publicForms } = module;
  const formId = (params: unknown) => parsedOr404(idParamsSchema, params, formNotFound).id;
  const submissionId = (params: unknown) => parsedOr404(idParamsSchema, params, submissionNotFound).id;

  app.get(onlineFormsPaths.forms, { schema: routeSchema({ tag, summary: "The caller's forms and those shared with them", response: { 200: z.object({ items: z.array(onlineFormSummarySchema) }) } }) }, async (request) => {
    return forms.list(await requireSession(request, ctx));
  });

  app.post(onlineFormsPaths.forms, { schema: routeSchema({ tag, summary: 'A draft form from a template the caller may see; each field one of its placeholders', body: formBodySchema, response: { 201: onlineFormSchema } }) }, async (request, reply) => {
    const session = await requireSession(request, ctx);
    return reply.status(201).send(await forms.create(session, parseInput(formBodySchema, request.body)));
  });

  const params = idParamsSchema;
  app.get(onlineFormsPaths.form, { schema: routeSchema({ tag, summary: 'A form the caller may read', params, response: { 200: onlineFormSchema } }) }, async (request) => {
    const session = await requireSession(request, ctx);
    return forms.get(session, formId(request.params));
  });

  app.put(onlineFormsPaths.form, { schema: routeSchema({ tag, summary: 'Changes a form (owner or edit access)', params, body: formBodySchema, response: { 200: onlineFormSchema } }) }, async (request) => {
    const session = await requireSession(request, ctx);
    const id = formId(request.params);
    return forms.update(session, id, parseInput(formBodySchema, request.body));
  });

  app.delete(onlineFormsPaths.form, { schema: routeSchema({ tag, summary: 'Deletes a form with its submissions, signatures and documents (owner only)', params, response: { 204: null } }) }, async (request, reply) => {
    const session = await requireSession(request, ctx);
    await forms.remove(session, formId(request.params));
    return reply.status(204).send();
  });

  app.post(onlineFormsPaths.publish, { schema: routeSchema({ tag, summary: "Publishes a form: the template's content is copied in", params, response: { 200: onlineFormSchema } }) }, async (request) => {
    const session = await requireSession(request, ctx);
    return forms.publish(session, formId(request.params));
  });

  app.post(onlineFormsPaths.close, { schema: routeSchema({ tag, summary: 'Closes a form: its link no longer takes answers', params, response: { 200: onlineFormSchema } }) }, async (request) => {
    const session = await requireSession(request, ctx);
    return forms.close(session, formId(request.params));
  });

  const sendSchema = routeSchema({ tag, summary: "Mails a published form's public link to clients (at most 50 a request, a daily cap per firm)", params, body: sendLinkBodySchema, response: { 200: z.object({ sent: z.number() }) } });
  app.post(onlineFormsPaths.sendLink, { schema: sendSchema, config: { rateLimit: perIp(30, 60_000) } }, async (request) => {
    const session = await requireSession(request, ctx);
    const id = formId(request.params);
    return forms.sendLink(session, id, parseInput(sendLinkBodySchema, request.body));
  });

  const listSchema = routeSchema({ tag, summary: "A form's submissions, filtered and paged, newest first", params, querystring: submissionsQuerySchema, response: { 200: submissionsPageSchema } });
  app.get(onlineFormsPaths.submissions, { schema: listSchema }, async (request) => {
    const session = await requireSession(request, ctx);
    const id = formId(request.params);
    return submissions.page(session, id, parseInput(submissionsQuerySchema, request.query));
  });

  const exportSchema = routeSchema({ tag, summary: "A form's filtered submissions as an .xlsx", params, querystring: submissionsQuerySchema });
  app.get(onlineFormsPaths.submissionsExport, { schema: exportSchema }, async (request, reply) => {
    const session = await requireSession(request, ctx);
    const id = formId(request.params);
    const { q, from, to } = parseInput(submissionsQuerySchema, request.query);
    const { form } = await module.formFor(session, id);
    // The workbook writer (and fflate under it) loads with the first export, not at start.
    const { exportFilename, submissionsWorkbook } = await import('./export.ts');
    const bytes = await submissionsWorkbook(submissions, form, { q, from, to });
    return reply.header('content-type', XLSX_TYPE).header('content-disposition', `attachment; filename="${exportFilename(form, ctx.now())}"`).send(bytes);
  });

  app.get(onlineFormsPaths.submission, { schema: routeSchema({ tag, summary: 'One submission', params, response: { 200: formSubmissionSchema } }) }, async (request) => {
    const session = await requireSession(request, ctx);
    return submissions.get(session, submissionId(request.params));
  });

  app.delete(onlineFormsPaths.submission, { schema: routeSchema({ tag, summary: 'Deletes a submission with its signature and document (owner or edit access)', params, response: { 204: null } }) }, async (request, reply) => {
    const session = await requireSession(request, ctx);
    await submissions.remove(session, submissionId(request.params));
    return reply.status(204).send();
  });

  app.get(onlineFormsPaths.submissionSignature, { schema: routeSchema({ tag, summary: "A submission's drawn signature (image/png) as a download", params }) }, async (request, reply) => {
    const session = await requireSession(request, ctx);
    const { bytes, filename } = await submissions.signature(session, submissionId(request.params));
    return reply.header('content-type', 'image/png').header('content-disposition', attachment(filename)).header('x-content-type-options', 'nosniff').header('cache-control', 'private, no-store').send(bytes);
  });

  // Public: no session; a form is known only by its public id.
  const publicTag = 'onlineforms-public';
  const publicParams = publicIdParamsSchema;
  const publicId = (input: unknown) => parsedOr404(publicIdParamsSchema, input, formNotFound).publicId;
  app.get(onlineFormsPaths.publicForm, { schema: routeSchema({ tag: publicTag, summary: 'Public: a published form to fill (404 unknown or draft, 410 closed)', params: publicParams, response: { 200: publicOnlineFormSchema } }), config: { rateLimit: perIp(120, 60_000) } }, async (request, reply) => {
    const id = publicId(request.params);
    reply.header('cache-control', 'no-store');
    return publicForms.form(id);
  });

  const submitSchema = routeSchema({ tag: publicTag, summary: "Public: a client's answer with a drawn signature (PNG judged by its bytes); rate limited and capped", params: publicParams, body: publicSubmissionBodySchema, response: { 201: publicSubmissionReceiptSchema } });
  app.post(onlineFormsPaths.publicSubmissions, { schema: submitSchema, bodyLimit: PUBLIC_SUBMISSION_BODY_LIMIT, config: { rateLimit: perIp(module.caps.submissionsPerIpPerMinute, 60_000) } }, async (request, reply) => {
    const id = publicId(request.params);
    const body = parseInput(publicSubmissionBodySchema, request.body);
    return reply.status(201).send(await publicForms.submit(id, body));
  });
}
