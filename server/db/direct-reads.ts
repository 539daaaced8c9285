import { SqliteDialect, SqliteDriver, type CompiledQuery, type DatabaseConnection, type Kysely, type SqliteDatabase, type SqliteStatement } from 'kysely';

/**
 * Kysely's SQLite driver, counting who holds or waits for its one connection. With nobody there, no
 * transaction is open and no stream is being read, so a read may run at once instead of in turn.
 */
class CountingSqliteDriver extends SqliteDriver {
  /** Callers between acquireConnection and releaseConnection, the one holding it and those waiting. */
  users = 0;

  override async acquireConnection(): Promise<DatabaseConnection> {
    this.users++;
    try {
      return await super.acquireConnection();
    } catch (error) {
      this.users--;
      throw error;
    }
  }

  override async releaseConnection(): Promise<void> {
    this.users--;
    await super.releaseConnection();
  }
}

/** SqliteDialect with the counting driver, which the direct reads of the same database consult. */
class CountingSqliteDialect extends SqliteDialect {
  constructor(private readonly driver: CountingSqliteDriver) {
    super({ database: () => Promise.reject(new Error('unused: createDriver is overridden')) });
  }

  override createDriver(): CountingSqliteDriver {
    return this.driver;
  }
}

interface DirectReader {
  database: SqliteDatabase;
  driver: CountingSqliteDriver;
}

/** Keyed by the Kysely instance, not its transactions, which have their own connection. */
const directReaders = new WeakMap<object, DirectReader>();

/**
 * A SQLite dialect whose database can also be read directly (readRowsNow), and the function that
 * registers the Kysely instance made with it. Kysely must have no plugins: a direct read returns
 * the rows as better-sqlite3 gives them, which executeQuery only does without plugins.
 */
export function directReadDialect(database: SqliteDatabase): { dialect: SqliteDialect; register: (db: object) => void } {
  const driver = new CountingSqliteDriver({ database });
  return { dialect: new CountingSqliteDialect(driver), register: (db) => directReaders.set(db, { database, driver }) };
}

/**
 * The rows of a read (a compiled select) when they can be had at once, else undefined: on SQLite
 * with the connection free (no transaction open, no stream read, no query waiting) the statement
 * runs now. executeQuery would take the same connection through Kysely's mutex and its promises,
 * ~3 µs per query, and every await on the way costs a request ~1 µs more under load: a history
 * page (four queries) spent more on them than its answer took to write. SQLite runs a statement
 * synchronously, so nothing can come in between. In a transaction (a Kysely `trx` is never
 * registered) and on PostgreSQL it is undefined. Written at a call site as
 * `readRowsNow(db, query) ?? (await db.executeQuery(query)).rows`, which awaits only when it must.
 */
export function readRowsNow<Row>(db: object, query: CompiledQuery<Row>): Row[] | undefined {
  const direct = freeReader(db);
  if (!direct) return undefined;
  const statement = direct.database.prepare(query.sql);
  return statement.reader ? (statement.all(query.parameters) as Row[]) : undefined;
}

/** The direct reader of a database whose one connection nobody holds or waits for, else undefined. */
function freeReader(db: object): DirectReader | undefined {
  const direct = directReaders.get(db);
  return direct && direct.driver.users === 0 ? direct : undefined;
}

/** What runs a query in turn: a Kysely instance or one of its transactions. */
type QueryRunner = Pick<Kysely<unknown>, 'executeQuery'>;

/** What a read plan yields: the query to read; it is given back that query's rows. */
type PlanStep = CompiledQuery<unknown>;

/**
 * A read plan: a generator that yields each query it reads (with `yield* rowsOf(query)`) and returns
 * what it makes of their rows. A later query may depend on an earlier one's rows.
 */
export type ReadPlan<T> = Generator<PlanStep, T, unknown[]>;

/** Inside a read plan, `yield* rowsOf(query)` is the query's rows. */
export function* rowsOf<Row>(query: CompiledQuery<Row>): Generator<PlanStep, Row[], unknown[]> {
  return (yield query) as Row[];
}

/**
 * Runs a read plan's queries in one snapshot where it can: on SQLite with the connection free, all at
 * once inside one read transaction, so its count and its page come from the same state of the database,
 * and SQLite takes and drops its read locks once instead of once per statement (~10 % of a history
 * page's four reads). Elsewhere (PostgreSQL, a transaction open, a stream being read) each query is read
 * in turn through Kysely, as readRowsNow's callers do. Only reads: a statement that writes throws.
 */
export function readPlan<T>(db: QueryRunner, plan: () => ReadPlan<T>): T | Promise<T> {
  const direct = freeReader(db);
  return direct ? readAtOnce(direct, plan()) : readInTurn(db, plan());
}

function readAtOnce<T>(direct: DirectReader, plan: ReadPlan<T>): T {
  const { database } = direct;
  database.prepare('begin').run([]);
  let step: IteratorResult<PlanStep, T>;
  try {
    step = plan.next();
    while (!step.done) step = plan.next(allRows(database.prepare(step.value.sql), step.value));
  } catch (error) {
    // SQLite may have ended the transaction itself on the error: the rollback is then refused, and the error that counts is the first.
    try {
      database.prepare('rollback').run([]);
    } catch {
      // no transaction left to end
    }
    throw error;
  }
  database.prepare('commit').run([]);
  return step.value;
}

function allRows(statement: SqliteStatement, query: PlanStep): unknown[] {
  if (!statement.reader) throw new Error(`A read plan only reads: ${query.sql.slice(0, 80)}`);
  return statement.all(query.parameters) as unknown[];
}

async function readInTurn<T>(db: QueryRunner, plan: ReadPlan<T>): Promise<T> {
  let step = plan.next();
  while (!step.done) step = plan.next((await db.executeQuery(step.value)).rows);
  return step.value;
}
