import { createHash } from 'node:crypto';
import { expect } from 'vitest';
import { machinesPaths, type CertificatesSyncRequest, type Machine } from '#shared/api/machines.ts';
import type { CertificateMetadata } from '#shared/certificates/certificate.ts';
import { connectDatabase } from '../../db/connect.ts';
import { registerUser, type CookieJar, type TestServer } from '../../test/harness.ts';

/** Reads and arranges rows through a connection of its own, on SQLite or PostgreSQL alike. */
export async function withDatabase<T>(server: TestServer, use: (db: ReturnType<typeof connectDatabase>) => Promise<T>): Promise<T> {
  const db = connectDatabase(server.database);
  try {
    return await use(db);
  } finally {
    await db.destroy();
  }
}

/** A PC's hash as the desktop computes one: 64 lowercase hex characters. */
export function machineHash(pc: string): string {
  return createHash('sha256').update(`pc:${pc}`).digest('hex');
}

const DAY_MS = 86_400_000;

/** A person's FNMT certificate expiring `daysLeft` days (and a little) after `now`. */
export function certificate(name: string, daysLeft: number, now: Date, overrides: Partial<CertificateMetadata> = {}): CertificateMetadata {
  return {
    fingerprint: createHash('sha256').update(`cert:${name}`).digest('hex'),
    serialNumber: createHash('md5').update(name).digest('hex').toUpperCase(),
    subjectString: `CN=${name} - 00000000T, serialNumber=IDCES-00000000T, C=ES`,
    commonName: `${name} - 00000000T`,
    issuer: 'AC FNMT Usuarios',
    notBefore: new Date(now.getTime() - 700 * DAY_MS).toISOString(),
    // Half a day more, so the whole days left read `daysLeft` for the test's fixed clock.
    notAfter: new Date(now.getTime() + daysLeft * DAY_MS + DAY_MS / 2).toISOString(),
    nifVat: '00000000T',
    kind: 'person',
    store: 'windows',
    ...overrides,
  };
}

export function syncUrl(machineName: string): string {
  return `${machinesPaths.certificates}?machineName=${encodeURIComponent(machineName)}`;
}

/** Syncs a PC's certificates and expects it to answer 200 or 201 with the machine. */
export async function sync(jar: CookieJar, machineName: string, request: CertificatesSyncRequest): Promise<Machine> {
  const response = await jar.post(syncUrl(machineName), request);
  expect([200, 201], response.body).toContain(response.statusCode);
  return response.json() as Machine;
}

export async function machinesOf(jar: CookieJar, query = ''): Promise<Machine[]> {
  const response = await jar.get(`${machinesPaths.machines}${query}`);
  expect(response.statusCode, response.body).toBe(200);
  return (response.json() as { items: Machine[] }).items;
}

/** Registers a user and moves them into `colleague`'s group: a second member of the same firm. */
export async function registerColleague(server: TestServer, email: string, colleague: string, name = 'Luis Martín'): Promise<CookieJar> {
  const jar = await registerUser(server.app, email, name);
  await withDatabase(server, async (db) => {
    const { group_id: groupId } = await db.selectFrom('users').select('group_id').where('email', '=', colleague).executeTakeFirstOrThrow();
    await db.updateTable('users').set({ group_id: groupId }).where('email', '=', email).execute();
  });
  return jar;
}
