import fastifyMultipart from '@fastify/multipart';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod/mini';
import { ALTAS_FILE_MAX_BYTES, altasPaths, publicAuthSchema, publicFormParamsSchema, publicFormSchema, publicSubmissionSchema, publicUploadedFileSchema } from '#shared/api/altas.ts';
import type { AppContext } from '../../context.ts';
import { HttpError } from '../../http/errors.ts';
import { routeSchema } from '../../http/openapi.ts';
import { parseInput } from '../../http/parse.ts';
import { NO_FILE_MESSAGE, NOT_MULTIPART_MESSAGE } from './messages.ts';
import { FORM_SESSION_TTL_MS } from './public.ts';
import type { AltasService } from './service.ts';

/** The company's session cookie: only ever sent to the form's own API. */
export const FORM_SESSION_COOKIE = 'aa_form_session';
const FORM_COOKIE_PATH = '/api/form-to-flow-form';

const publicSessionSchema = z.object({ email: z.string() });

/**
 * The company's side of the form (public; its own cookie session, never an advisor's). Unsafe calls
 * are covered by the app's origin check (http/origin-check.ts) and the cookie is SameSite=Strict.
 */
export async function registerAltasPublicRoutes(app: FastifyInstance, ctx: AppContext, altas: AltasService): Promise<void> {
  const tag = 'altas-public';
  const tokenOf = (request: FastifyRequest) => request.cookies[FORM_SESSION_COOKIE] || undefined;
  const clearCookie = (reply: FastifyReply) => reply.clearCookie(FORM_SESSION_COOKIE, { httpOnly: true, sameSite: 'strict', path: FORM_COOKIE_PATH, secure: ctx.cookieSecure });

  app.post(altasPaths.publicAuth, { schema: routeSchema({ tag, summary: 'A company signs in to its form', body: publicAuthSchema, response: { 200: publicSessionSchema } }) }, async (request, reply) => {
    const body = parseInput(publicAuthSchema, request.body);
    // Counted before the password is checked; the lock is per client and company, and mailed to it.
    const { account, accounts } = altas.public.formAccounts(body.url, body.email);
    const attempt = await altas.passwords.attempt(reply, request.ip, account, accounts);
    let signedIn: Awaited<ReturnType<typeof altas.public.signIn>>;
    try {
      signedIn = await altas.public.signIn(body);
    } catch (error) {
      await attempt.failed();
      throw error;
    }
    await attempt.succeeded();
    reply.setCookie(FORM_SESSION_COOKIE, signedIn.token, { httpOnly: true, sameSite: 'strict', path: FORM_COOKIE_PATH, secure: ctx.cookieSecure, maxAge: FORM_SESSION_TTL_MS / 1000 });
    return { email: signedIn.email };
  });

  app.post(altasPaths.publicLogout, { schema: routeSchema({ tag, summary: "Ends the company's form session", response: { 204: null } }) }, async (request, reply) => {
    await altas.public.signOut(tokenOf(request));
    clearCookie(reply);
    return reply.status(204).send();
  });

  app.get(altasPaths.publicForm, { schema: routeSchema({ tag, summary: 'The form by its slug; with the company signed in, its fields, companies and own submissions', params: publicFormParamsSchema, response: { 200: publicFormSchema } }) }, async (request, reply) => {
    const { id } = parseInput(publicFormParamsSchema, request.params);
    reply.header('cache-control', 'private, no-store');
    return altas.public.form(id, tokenOf(request));
  });

  const submitSchema = routeSchema({ tag, summary: "The company sends a worker's alta", params: publicFormParamsSchema, body: publicSubmissionSchema, response: { 201: z.object({ _id: z.string() }) } });
  app.post(altasPaths.publicForm, { schema: submitSchema }, async (request, reply) => {
    const { id } = parseInput(publicFormParamsSchema, request.params);
    const body = parseInput(publicSubmissionSchema, request.body);
    return reply.status(201).send(await altas.public.submit(id, tokenOf(request), body));
  });

  // Encapsulated: the multipart parser serves the company's file upload only.
  await app.register(async (scope) => {
    await scope.register(fastifyMultipart, { throwFileSizeLimit: false, limits: { fileSize: ALTAS_FILE_MAX_BYTES, files: 1, fields: 0, parts: 1 } });
    const schema = routeSchema({
      tag,
      summary: 'A signed-in company uploads one file (image or PDF, judged by its bytes)',
      description: "multipart/form-data with one file in the field 'file'.",
      params: publicFormParamsSchema,
      response: { 200: publicUploadedFileSchema },
    });
    scope.post(altasPaths.publicFiles, { schema }, async (request) => {
      const { id } = parseInput(publicFormParamsSchema, request.params);
      // The session first: nothing of an anonymous upload is read or stored.
      const session = await altas.public.uploadTarget(id, tokenOf(request));
      if (!request.isMultipart()) throw new HttpError(415, 'UNSUPPORTED_MEDIA_TYPE', NOT_MULTIPART_MESSAGE);
      const part = await request.file();
      if (!part || part.fieldname !== 'file') {
        part?.file.resume();
        throw new HttpError(400, 'VALIDATION', NO_FILE_MESSAGE, { issues: [{ path: 'file', message: NO_FILE_MESSAGE }] });
      }
      return altas.public.storeFile(session, part.filename, part.file);
    });
  });
}
