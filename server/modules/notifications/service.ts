import type { Readable } from 'node:stream';
import type { Kysely } from 'kysely';
import type {
  NotificationDetail, NotificationDocument, NotificationsPage, NotificationsSummary, RobotAccess, RobotCertificate, RobotDocumentQuery,
  RobotOpened, RobotStatus, RobotUpsert, WatchedCertificate, WatchedCertificatesUpdate, notificationsQuerySchema,
} from '#shared/api/notifications.ts';
import type { z } from 'zod/mini';
import type { Database } from '../../db/schema.ts';
import type { Member } from '../machines/access.ts';
import type { FileStorage } from '../storage/service.ts';
import { readDocument, storeDocument, type ServedDocument } from './documents.ts';
import { listNotifications, notificationDetail, notificationsSummary } from './queries.ts';
import { recordOpened, robotAccess, upsertNotifications } from './robot.ts';
import { listWatched, recordStatus, replaceWatched, robotCertificates, type DeviceMember } from './watched.ts';

/**
 * DEHÚ notifications of a firm (spec §4 Notifications): what the screen reads (the firm's page of
 * notifications, one with its documents, the watched certificates, the Home summary) and what the
 * desktop writes for its machine's certificates. Everything is scoped to the caller's group.
 */
export class NotificationsService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly storage: FileStorage,
    private readonly now: () => Date,
  ) {}

  list(groupId: string, query: z.infer<typeof notificationsQuerySchema>): Promise<NotificationsPage> {
    return listNotifications(this.db, groupId, query);
  }

  detail(groupId: string, id: string): Promise<NotificationDetail> {
    return notificationDetail(this.db, groupId, id);
  }

  document(groupId: string, id: string, documentId: string): Promise<ServedDocument> {
    return readDocument(this.db, this.storage, groupId, id, documentId);
  }

  summary(groupId: string): Promise<NotificationsSummary> {
    return notificationsSummary(this.db, groupId, this.now());
  }

  watched(member: Member): Promise<WatchedCertificate[]> {
    return listWatched(this.db, member, this.now());
  }

  async replaceWatched(member: Member, update: WatchedCertificatesUpdate): Promise<WatchedCertificate[]> {
    await replaceWatched(this.db, member, update, this.now());
    return this.watched(member);
  }

  robotCertificates(device: DeviceMember): Promise<RobotCertificate[]> {
    return robotCertificates(this.db, device);
  }

  robotStatus(device: DeviceMember, status: RobotStatus): Promise<void> {
    return recordStatus(this.db, device, status, this.now());
  }

  robotUpsert(device: DeviceMember, body: RobotUpsert): Promise<{ added: number; updated: number }> {
    return upsertNotifications(this.db, device, body, this.now());
  }

  robotAccess(device: DeviceMember, id: string): Promise<RobotAccess> {
    return robotAccess(this.db, device, id);
  }

  robotDocument(device: DeviceMember, id: string, query: RobotDocumentQuery, file: Readable & { truncated?: boolean }): Promise<NotificationDocument> {
    return storeDocument(this.db, this.storage, device, id, query, file, this.now());
  }

  async robotOpened(device: DeviceMember, id: string, opened: RobotOpened): Promise<NotificationDetail> {
    await recordOpened(this.db, device, id, opened, this.now());
    return this.detail(device.groupId, id);
  }
}
