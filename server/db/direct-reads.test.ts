import BetterSqlite3 from 'better-sqlite3';
import { Kysely, sql } from 'kysely';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { directReadDialect, readRows } from './direct-reads.ts';
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

/** Resolves after the promises already queued have run their course (Kysely's mutex takes a few turns). */
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('readRows', () => {
  it('gives the rows executeQuery gives, without going through the driver when the connection is free', async () => {
    await open();
    const expected = (await db.executeQuery(allNotes())).rows;
    const executeQuery = vi.spyOn(db, 'executeQuery');
    expect(await readRows(db, allNotes())).toEqual(expected);
    expect(expected).toEqual([{ id: 1, text: 'uno' }, { id: 2, text: 'dos' }]);
    expect(executeQuery).not.toHaveBeenCalled();
  });

  it('never sees what an open transaction has written: it waits for the connection and reads after the commit', async () => {
    await open();
    let commit!: () => void;
    const mayCommit = new Promise<void>((resolve) => (commit = resolve));
    const transaction = db.transaction().execute(async (trx) => {
      await trx.insertInto('notes').values({ id: 3, text: 'tres' }).execute();
      await mayCommit;
    });
    await settle();
    expect(sqlite.inTransaction).toBe(true);

    let read: Array<{ id: number }> | undefined;
    const reading = readRows(db, allNotes()).then((rows) => (read = rows));
    await settle();
    expect(read).toBeUndefined();

    commit();
    await transaction;
    await reading;
    expect(read?.map((note) => note.id)).toEqual([1, 2, 3]);
  });

  it('reads nothing of a transaction that is rolled back', async () => {
    await open();
    let fail!: () => void;
    const mayFail = new Promise<void>((resolve) => (fail = resolve));
    const transaction = db.transaction().execute(async (trx) => {
      await trx.insertInto('notes').values({ id: 3, text: 'tres' }).execute();
      await mayFail;
      throw new Error('cancelada');
    });
    await settle();
    const reading = readRows(db, allNotes());
    fail();
    await expect(transaction).rejects.toThrow('cancelada');
    expect((await reading).map((note) => note.id)).toEqual([1, 2]);
  });

  it('waits while a stream holds the connection (better-sqlite3 refuses a statement beside an open iterator)', async () => {
    await open();
    const stream = db.selectFrom('notes').select('id').orderBy('id').stream()[Symbol.asyncIterator]();
    expect((await stream.next()).value).toEqual({ id: 1 });
    let read: unknown[] | undefined;
    const reading = readRows(db, allNotes()).then((rows) => (read = rows));
    await settle();
    expect(read).toBeUndefined();
    expect((await stream.next()).value).toEqual({ id: 2 });
    expect((await stream.next()).done).toBe(true);
    await reading;
    expect(read).toHaveLength(2);
  });

  it('inside a transaction, reads through the transaction, and sees its own writes', async () => {
    await open();
    await db.transaction().execute(async (trx) => {
      await trx.insertInto('notes').values({ id: 3, text: 'tres' }).execute();
      expect((await readRows(trx, allNotes())).map((note) => note.id)).toEqual([1, 2, 3]);
    });
  });

  it('a Kysely instance it was not given (PostgreSQL, another database) goes through executeQuery', async () => {
    await open();
    const other = new Kysely<TestDatabase>({ dialect: directReadDialect(withStatementCache(new BetterSqlite3(':memory:'))).dialect });
    await sql`create table notes (id integer primary key, text text not null)`.execute(other);
    const executeQuery = vi.spyOn(other, 'executeQuery');
    expect(await readRows(other, other.selectFrom('notes').selectAll().compile())).toEqual([]);
    expect(executeQuery).toHaveBeenCalledTimes(1);
    await other.destroy();
  });
});
