import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { connectDatabase } from './connect.ts';

let dir: string | undefined;
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

describe('connectDatabase (SQLite)', () => {
  // better-sqlite3's SQLite is built with SQLITE_DEFAULT_WAL_SYNCHRONOUS=1: a file that is already
  // in WAL mode (every restart of the server) opens with synchronous=NORMAL unless we ask for FULL.
  it.each(['a new file', 'a restart on an existing WAL file'])('promises durable commits on %s: WAL, synchronous=FULL, foreign keys on', async (when) => {
    dir = await mkdtemp(join(tmpdir(), 'autoasesor-connect-'));
    const file = join(dir, 'server.sqlite');
    if (when !== 'a new file') await connectDatabase({ kind: 'sqlite', file }).destroy();
    const db = connectDatabase({ kind: 'sqlite', file });
    try {
      const pragma = async (name: string) => Object.values((await sql.raw(`pragma ${name}`).execute(db)).rows[0] as object)[0];
      expect(await pragma('journal_mode')).toBe('wal');
      expect(await pragma('synchronous')).toBe(2); // 0 OFF, 1 NORMAL, 2 FULL, 3 EXTRA
      expect(await pragma('foreign_keys')).toBe(1);
    } finally {
      await db.destroy();
    }
  });
});
