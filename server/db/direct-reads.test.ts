import BetterSqlite3 from 'better-sqlite3';
import { Kysely, sql } from 'kysely';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { directReadDialect, readRowsNow } from './direct-reads.ts';
import { withStatementCache } from './statement-cache.ts';

interface TestDatabase {
  notes: { id: number; text: string };
}

let sqlite: BetterSqlite3.Database;
let db: Kysely<TestDatabase>;

async function open() {
  sqlite = new BetterSqlite3(':memory:');
  const { dialect, register } = directReadDialect(withStatementCache(sqlite));
  db = new Kysely<TestDatabase>({ dialect });
  register(db);
  await sql`create table notes (id integer primary key, text text not null)`.execute(db);
  await db.insertInto('notes').values([{ id: 1, text: 'uno' }, { id: 2, text: 'dos' }]).execute();
}

afterEach(async () => {
  await db.destroy();
});

const allNotes = () => db.selectFrom('notes').select(['id', 'text']).orderBy('id').compile();

/** The way callers read: at once where it can, else through Kysely, in turn. */
async function read(runner: Kysely<TestDatabase> = db) {
  const query = allNotes();
  return readRowsNow(runner, query) ?? (await runner.executeQuery(query)).rows;
}

/** Resolves after the promises already queued have run their course (Kysely's mutex takes a few turns). */
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('readRowsNow', () => {
  it('gives at once the rows executeQuery gives when the connection is free', async () => {
    await open();
    const expected = (await db.executeQuery(allNotes())).rows;
    expect(expected).toEqual([{ id: 1, text: 'uno' }, { id: 2, text: 'dos' }]);
    expect(readRowsNow(db, allNotes())).toEqual(expected);
  });

  it('gives nothing while a transaction is open; the read then waits and sees the commit, never the write before it', async () => {
    await open();
    let commit!: () => void;
    const mayCommit = new Promise<void>((resolve) => (commit = resolve));
    const transaction = db.transaction().execute(async (trx) => {
      await trx.insertInto('notes').values({ id: 3, text: 'tres' }).execute();
      await mayCommit;
    });
    await settle();
    expect(sqlite.inTransaction).toBe(true);
    expect(readRowsNow(db, allNotes())).toBeUndefined();

    let ids: number[] | undefined;
    const reading = read().then((rows) => (ids = rows.map((note) => note.id)));
    await settle();
    expect(ids).toBeUndefined();
    commit();
    await transaction;
    await reading;
    expect(ids).toEqual([1, 2, 3]);
  });

  it('a read waiting for a transaction that is rolled back sees nothing of it', async () => {
    await open();
    let fail!: () => void;
    const mayFail = new Promise<void>((resolve) => (fail = resolve));
    const transaction = db.transaction().execute(async (trx) => {
      await trx.insertInto('notes').values({ id: 3, text: 'tres' }).execute();
      await mayFail;
      throw new Error('cancelada');
    });
    await settle();
    const reading = read();
    fail();
    await expect(transaction).rejects.toThrow('cancelada');
    expect((await reading).map((note) => note.id)).toEqual([1, 2]);
  });

  it('gives nothing while a stream holds the connection (better-sqlite3 refuses a statement beside an open iterator)', async () => {
    await open();
    const stream = db.selectFrom('notes').select('id').orderBy('id').stream()[Symbol.asyncIterator]();
    expect((await stream.next()).value).toEqual({ id: 1 });
    expect(readRowsNow(db, allNotes())).toBeUndefined();
    expect((await stream.next()).value).toEqual({ id: 2 });
    expect((await stream.next()).done).toBe(true);
    expect(readRowsNow(db, allNotes())).toHaveLength(2);
  });

  it('gives nothing for a transaction (it has its connection), which then reads its own writes through Kysely', async () => {
    await open();
    await db.transaction().execute(async (trx) => {
      await trx.insertInto('notes').values({ id: 3, text: 'tres' }).execute();
      expect(readRowsNow(trx, allNotes())).toBeUndefined();
      expect((await read(trx)).map((note) => note.id)).toEqual([1, 2, 3]);
    });
  });

  it('gives nothing for a Kysely instance it was not given (PostgreSQL, another database), nor for a write, which it leaves unrun', async () => {
    await open();
    const other = new Kysely<TestDatabase>({ dialect: directReadDialect(withStatementCache(new BetterSqlite3(':memory:'))).dialect });
    await sql`create table notes (id integer primary key, text text not null)`.execute(other);
    expect(readRowsNow(other, other.selectFrom('notes').selectAll().compile())).toBeUndefined();
    await other.destroy();

    const prepare = vi.spyOn(sqlite, 'prepare');
    expect(readRowsNow(db, db.insertInto('notes').values({ id: 9, text: 'nueve' }).compile())).toBeUndefined();
    expect(prepare).toHaveBeenCalledTimes(1);
    expect(readRowsNow(db, allNotes())).toHaveLength(2);
  });
});
