import { SqliteDialect, SqliteDriver, type CompiledQuery, type DatabaseConnection, type SqliteDatabase } from 'kysely';

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
  const direct = directReaders.get(db);
  if (!direct || direct.driver.users > 0) return undefined;
  const statement = direct.database.prepare(query.sql);
  return statement.reader ? (statement.all(query.parameters) as Row[]) : undefined;
}
