import BetterSqlite3 from 'better-sqlite3';
import { Kysely, sql } from 'kysely';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { directReadDialect, readPlan, readRowsNow, rowsOf, type ReadPlan } from './direct-reads.ts';
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

/** A transaction that has inserted note 3 and holds the connection until `commit` is called. */
function insertThreeAndWait(): { commit: () => void; transaction: Promise<void> } {
  let commit!: () => void;
  const mayCommit = new Promise<void>((resolve) => (commit = resolve));
  const transaction = db.transaction().execute(async (trx) => {
    await trx.insertInto('notes').values({ id: 3, text: 'tres' }).execute();
    await mayCommit;
  });
  return { commit, transaction };
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
    const { commit, transaction } = insertThreeAndWait();
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

/** Two reads, the second built from the first's rows, and whether SQLite was inside a transaction at each. */
function* countThenNewest(runner: Kysely<TestDatabase>, seen: boolean[]): ReadPlan<{ total: number; newest: string }> {
  const [count] = yield* rowsOf(runner.selectFrom('notes').select((eb) => eb.fn.countAll<number>().as('total')).compile());
  seen.push(sqlite.inTransaction);
  const total = Number(count?.total ?? 0);
  const [newest] = yield* rowsOf(runner.selectFrom('notes').select('text').where('id', '=', total).compile());
  seen.push(sqlite.inTransaction);
  return { total, newest: newest?.text ?? '' };
}

describe('readPlan', () => {
  it('reads a plan at once inside one read transaction, a later query built from an earlier one, and ends the transaction', async () => {
    await open();
    const seen: boolean[] = [];
    const result = readPlan(db, () => countThenNewest(db, seen));
    expect(result).toEqual({ total: 2, newest: 'dos' });
    expect(seen).toEqual([true, true]);
    expect(sqlite.inTransaction).toBe(false);
  });

  it('reads in turn, through Kysely, while a transaction is open, and then sees its commit whole', async () => {
    await open();
    const { commit, transaction } = insertThreeAndWait();
    await settle();
    const seen: boolean[] = [];
    const reading = readPlan(db, () => countThenNewest(db, seen));
    expect(reading).toBeInstanceOf(Promise);
    commit();
    await transaction;
    expect(await reading).toEqual({ total: 3, newest: 'tres' });
    // Read in turn: Kysely's own statements, outside any transaction.
    expect(seen).toEqual([false, false]);
  });

  it('reads in turn for a transaction (its own writes included) and for a Kysely instance it was not given', async () => {
    await open();
    await db.transaction().execute(async (trx) => {
      await trx.insertInto('notes').values({ id: 3, text: 'tres' }).execute();
      expect(await readPlan(trx, () => countThenNewest(trx, []))).toEqual({ total: 3, newest: 'tres' });
    });
    const plain = new Kysely<TestDatabase>({ dialect: directReadDialect(withStatementCache(new BetterSqlite3(':memory:'))).dialect });
    await sql`create table notes (id integer primary key, text text not null)`.execute(plain);
    const reading = readPlan(plain, () => countThenNewest(plain, []));
    expect(reading).toBeInstanceOf(Promise);
    expect(await reading).toEqual({ total: 0, newest: '' });
    await plain.destroy();
  });

  it('refuses a write without running it, and a failing plan leaves no transaction open', async () => {
    await open();
    function* writes(): ReadPlan<void> {
      yield* rowsOf(db.insertInto('notes').values({ id: 9, text: 'nueve' }).compile());
    }
    expect(() => readPlan(db, writes)).toThrow('A read plan only reads');
    expect(sqlite.inTransaction).toBe(false);
    function* fails(): ReadPlan<void> {
      yield* rowsOf(allNotes());
      throw new Error('plan roto');
    }
    expect(() => readPlan(db, fails)).toThrow('plan roto');
    expect(sqlite.inTransaction).toBe(false);
    expect(await read()).toHaveLength(2);
  });
});
