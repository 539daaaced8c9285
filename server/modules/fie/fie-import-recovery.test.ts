/**
 * Issue 39: an import a killed server left half written (6), and a FIE that carries no entry (12).
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { encodeFieFile } from '#shared/fie/encode.ts';
import { buildApp } from '../../app.ts';
import { connectDatabase } from '../../db/connect.ts';
import type { Database } from '../../db/schema.ts';
import { CookieJar, registerUser, startTestServer, type TestServer } from '../../test/harness.ts';
import { IMPORT_LEASE_MS, ImportLeases } from './import-leases.ts';
import { FIE_NO_ENTRIES_REASON } from './messages.ts';
import { FIE_TABLES, NOW, fileA, list, upload } from './test-support.ts';
import { FIE_UPLOADS_ROOT } from './upload-folders.ts';

/** The id of a process that has ended (as a SIGKILLed server's). */
function endedPid(): number {
  const child = spawnSync(process.execPath, ['-e', '']);
  return child.pid as number;
}

const sha256 = (data: string) => createHash('sha256').update(Buffer.from(data, 'latin1')).digest('hex');

let server: TestServer;
let ana: CookieJar;
let db: Kysely<Database>;
let restarted: FastifyInstance | undefined;
beforeEach(async () => {
  server = await startTestServer({ now: () => NOW, scheduleRunnerIntervalMs: 0, fileRetention: { sweepIntervalMs: 0 } });
  ana = await registerUser(server.app, 'ana@asesoria.es', 'Ana Pérez');
  db = connectDatabase(server.database);
});
afterEach(async () => {
  await restarted?.close();
  restarted = undefined;
  await db.destroy();
  await server.close();
});

describe('a FIE import killed mid-way (issue 39, 6)', () => {
  it('after a restart the same file is accepted at once, and the killed upload folder is removed', async () => {
    const { group_id: groupId } = await db.selectFrom('users').select('group_id').where('email', '=', 'ana@asesoria.es').executeTakeFirstOrThrow();
    // What a server SIGKILLed mid-import leaves: the document still importing (not listed), its lease, its upload's folder.
    const killed = endedPid();
    const at = NOW.toISOString();
    await db
      .insertInto('fie_documents')
      .values({ id: 'medio', group_id: groupId, content_hash: sha256(fileA), file_name: 'fie-enero.txt', source: 'text', version: 'FIE4', registry_date: null, date: '2025-02-10', entry_count: 0, created_by: null, created_at: at, importing: 1 })
      .execute();
    await db.insertInto('fie_imports').values({ document_id: 'medio', owner: `${killed}:arranque:${hostname()}`, heartbeat_at: at }).execute();
    const folder = join(FIE_UPLOADS_ROOT, `${killed}-matado`);
    await mkdir(folder, { recursive: true });
    await writeFile(join(folder, '0'), fileA, 'latin1');
    expect(await list(ana)).toEqual([]);

    // The server starts again on the same database.
    await server.app.close();
    restarted = await buildApp({
      database: server.database,
      webRoot: join(server.dir, 'no-web-build'),
      storageDir: join(server.dir, 'storage'),
      publicUrl: 'http://app.test',
      cookieSecure: false,
      allowedOrigins: [],
      logStream: { write: () => undefined },
      now: () => NOW,
      scheduleRunnerIntervalMs: 0,
      fileRetention: { sweepIntervalMs: 0 },
    });
    expect(existsSync(folder)).toBe(false);
    expect(server.countTables(['fie_documents', 'fie_imports'])).toEqual({ fie_documents: 0, fie_imports: 0 });

    const jar = new CookieJar(restarted);
    for (const [name, cookie] of ana.cookies) jar.cookies.set(name, cookie);
    const again = await upload(jar, [{ name: 'fie-enero.txt', data: fileA }]);
    expect(again.results[0]).toMatchObject({ status: 'processed', entries: 3 });
    expect((await list(jar)).map((document) => [document.fileName, document.entryCount])).toEqual([['fie-enero.txt', 3]]);
    expect(server.countTables(['fie_imports'])).toEqual({ fie_imports: 0 });
  });

  it('the duplicate check sweeps an abandoned import first, without a restart', async () => {
    const { group_id: groupId } = await db.selectFrom('users').select('group_id').where('email', '=', 'ana@asesoria.es').executeTakeFirstOrThrow();
    await db
      .insertInto('fie_documents')
      .values({ id: 'sin-dueño', group_id: groupId, content_hash: sha256(fileA), file_name: 'fie-enero.txt', source: 'text', version: 'FIE4', registry_date: null, date: '2025-02-10', entry_count: 0, created_by: null, created_at: NOW.toISOString(), importing: 1 })
      .execute();
    await db.insertInto('fie_imports').values({ document_id: 'sin-dueño', owner: `${endedPid()}:arranque:${hostname()}`, heartbeat_at: NOW.toISOString() }).execute();
    // This process's own folder that no request uses any more is removed after the next upload; a running process's is kept.
    const ownStale = join(FIE_UPLOADS_ROOT, `${process.pid}-olvidada`);
    const othersLive = join(FIE_UPLOADS_ROOT, `${process.ppid}-en-uso`);
    await mkdir(ownStale, { recursive: true });
    await mkdir(othersLive, { recursive: true });
    try {
      const outcome = await upload(ana, [{ name: 'fie-enero.txt', data: fileA }]);
      expect(outcome.results[0]).toMatchObject({ status: 'processed', entries: 3 });
      expect([existsSync(ownStale), existsSync(othersLive)]).toEqual([false, true]);
    } finally {
      const { rm } = await import('node:fs/promises');
      await rm(othersLive, { recursive: true, force: true });
    }
  });

  it('tells a live import from an abandoned one', () => {
    let now = NOW;
    const clock = () => now;
    const row = (owner: string | null, heartbeatAt: string | null = NOW.toISOString()) => ({ id: 'doc', group_id: 'g', owner, heartbeat_at: heartbeatAt });
    const shared = new ImportLeases(db, clock, false);
    const other = `${process.ppid}:otro:otra-maquina`;
    expect(shared.isAbandoned(row(null, null))).toBe(true);
    expect(shared.isAbandoned(row(shared.owner))).toBe(true);
    shared.begin('doc');
    expect(shared.isAbandoned(row(shared.owner))).toBe(false);
    shared.end('doc');
    // PostgreSQL: another machine's import lives while it renews its lease; a process of this machine that is gone is abandoned at once.
    expect(shared.isAbandoned(row(other))).toBe(false);
    expect(shared.isAbandoned(row(`${process.ppid}:otro:${hostname()}`))).toBe(false);
    expect(shared.isAbandoned(row(`${endedPid()}:otro:${hostname()}`))).toBe(true);
    now = new Date(NOW.getTime() + IMPORT_LEASE_MS + 1);
    expect(shared.isAbandoned(row(other))).toBe(true);
    // SQLite: one server process, so any other owner's import was left by a process that stopped.
    now = NOW;
    expect(new ImportLeases(db, clock, true).isAbandoned(row(other))).toBe(true);
  });
});

describe('a FIE with no entries (issue 39, 12)', () => {
  const header = encodeFieFile({ date: '20250115', entries: [] }).split('\n')[0] as string;

  it.each([
    ['a valid header and 8 MB of one line', `${header}\n${'X'.repeat(8 * 1024 * 1024)}\n`],
    ['a header and its footer only', encodeFieFile({ date: '20250115', entries: [] })],
  ])('%s: refused with the failure message, nothing written', async (_name, data) => {
    const outcome = await upload(ana, [{ name: 'vacio.fie', data }]);
    expect(outcome).toMatchObject({ processed: 0, failed: 1, alreadyAdded: 0 });
    expect(outcome.results[0]).toMatchObject({ status: 'failed', documentId: null, entries: 0, reason: FIE_NO_ENTRIES_REASON });
    expect(server.countTables([...FIE_TABLES, 'fie_imports'])).toEqual({ fie_documents: 0, fie_entries: 0, fie_document_entries: 0, fie_imports: 0 });
    expect(await list(ana)).toEqual([]);
    expect(server.logLines().filter((line) => line.msg === 'Error al procesar un FIE [texto]').map((line) => line.reason)).toEqual([FIE_NO_ENTRIES_REASON]);
  });
});
