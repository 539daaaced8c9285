import BetterSqlite3 from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { withStatementCache } from './statement-cache.ts';

interface TestDatabase {
  notes: { id: number; text: string };
}

let sqlite: BetterSqlite3.Database;
let db: Kysely<TestDatabase>;

async function open(capacity?: number) {
  sqlite = new BetterSqlite3(':memory:');
  const prepare = vi.spyOn(sqlite, 'prepare');
  db = new Kysely<TestDatabase>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite, capacity) }) });
  await sql`create table notes (id integer primary key, text text not null)`.execute(db);
  prepare.mockClear();
  return prepare;
}

afterEach(async () => {
  await db.destroy();
});

const textsOf = async (id: number) => (await db.selectFrom('notes').select('text').where('id', '=', id).execute()).map((row) => row.text);

describe('withStatementCache', () => {
  it('prepares a query once and runs it again with other parameters', async () => {
    const prepare = await open();
    await db.insertInto('notes').values([{ id: 1, text: 'uno' }, { id: 2, text: 'dos' }]).execute();
    prepare.mockClear();

    expect(await textsOf(1)).toEqual(['uno']);
    expect(await textsOf(2)).toEqual(['dos']);
    expect(await textsOf(3)).toEqual([]);
    expect(prepare).toHaveBeenCalledTimes(1);
  });

  it('a reused write still reports what it changed, and a reused read sees the new rows', async () => {
    const prepare = await open();
    for (const id of [1, 2, 3]) {
      const inserted = await db.insertInto('notes').values({ id, text: `nota ${id}` }).executeTakeFirst();
      expect(inserted.insertId).toBe(BigInt(id));
    }
    const updated = await db.updateTable('notes').set({ text: 'cambiada' }).where('id', '>', 1).executeTakeFirst();
    expect(updated.numUpdatedRows).toBe(2n);
    const nothingUpdated = await db.updateTable('notes').set({ text: 'cambiada' }).where('id', '>', 9).executeTakeFirst();
    expect(nothingUpdated.numUpdatedRows).toBe(0n);
    expect(await db.selectFrom('notes').select('text').orderBy('id').execute()).toEqual([{ text: 'nota 1' }, { text: 'cambiada' }, { text: 'cambiada' }]);
    // insert, update, select: three texts, whatever the number of calls.
    expect(prepare).toHaveBeenCalledTimes(3);
  });

  it('a kept `select *` sees a column added after it was prepared (migrations run before and after queries)', async () => {
    await open();
    await db.insertInto('notes').values({ id: 1, text: 'uno' }).execute();
    expect(await db.selectFrom('notes').selectAll().execute()).toEqual([{ id: 1, text: 'uno' }]);
    await sql`alter table notes add column pinned integer not null default 0`.execute(db);
    expect(await db.selectFrom('notes').selectAll().execute()).toEqual([{ id: 1, text: 'uno', pinned: 0 }]);
  });

  it('when full, forgets the oldest statement not asked for since (a hit gets a second chance), and still answers right', async () => {
    const prepare = await open(2);
    await db.insertInto('notes').values({ id: 1, text: 'uno' }).execute(); // insert
    await textsOf(1); // select by id
    await textsOf(1); // a hit: select by id is marked used
    await db.selectFrom('notes').select('id').execute(); // a third text pushes out the insert, the oldest unused
    expect(prepare).toHaveBeenCalledTimes(3);
    await textsOf(1);
    expect(prepare).toHaveBeenCalledTimes(3);
    await db.insertInto('notes').values({ id: 2, text: 'dos' }).execute();
    expect(prepare).toHaveBeenCalledTimes(4);
    expect(await textsOf(2)).toEqual(['dos']);
  });

  it('when every kept statement was asked for again, still makes room: each loses its mark and the oldest goes', async () => {
    const prepare = await open(2);
    await textsOf(1); // select by id
    await db.selectFrom('notes').select('id').execute(); // select ids
    await textsOf(1);
    await db.selectFrom('notes').select('id').execute(); // both marked used
    prepare.mockClear();
    await db.selectFrom('notes').select('text').execute(); // a third: select by id, the oldest, goes
    await db.selectFrom('notes').select('id').execute();
    expect(prepare).toHaveBeenCalledTimes(1);
    await textsOf(1);
    expect(prepare).toHaveBeenCalledTimes(2);
  });

  it('a statement still being iterated is not handed out again: the second caller gets its own', () => {
    const database = new BetterSqlite3(':memory:');
    const cached = withStatementCache(database);
    try {
      database.exec("create table notes (id integer primary key, text text); insert into notes values (1, 'uno'), (2, 'dos')");
      const streaming = cached.prepare('select text from notes order by id');
      const rows = streaming.iterate([]);
      expect(rows.next().value).toEqual({ text: 'uno' });
      expect(cached.prepare('select text from notes order by id').all([])).toEqual([{ text: 'uno' }, { text: 'dos' }]);
      expect(rows.next().value).toEqual({ text: 'dos' });
      rows.return?.();
    } finally {
      cached.close();
    }
  });

  it('closes the database when Kysely is destroyed', async () => {
    await open();
    await textsOf(1);
    await db.destroy();
    expect(sqlite.open).toBe(false);
  });
});
