import fastifyMultipart from '@fastify/multipart';
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod/mini';
import {
  ALTAS_LOGO_EXTENSIONS, ALTAS_LOGO_MAX_BYTES, altasPaths, clientCompanySchema, clientCompanyUpdateSchema, clientCreateSchema, clientUpdateSchema, companiesResponseSchema,
  flowParamsSchema, formConfigurationSchema, formConfigurationUpdateSchema, formDefinitionSchema, formSettingsSchema, formSettingsUpdateSchema, groupKeyParamsSchema,
  groupParamsSchema, groupsBodySchema, idParamsSchema,
} from '#shared/api/altas.ts';
import type { AppContext } from '../../context.ts';
import { HttpError } from '../../http/errors.ts';
import { routeSchema } from '../../http/openapi.ts';
import { parseInput } from '../../http/parse.ts';
import { perIp } from '../../http/rate-limit.ts';
import { requireSession } from '../../http/session.ts';
import { LOGO_TOO_LARGE_MESSAGE, LOGO_TYPE_MESSAGE, NOT_MULTIPART_MESSAGE } from './messages.ts';
import type { AltasService } from './service.ts';
import { receiveFile } from './uploads.ts';

const emailResponseSchema = z.object({ email: z.string() });
const LOGO_FIELDS = new Set(['logo', 'file']);
/** Creating a company or changing its email, per client IP: an office onboards its companies one by one. */
export const COMPANY_EMAIL_RATE_LIMIT = { max: 30, timeWindowMs: 60_000 };

/**
 * Spec §7 Form-to-flow, the advisor's side: the form's definition, configuration and public settings,
 * the client companies, their credentials and groups. Everything within the session's firm.
 */
export async function registerAltasRoutes(app: FastifyInstance, ctx: AppContext, altas: AltasService): Promise<void> {
  const tag = 'altas';
  const firmOf = async (request: Parameters<typeof requireSession>[0]) => (await requireSession(request, ctx)).groupId;

  app.get(altasPaths.formDefinition, { schema: routeSchema({ tag, summary: "The firm's effective alta form", params: flowParamsSchema, response: { 200: formDefinitionSchema } }) }, async (request) => {
    const groupId = await firmOf(request);
    return altas.forms.definition(groupId, parseInput(flowParamsSchema, request.params).flowId);
  });

  app.get(altasPaths.formConfiguration, { schema: routeSchema({ tag, summary: "The form's pages and field overrides", params: flowParamsSchema, response: { 200: formConfigurationSchema } }) }, async (request) => {
    const groupId = await firmOf(request);
    return altas.forms.configuration(groupId, parseInput(flowParamsSchema, request.params).flowId);
  });

  const configurationUpdate = routeSchema({ tag, summary: "Change the form's pages and field overrides (locked fields stay required)", params: flowParamsSchema, body: formConfigurationUpdateSchema, response: { 200: formConfigurationSchema } });
  app.patch(altasPaths.formConfiguration, { schema: configurationUpdate }, async (request) => {
    const groupId = await firmOf(request);
    const { flowId } = parseInput(flowParamsSchema, request.params);
    return altas.forms.updateConfiguration(groupId, flowId, parseInput(formConfigurationUpdateSchema, request.body));
  });

  app.get(altasPaths.companies, { schema: routeSchema({ tag, summary: "The firm's client companies (not removed), by name", response: { 200: companiesResponseSchema } }) }, async (request) => ({
    items: await altas.companies.list(await firmOf(request)),
  }));

  app.patch(altasPaths.companies, { schema: routeSchema({ tag, summary: "A company's access, configuration, name, CCC list or open state", body: clientCompanyUpdateSchema, response: { 200: clientCompanySchema } }) }, async (request) => {
    const groupId = await firmOf(request);
    return altas.companies.updateCompany(groupId, parseInput(clientCompanyUpdateSchema, request.body));
  });

  app.get(altasPaths.company, { schema: routeSchema({ tag, summary: 'One client company', params: idParamsSchema, response: { 200: clientCompanySchema } }) }, async (request) => {
    const groupId = await firmOf(request);
    return altas.companies.get(groupId, parseInput(idParamsSchema, request.params).id);
  });

  const companyEmailLimit = { rateLimit: perIp(COMPANY_EMAIL_RATE_LIMIT.max, COMPANY_EMAIL_RATE_LIMIT.timeWindowMs) };
  const createSchema = routeSchema({ tag, summary: "Create a company (the firm's client user of that email reused)", body: clientCreateSchema, response: { 201: clientCompanySchema } });
  app.post(altasPaths.createClient, { schema: createSchema, config: companyEmailLimit }, async (request, reply) => {
    const groupId = await firmOf(request);
    const body = parseInput(clientCreateSchema, request.body);
    return reply.status(201).send(await altas.companies.create(groupId, body));
  });

  app.patch(altasPaths.client, { schema: routeSchema({ tag, summary: "A company's name, email and CCC list", params: idParamsSchema, body: clientUpdateSchema, response: { 200: clientCompanySchema } }), config: companyEmailLimit }, async (request) => {
    const groupId = await firmOf(request);
    const { id } = parseInput(idParamsSchema, request.params);
    return altas.companies.updateClient(groupId, id, parseInput(clientUpdateSchema, request.body));
  });

  app.delete(altasPaths.client, { schema: routeSchema({ tag, summary: 'Remove a company (its submissions stay)', params: idParamsSchema, response: { 204: null } }) }, async (request, reply) => {
    const groupId = await firmOf(request);
    await altas.companies.remove(groupId, parseInput(idParamsSchema, request.params).id);
    return reply.status(204).send();
  });

  app.put(altasPaths.sendEmail, { schema: routeSchema({ tag, summary: 'Email the company its form link and a new password', params: idParamsSchema, response: { 200: emailResponseSchema } }) }, async (request) => {
    const groupId = await firmOf(request);
    return altas.companies.sendEmail(groupId, parseInput(idParamsSchema, request.params).id);
  });

  for (const [method, mode] of [['post', 'add'], ['patch', 'change']] as const) {
    const schema = routeSchema({ tag, summary: mode === 'add' ? 'Add groups (or copy one from another company) by key' : 'Change groups by key', params: groupParamsSchema, body: groupsBodySchema, response: { 200: clientCompanySchema } });
    app[method](altasPaths.groups, { schema }, async (request) => {
      const groupId = await firmOf(request);
      const { id } = parseInput(groupParamsSchema, request.params);
      const body = parseInput(groupsBodySchema, request.body);
      return altas.companies.saveGroups(groupId, id, body, mode, await altas.forms.fields(groupId));
    });
  }

  app.delete(altasPaths.group, { schema: routeSchema({ tag, summary: 'Delete a group of a company', params: groupKeyParamsSchema, response: { 200: clientCompanySchema } }) }, async (request) => {
    const groupId = await firmOf(request);
    const { id, key } = parseInput(groupKeyParamsSchema, request.params);
    return altas.companies.deleteGroup(groupId, id, key);
  });

  app.get(altasPaths.formSettings, { schema: routeSchema({ tag, summary: "The form's title, URL and logo", response: { 200: formSettingsSchema } }) }, async (request) => altas.forms.settings(await firmOf(request)));

  const logoParams = z.object({ id: z.string().check(z.minLength(1), z.maxLength(64)) });
  app.get(altasPaths.formLogo, { schema: routeSchema({ tag, summary: "A form's logo (public: the company's form shows it)", params: logoParams }) }, async (request, reply) => {
    const { id } = parseInput(logoParams, request.params);
    const logo = await altas.forms.logo(id);
    // A new logo gets a new id, so the old address may be cached for good.
    return reply.header('content-type', logo.contentType).header('x-content-type-options', 'nosniff').header('cache-control', 'public, max-age=31536000, immutable').send(logo.data);
  });

  // Encapsulated: the multipart parser serves the settings upload only.
  await app.register(async (scope) => {
    await scope.register(fastifyMultipart, { throwFileSizeLimit: false, limits: { fileSize: ALTAS_LOGO_MAX_BYTES, files: 1, fields: 10, parts: 12 } });
    const schema = routeSchema({
      tag,
      summary: "Save the form's title and URL, and its logo (judged by its bytes)",
      description: "multipart/form-data: text fields 'title', 'url', optional 'removeLogo', optional image in 'logo' (or 'file').",
      response: { 200: formSettingsSchema },
    });
    scope.put(altasPaths.formSettings, { schema }, async (request) => {
      const groupId = await firmOf(request);
      if (!request.isMultipart()) throw new HttpError(415, 'UNSUPPORTED_MEDIA_TYPE', NOT_MULTIPART_MESSAGE);
      const fields: Record<string, string> = {};
      let logo: { storageKey: string; contentType: string } | null = null;
      try {
        for await (const part of request.parts()) {
          if (part.type === 'field') {
            if (typeof part.value === 'string') fields[part.fieldname] = part.value;
          } else if (LOGO_FIELDS.has(part.fieldname) && logo === null) {
            const storageKey = `${groupId}/altas/logo-${randomUUID()}`;
            const { contentType } = await receiveFile(altas.storage, storageKey, part.filename, part.file, {
              types: ALTAS_LOGO_EXTENSIONS, maxBytes: ALTAS_LOGO_MAX_BYTES, tooLarge: () => new HttpError(413, 'FILE_TOO_LARGE', LOGO_TOO_LARGE_MESSAGE), typesMessage: LOGO_TYPE_MESSAGE,
            });
            logo = { storageKey, contentType };
          } else {
            part.file.resume();
          }
        }
        const update = parseInput(formSettingsUpdateSchema, fields);
        const stored = logo;
        logo = null; // from here updateSettings owns the new logo (it removes it when it refuses)
        return await altas.forms.updateSettings(groupId, { title: update.title, url: update.url, removeLogo: update.removeLogo === 'true' }, stored);
      } finally {
        if (logo) await altas.storage.remove([logo.storageKey]);
      }
    });
  });
}
