import { randomUUID } from 'node:crypto';
import type { NotificationDocument, RobotAccess, RobotCertificate, RobotOpened, RobotStatus, RobotUpsert } from '#shared/api/notifications.ts';
import { notificationsPaths, robotOpenedSchema, robotStatusSchema, robotUpsertSchema } from '#shared/api/notifications.ts';

export const FAKE_SERVER_URL = 'http://servidor.test';
export const FAKE_DEVICE_TOKEN = 'token-de-prueba';

export interface FakeStoredNotification {
  access: Omit<RobotAccess, 'documents'>;
  documents: NotificationDocument[];
  opened: RobotOpened | null;
}

/**
 * The notifications API's device calls as a fetch function (no sockets): what the desktop sent is kept
 * in order, and a notification's documents and comparecencia are stored as the server would.
 */
export interface FakeDehuServer {
  fetch: typeof fetch;
  watched: RobotCertificate[];
  statuses: RobotStatus[];
  upserts: RobotUpsert[];
  notifications: Map<string, FakeStoredNotification>;
  /** Every request as 'METHOD path' (query left out). */
  requests: string[];
}

const json = (status: number, body?: unknown) =>
  new Response(body === undefined ? null : JSON.stringify(body), { status, headers: body === undefined ? {} : { 'content-type': 'application/json' } });

export function startFakeDehuServer(watched: RobotCertificate[] = []): FakeDehuServer {
  const server: FakeDehuServer = { fetch: undefined as unknown as typeof fetch, watched, statuses: [], upserts: [], notifications: new Map(), requests: [] };
  const known = new Set<string>();

  server.fetch = async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const method = init?.method ?? 'GET';
    server.requests.push(`${method} ${url.pathname}`);
    if (new Headers(init?.headers).get('authorization') !== `Device ${FAKE_DEVICE_TOKEN}`) return json(401, { message: 'Token no válido' });
    const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined;
    const path = url.pathname;
    if (method === 'GET' && path === notificationsPaths.robotCertificates) return json(200, { items: server.watched });
    if (method === 'POST' && path === notificationsPaths.robotStatus) {
      server.statuses.push(robotStatusSchema.parse(body));
      return json(204);
    }
    if (method === 'POST' && path === notificationsPaths.robotUpsert) {
      const upsert = robotUpsertSchema.parse(body);
      server.upserts.push(upsert);
      let added = 0;
      for (const envio of [...upsert.pendientes, ...upsert.realizadas]) {
        if (!known.has(envio.identificador)) added += 1;
        known.add(envio.identificador);
      }
      return json(200, { added, updated: upsert.pendientes.length + upsert.realizadas.length - added });
    }
    const match = /^\/api\/notifications\/robot\/([^/]+)(\/documents|\/opened)?$/.exec(path);
    const stored = match ? server.notifications.get(decodeURIComponent(match[1]!)) : undefined;
    if (!match || !stored) return json(404, { message: 'No se ha encontrado la notificación' });
    if (method === 'GET' && !match[2]) {
      return json(200, { ...stored.access, documents: stored.documents });
    }
    if (method === 'POST' && match[2] === '/documents') {
      const file = (init?.body as FormData).get('file') as File;
      const kind = url.searchParams.get('kind') as NotificationDocument['kind'];
      const name = url.searchParams.get('name') ?? '';
      const document: NotificationDocument = { _id: randomUUID(), kind, name, mimeType: file.type, size: file.size, createdAt: new Date().toISOString() };
      stored.documents.push(document);
      return json(201, document);
    }
    if (method === 'POST' && match[2] === '/opened') {
      stored.opened = robotOpenedSchema.parse(body);
      stored.access = { ...stored.access, estado: 'aceptada' };
      return json(200, detailOf(stored));
    }
    return json(404, { message: 'Ruta desconocida' });
  };
  return server;
}

function detailOf(stored: FakeStoredNotification) {
  const { access, documents, opened } = stored;
  return {
    _id: access._id, identificador: access.identificador, titular: 'EMPRESA DE PRUEBA SL', titularNif: 'B12345678', organoEmisor: 'AEAT', organismoRaiz: null,
    codProcedimiento: null, concepto: access.concepto, descripcion: null, tipo: 'notificacion', vinculo: 'titular', disposicion: '2026-11-20T10:00:00+01:00',
    caducidad: '2026-11-30T10:00:00+01:00', estado: access.estado,
    certificate: { fingerprint: access.certificate.fingerprint, commonName: access.certificate.commonName, machine: null },
    openedAt: opened?.fechaEvento ?? null, openedBy: null, documentCount: documents.length, firstSeenAt: '2026-11-20T10:00:00.000Z',
    csvResguardo: opened?.csvResguardo ?? null, receptor: opened?.receptor ?? null, documents,
  };
}
