import fastifyMultipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import {
  NOTIFICATION_DOCUMENT_MAX_BYTES, notificationDetailSchema, notificationDocumentParamsSchema, notificationDocumentSchema, notificationParamsSchema,
  notificationsPageSchema, notificationsPaths, notificationsQuerySchema, notificationsSummarySchema, robotAccessSchema, robotCertificatesResponseSchema,
  robotDocumentQuerySchema, robotOpenedSchema, robotStatusSchema, robotUpsertResponseSchema, robotUpsertSchema, watchedCertificatesResponseSchema,
  watchedCertificatesUpdateSchema, NOTIFICATIONS_UPSERT_BODY_LIMIT,
} from '#shared/api/notifications.ts';
import type { AppContext } from '../../context.ts';
import { HttpError } from '../../http/errors.ts';
import { routeSchema } from '../../http/openapi.ts';
import { parseInput } from '../../http/parse.ts';
import { requireSession } from '../../http/session.ts';
import { deviceOnly, type DeviceAuth } from '../devices/auth.ts';
import { DOCUMENT_MISSING_MESSAGE, NOT_MULTIPART_MESSAGE } from './messages.ts';
import type { NotificationsService } from './service.ts';

/** One page of pendientes or realizadas (~2 KB each): never a big JSON body to parse on the event loop (issue 39). */
const UPSERT_BODY_LIMIT = NOTIFICATIONS_UPSERT_BODY_LIMIT;

/** `filename*` (RFC 6266 / 5987): any name, accents included, without breaking the header. */
function disposition(kind: 'inline' | 'attachment', name: string): string {
  return `${kind}; filename*=UTF-8''${encodeURIComponent(name).replace(/['()*]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`)}`;
}

/**
 * A stored document's policy: nothing may load or run (`default-src 'none'`), and the document is a
 * sandbox (an opaque origin with no scripts, forms, popups or plugins of its own). Chromium's PDF viewer
 * needs nothing more: it renders such a PDF framed and at the top level (checked in Chromium 156; the
 * viewer is the browser's own extension frame, not the document's). Only the notice and the acuse (PDFs)
 * may be framed, by our own pages.
 */
export const DOCUMENT_CSP = "default-src 'none'; sandbox; frame-ancestors 'self'";
export const DOWNLOAD_CSP = "default-src 'none'; sandbox; frame-ancestors 'none'";

/**
 * Spec §7 notifications, within the caller's firm. The screen's calls take a session; the desktop's
 * (`/robot/...`) take a linked device's token and act for that device's machine. Every body and query
 * is parsed with shared/api/notifications.ts before anything is written.
 */
export async function registerNotificationsRoutes(app: FastifyInstance, ctx: AppContext, notifications: NotificationsService, deviceAuth: DeviceAuth): Promise<void> {
  const tag = 'notifications';

  const listSchema = routeSchema({ tag, summary: "A page of the firm's DEHÚ notifications: view, search, date ranges and sort", querystring: notificationsQuerySchema, response: { 200: notificationsPageSchema } });
  app.get(notificationsPaths.list, { schema: listSchema }, async (request) => {
    const { groupId } = await requireSession(request, ctx);
    return notifications.list(groupId, parseInput(notificationsQuerySchema, request.query));
  });

  const summarySchema = routeSchema({ tag, summary: 'The Home banner: new notifications, pending ones expiring soon, last update', response: { 200: notificationsSummarySchema } });
  app.get(notificationsPaths.summary, { schema: summarySchema }, async (request) => notifications.summary((await requireSession(request, ctx)).groupId));

  const watchedSchema = routeSchema({ tag, summary: "The firm's watched certificates with their machine and last update", response: { 200: watchedCertificatesResponseSchema } });
  app.get(notificationsPaths.certificates, { schema: watchedSchema }, async (request) => ({ items: await notifications.watched(await requireSession(request, ctx)) }));

  const replaceSchema = routeSchema({ tag, summary: 'Replace the watched certificates (each synced on a machine the caller can see)', body: watchedCertificatesUpdateSchema, response: { 200: watchedCertificatesResponseSchema } });
  app.put(notificationsPaths.certificates, { schema: replaceSchema }, async (request) => {
    const session = await requireSession(request, ctx);
    const body = parseInput(watchedCertificatesUpdateSchema, request.body);
    return { items: await notifications.replaceWatched(session, body) };
  });

  const oneSchema = routeSchema({ tag, summary: 'One notification with its stored documents', params: notificationParamsSchema, response: { 200: notificationDetailSchema } });
  app.get(notificationsPaths.one, { schema: oneSchema }, async (request) => {
    const { groupId } = await requireSession(request, ctx);
    const { id } = parseInput(notificationParamsSchema, request.params);
    return notifications.detail(groupId, id);
  });

  const documentSchema = routeSchema({ tag, summary: "A stored document's bytes: a PDF notice or acuse inline (the web app shows it), anything else as a download", params: notificationDocumentParamsSchema });
  app.get(notificationsPaths.document, { schema: documentSchema }, async (request, reply) => {
    const { groupId } = await requireSession(request, ctx);
    const { id, documentId } = parseInput(notificationDocumentParamsSchema, request.params);
    const document = await notifications.document(groupId, id, documentId);
    const inline = document.disposition === 'inline';
    return reply
      .header('content-type', document.mimeType)
      .header('content-disposition', disposition(document.disposition, document.name))
      .header('content-security-policy', inline ? DOCUMENT_CSP : DOWNLOAD_CSP)
      .header('x-content-type-options', 'nosniff')
      // The notifications screen shows the PDF in an <object> of our own origin; nobody else may frame it.
      .header('x-frame-options', inline ? 'SAMEORIGIN' : 'DENY')
      .send(document.data);
  });

  // The desktop's calls: device token only, checked before the body is read (an upsert may be 8 MB).
  const { device: deviceRoute, callerOf } = deviceOnly(deviceAuth);
  const certificatesSchema = routeSchema({ tag, summary: "The watched certificates on the calling device's machine", response: { 200: robotCertificatesResponseSchema } });
  app.get(notificationsPaths.robotCertificates, { schema: certificatesSchema, ...deviceRoute }, async (request) => ({ items: await notifications.robotCertificates(callerOf(request)) }));

  const statusSchema = routeSchema({ tag, summary: "One certificate's update started, finished or failed", body: robotStatusSchema, response: { 204: null } });
  app.post(notificationsPaths.robotStatus, { schema: statusSchema, ...deviceRoute }, async (request, reply) => {
    const device = callerOf(request);
    await notifications.robotStatus(device, parseInput(robotStatusSchema, request.body));
    return reply.status(204).send();
  });

  const upsertSchema = routeSchema({ tag, summary: 'What Localiza and LocalizaRealizadas found for one certificate, upserted by identificador', body: robotUpsertSchema, response: { 200: robotUpsertResponseSchema } });
  app.post(notificationsPaths.robotUpsert, { schema: upsertSchema, bodyLimit: UPSERT_BODY_LIMIT, ...deviceRoute }, async (request) => {
    const device = callerOf(request);
    return notifications.robotUpsert(device, parseInput(robotUpsertSchema, request.body));
  });

  const accessSchema = routeSchema({ tag, summary: 'What PeticionAcceso needs for one notification', params: notificationParamsSchema, response: { 200: robotAccessSchema } });
  app.get(notificationsPaths.robotAccess, { schema: accessSchema, ...deviceRoute }, async (request) => {
    const device = callerOf(request);
    const { id } = parseInput(notificationParamsSchema, request.params);
    return notifications.robotAccess(device, id);
  });

  const openedSchema = routeSchema({ tag, summary: 'PeticionAcceso succeeded: the notification is accepted (comparecencia)', params: notificationParamsSchema, body: robotOpenedSchema, response: { 200: notificationDetailSchema } });
  app.post(notificationsPaths.robotOpened, { schema: openedSchema, ...deviceRoute }, async (request) => {
    const device = callerOf(request);
    const { id } = parseInput(notificationParamsSchema, request.params);
    return notifications.robotOpened(device, id, parseInput(robotOpenedSchema, request.body));
  });

  // Encapsulated: the multipart parser serves the document upload only.
  await app.register(async (scope) => {
    await scope.register(fastifyMultipart, { throwFileSizeLimit: false, limits: { fileSize: NOTIFICATION_DOCUMENT_MAX_BYTES, files: 1, fields: 0, parts: 1 } });
    const schema = routeSchema({
      tag,
      summary: 'One document of an opened notification (notice, annex or acuse), judged by its content; only from the machine holding its certificate',
      description: "multipart/form-data with one file in the field 'file'.",
      params: notificationParamsSchema,
      querystring: robotDocumentQuerySchema,
      response: { 201: notificationDocumentSchema },
    });
    scope.post(notificationsPaths.robotDocuments, { schema, ...deviceRoute }, async (request, reply) => {
      const device = callerOf(request);
      const { id } = parseInput(notificationParamsSchema, request.params);
      const query = parseInput(robotDocumentQuerySchema, request.query);
      if (!request.isMultipart()) throw new HttpError(415, 'UNSUPPORTED_MEDIA_TYPE', NOT_MULTIPART_MESSAGE);
      const part = await request.file();
      if (!part || part.fieldname !== 'file') {
        part?.file.resume();
        throw new HttpError(400, 'VALIDATION', DOCUMENT_MISSING_MESSAGE, { issues: [{ path: 'file', message: DOCUMENT_MISSING_MESSAGE }] });
      }
      return reply.status(201).send(await notifications.robotDocument(device, id, query, part.file));
    });
  });
}
