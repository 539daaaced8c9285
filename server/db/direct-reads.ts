import { SqliteDialect, SqliteDriver, type CompiledQuery, type DatabaseConnection, type QueryResult, type SqliteDatabase } from 'kysely';

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
 * A SQLite dialect whose database can also be read directly (readRows), and the function that
 * registers the Kysely instance made with it. Kysely must have no plugins: a direct read returns
 * the rows as better-sqlite3 gives them, which executeQuery only does without plugins.
 */
export function directReadDialect(database: SqliteDatabase): { dialect: SqliteDialect; register: (db: object) => void } {
  const driver = new CountingSqliteDriver({ database });
  return { dialect: new CountingSqliteDialect(driver), register: (db) => directReaders.set(db, { database, driver }) };
}

/**
 * The rows of a read (a compiled select), as `db.executeQuery(query)` would give them. On SQLite
 * with the connection free (no transaction open, no stream read, no query waiting) the statement
 * runs at once: executeQuery would take the same connection through Kysely's mutex and its
 * promises, which cost a history page ~3 µs per query, as much as a small query itself. SQLite
 * runs a statement synchronously, so nothing can come in between. Otherwise, in a transaction (a
 * Kysely `trx` is never registered) and on PostgreSQL, it is executeQuery.
 */
/** A Kysely instance or transaction, as readRows uses it. */
interface QueryRunner {
  executeQuery<Row>(query: CompiledQuery<Row>): Promise<QueryResult<Row>>;
}

export async function readRows<Row>(db: QueryRunner, query: CompiledQuery<Row>): Promise<Row[]> {
  const direct = directReaders.get(db);
  if (direct && direct.driver.users === 0) {
    const statement = direct.database.prepare(query.sql);
    if (statement.reader) return statement.all(query.parameters) as Row[];
  }
  return (await db.executeQuery(query)).rows;
}
