import { createHash, randomBytes } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { DEVICE_AUTH_SCHEME, DEVICE_TOKEN_INVALID_MESSAGE } from '#shared/api/devices.ts';
import type { Database } from '../../db/schema.ts';
import { HttpError } from '../../http/errors.ts';

/** Who calls with a device token: the machine, its firm, and the user who linked it. */
export interface DeviceCaller {
  tokenId: string;
  machineId: string;
  groupId: string;
  userId: string;
}

/** A machine's last call is written at most this often (a desktop calls several times a second while reporting). */
export const DEVICE_TOUCH_EVERY_MS = 5_000;

/** A new device token (32 random bytes, base64url) and what the server keeps of it. */
export function newDeviceToken(): { token: string; tokenHash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, tokenHash: hashDeviceToken(token) };
}

export function hashDeviceToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

export function deviceTokenInvalid(): HttpError {
  return new HttpError(401, 'DEVICE_TOKEN_INVALID', DEVICE_TOKEN_INVALID_MESSAGE);
}

/** The token of `Authorization: Device <token>`, or null. */
function tokenOf(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (typeof header !== 'string') return null;
  const [scheme, token, ...rest] = header.trim().split(/\s+/);
  if (scheme !== DEVICE_AUTH_SCHEME || token === undefined || rest.length > 0 || token.length > 100) return null;
  return token;
}

/**
 * Device calls (shared/api/devices.ts) authenticate with the device token alone: cookies are never
 * read. A token counts while its machine, its user and both in the same firm still exist; each call
 * marks the machine as seen (online), written at most every few seconds per machine and process.
 */
export class DeviceAuth {
  private readonly touchedAt = new Map<string, number>();

  constructor(
    private readonly db: Kysely<Database>,
    private readonly now: () => Date,
    private readonly touchEveryMs = DEVICE_TOUCH_EVERY_MS,
  ) {}

  async require(request: FastifyRequest): Promise<DeviceCaller> {
    const token = tokenOf(request);
    if (token === null) throw deviceTokenInvalid();
    const row = await this.db
      .selectFrom('device_tokens as t')
      .innerJoin('machines as m', (join) => join.onRef('m.id', '=', 't.machine_id').onRef('m.group_id', '=', 't.group_id'))
      .innerJoin('users as u', (join) => join.onRef('u.id', '=', 't.user_id').onRef('u.group_id', '=', 't.group_id'))
      .select(['t.id', 't.machine_id', 't.group_id', 't.user_id'])
      .where('t.token_hash', '=', hashDeviceToken(token))
      .executeTakeFirst();
    if (!row) throw deviceTokenInvalid();
    const caller = { tokenId: row.id, machineId: row.machine_id, groupId: row.group_id, userId: row.user_id };
    await this.touch(caller);
    return caller;
  }

  private async touch(caller: DeviceCaller): Promise<void> {
    const last = this.touchedAt.get(caller.tokenId) ?? 0;
    if (Date.now() - last < this.touchEveryMs) return;
    this.touchedAt.set(caller.tokenId, Date.now());
    const at = this.now().toISOString();
    await this.db.updateTable('machines').set({ last_seen_at: at }).where('id', '=', caller.machineId).execute();
    await this.db.updateTable('device_tokens').set({ last_used_at: at }).where('id', '=', caller.tokenId).execute();
  }
}

/**
 * For routes with `Authorization: Device <token>` only: `device` (route options) checks the token
 * before the body is read, so a caller without one never gets to send 60 MB; `callerOf` gives the
 * machine it stands for. A cookie on these routes counts for nothing.
 */
export function deviceOnly(auth: DeviceAuth) {
  const callers = new WeakMap<FastifyRequest, DeviceCaller>();
  const device = { onRequest: async (request: FastifyRequest) => void callers.set(request, await auth.require(request)) };
  const callerOf = (request: FastifyRequest): DeviceCaller => {
    const caller = callers.get(request);
    if (!caller) throw deviceTokenInvalid();
    return caller;
  };
  return { device, callerOf };
}
