import { z } from 'zod/mini';
import {
  NOTIFICATIONS_MAX_UPSERT, NOTIFICATIONS_UPSERT_BODY_LIMIT, notificationDetailSchema, notificationDocumentSchema, notificationsPaths, robotAccessSchema, robotCertificatesResponseSchema,
  robotUpsertResponseSchema,
  type LemaEnvio, type LemaRealizada, type NotificationDetail, type NotificationDocument, type RobotAccess, type RobotCertificate, type RobotDocumentQuery,
  type RobotOpened, type RobotStatus,
} from '#shared/api/notifications.ts';
import { pathFor } from '#shared/api/flows.ts';
import { utf8ByteLength } from '#shared/api/pages.ts';
import { deviceApiCall, type DeviceApiOptions } from '../device/api-call.ts';

/** The notifications API's device-token calls (shared/api/notifications.ts) as this PC's DEHÚ robot makes them. */
export interface DehuServerClient {
  /** The watched certificates that live on this machine. */
  certificates(): Promise<RobotCertificate[]>;
  status(status: RobotStatus): Promise<void>;
  /** In chunks the server takes (NOTIFICATIONS_MAX_UPSERT per list); the answers added up. */
  upsert(fingerprint: string, pendientes: readonly LemaEnvio[], realizadas: readonly LemaRealizada[]): Promise<{ added: number; updated: number }>;
  access(notificationId: string): Promise<RobotAccess>;
  /** One document of an opened notification (multipart, one file). */
  uploadDocument(notificationId: string, query: RobotDocumentQuery, document: { mimeType: string; bytes: Uint8Array }): Promise<NotificationDocument>;
  opened(notificationId: string, opened: RobotOpened): Promise<NotificationDetail>;
}

/** robotStatus answers 204: no body to check. */
const noContentSchema = z.unknown();

export function dehuServerClient(options: DeviceApiOptions): DehuServerClient {
  const call = deviceApiCall(options);
  return {
    async certificates() {
      return (await call('GET', notificationsPaths.robotCertificates, robotCertificatesResponseSchema)).items;
    },
    async status(status) {
      await call('POST', notificationsPaths.robotStatus, noContentSchema, status);
    },
    async upsert(fingerprint, pendientes, realizadas) {
      const total = { added: 0, updated: 0 };
      // Rounds of up to NOTIFICATIONS_MAX_UPSERT of each list, and within NOTIFICATIONS_UPSERT_BODY_LIMIT bytes
      // (issue 39: the server takes no big JSON body). One round even with nothing: it tells the server the certificate is watched here.
      const sizeOf = (item: unknown) => utf8ByteLength(JSON.stringify(item)) + 1;
      let p = 0;
      let r = 0;
      do {
        let bytes = utf8ByteLength(JSON.stringify({ fingerprint, pendientes: [], realizadas: [] }));
        const take = <T>(items: readonly T[], from: number, alreadyTaken: boolean): number => {
          let to = from;
          while (to < items.length && to - from < NOTIFICATIONS_MAX_UPSERT) {
            const size = sizeOf(items[to]);
            if (bytes + size > NOTIFICATIONS_UPSERT_BODY_LIMIT && (to > from || alreadyTaken)) break;
            bytes += size;
            to += 1;
          }
          return to;
        };
        const pTo = take(pendientes, p, false);
        const rTo = take(realizadas, r, pTo > p);
        const body = { fingerprint, pendientes: pendientes.slice(p, pTo), realizadas: realizadas.slice(r, rTo) };
        p = pTo;
        r = rTo;
        const answer = await call('POST', notificationsPaths.robotUpsert, robotUpsertResponseSchema, body);
        total.added += answer.added;
        total.updated += answer.updated;
      } while (p < pendientes.length || r < realizadas.length);
      return total;
    },
    access: (notificationId) => call('GET', pathFor(notificationsPaths.robotAccess, { id: notificationId }), robotAccessSchema),
    uploadDocument(notificationId, query, document) {
      const form = new FormData();
      form.append('file', new Blob([new Uint8Array(document.bytes)], { type: document.mimeType }), query.name);
      const path = `${pathFor(notificationsPaths.robotDocuments, { id: notificationId })}?${new URLSearchParams(query).toString()}`;
      return call('POST', path, notificationDocumentSchema, form);
    },
    opened: (notificationId, opened) => call('POST', pathFor(notificationsPaths.robotOpened, { id: notificationId }), notificationDetailSchema, opened),
  };
}
