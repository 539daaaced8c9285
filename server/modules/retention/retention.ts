import { HttpError } from '../../http/errors.ts';

/**
 * How long uploads and run outputs are kept (FILE_RETENTION_DAYS, 30 by default): a file is due for
 * deletion that many days after it was stored. The sweeper deletes it then; until it has, a due file
 * already reads as expired, so a download never depends on when the sweeper last ran.
 */

export const DEFAULT_FILE_RETENTION_DAYS = 30;
export const MAX_FILE_RETENTION_DAYS = 36_500;

const DAY_MS = 24 * 60 * 60 * 1000;

/** When a file stored at `createdAt` is due for deletion (ISO), or null if the date is unreadable. */
export function expiresAt(createdAt: string, retentionDays: number): string | null {
  const stored = Date.parse(createdAt);
  return Number.isNaN(stored) ? null : new Date(stored + retentionDays * DAY_MS).toISOString();
}

/** Files stored at or before this instant are past their retention. */
export function retentionCutoff(now: Date, retentionDays: number): string {
  return new Date(now.getTime() - retentionDays * DAY_MS).toISOString();
}

/** A file is expired once the sweeper deleted it, or once it is due (the sweeper will). */
export function isExpired(file: { created_at: string; expired_at: string | null }, now: Date, retentionDays: number): boolean {
  if (file.expired_at !== null) return true;
  const due = expiresAt(file.created_at, retentionDays);
  return due !== null && Date.parse(due) <= now.getTime();
}

export function expiredFileMessage(retentionDays: number): string {
  return `Este archivo ya no está disponible: se borran ${retentionDays === 1 ? 'pasado 1 día' : `a los ${retentionDays} días`}`;
}

/** GET of an output past its retention: 410 Gone, saying why. */
export function fileExpired(retentionDays: number): HttpError {
  return new HttpError(410, 'FILE_EXPIRED', expiredFileMessage(retentionDays));
}
