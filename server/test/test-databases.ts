import { execFileSync } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { copyFile, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import pg from 'pg';
import type { DatabaseConfig } from '../db/connect.ts';
import type { Database } from '../db/schema.ts';

/*
 * The databases test servers run on. Each server gets a copy of one a server has started on once, made
 * per test process, then emptied of rows: the tables (migrations) and pg-boss's schema are there, the
 * data is not, so each server seeds its own catalogue (a test may offer other flows) as on a fresh
 * database, without running the migrations again. On PostgreSQL a database a closed server leaves is
 * emptied the same way and handed to the next server of the same process: creating and dropping a
 * database per test cost more than the tests themselves.
 */

export interface TestDatabase {
  config: DatabaseConfig;
  countRows: (table: keyof Database) => number;
  /** Each table's row count, in one query (on PostgreSQL one psql call instead of one per table). */
  countTables: (tables: readonly (keyof Database)[]) => number[];
  /** Opens the reader once the app has migrated. */
  open: () => void;
  /** Gives the database up once its server has closed. */
  release: () => Promise<void>;
}

/** Starts a server on the database and closes it: what that leaves behind is the template. */
export type StartOnce = (database: DatabaseConfig) => Promise<void>;

let sqliteTemplate: Promise<string> | undefined;

/** A SQLite file for one server, copied from this process's template. */
export async function sqliteTestDatabase(dir: string, startOnce: StartOnce): Promise<TestDatabase> {
  sqliteTemplate ??= (async () => {
    const template = join(await mkdtemp(join(tmpdir(), 'autoasesor-sqlite-template-')), 'template.sqlite');
    // Closing the server's last connection checkpoints the WAL into the file: the copy is the whole database.
    await startOnce({ kind: 'sqlite', file: template });
    emptySqlite(template);
    return template;
  })();
  const file = join(dir, 'test.sqlite');
  await copyFile(await sqliteTemplate, file);
  let reader: SqliteDatabase.Database | undefined;
  return {
    config: { kind: 'sqlite', file },
    countRows: (table) => (reader?.prepare(`select count(*) as n from ${table}`).get() as { n: number }).n,
    countTables: (tables) => tables.map((table) => (reader?.prepare(`select count(*) as n from ${table}`).get() as { n: number }).n),
    open: () => void (reader = new SqliteDatabase(file, { readonly: true })),
    release: async () => void reader?.close(),
  };
}

/** Deletes every row but the migrator's (foreign keys are off on a new SQLite connection). */
function emptySqlite(file: string): void {
  const db = new SqliteDatabase(file);
  try {
    const tables = db.prepare("select name from sqlite_master where type = 'table' and name not like 'sqlite_%' and name not like 'kysely_migration%'").all() as { name: string }[];
    db.transaction(() => {
      for (const { name } of tables) db.prepare(`delete from "${name}"`).run();
    })();
  } finally {
    db.close();
  }
}

/** The migrations as they are on disk: a template made from other migrations is not reused. */
function migrationsDigest(): string {
  const folder = new URL('../db/migrations/', import.meta.url);
  // The version of how templates are made here: a change to that makes a new one too.
  const hash = createHash('sha256').update('template-emptied-1');
  for (const name of readdirSync(folder).sort()) hash.update(name).update(readFileSync(new URL(name, folder)));
  return hash.digest('hex').slice(0, 16);
}

/** The URL of database `name` on the server of `url`. */
export function withDatabase(url: string, name: string): string {
  const scoped = new URL(url);
  scoped.pathname = `/${name}`;
  return scoped.toString();
}

/**
 * Drops a test database, once its servers have closed. An autovacuum worker may be in it: it belongs to
 * the superuser, so the forced drop may not end it (42501) and the database stays in use (55006). It
 * finishes within moments: retry.
 */
export async function dropDatabase(client: pg.Client, name: string): Promise<void> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      await client.query(`drop database if exists ${name} with (force)`);
      return;
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (attempt >= 40 || (code !== '42501' && code !== '55006')) throw error;
      await new Promise((done) => setTimeout(done, 250));
    }
  }
}

/** One administrative connection per test process, kept open for its life. */
let adminClient: Promise<pg.Client> | undefined;

function admin(url: string): Promise<pg.Client> {
  return (adminClient ??= (async () => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    return client;
  })());
}

let postgresTemplate: Promise<string> | undefined;

/**
 * The Postgres template, named after the migrations so that a change to them makes a new one; built
 * under an advisory lock and renamed into place when complete, so parallel test processes wait for one
 * build and never copy a half-made one. No one may connect to it: a copy fails while anyone is in the
 * template, autovacuum included.
 */
function templateDatabase(url: string, startOnce: StartOnce): Promise<string> {
  return (postgresTemplate ??= (async () => {
    const client = await admin(url);
    const digest = migrationsDigest();
    const name = `autoasesor_template_${digest}`;
    const lock = Number.parseInt(digest.slice(0, 8), 16);
    await client.query('select pg_advisory_lock($1)', [lock]);
    try {
      const { rowCount } = await client.query('select 1 from pg_database where datname = $1', [name]);
      if (rowCount === 1) return name;
      const building = `${name}_building`;
      await dropDatabase(client, building);
      await client.query(`create database ${building}`);
      await startOnce({ kind: 'postgres', url: withDatabase(url, building) });
      await emptyDatabase(withDatabase(url, building));
      await client.query(`alter database ${building} rename to ${name}`);
      await client.query(`alter database ${name} with allow_connections false`);
      return name;
    } finally {
      await client.query('select pg_advisory_unlock($1)', [lock]);
    }
  })());
}

/** Databases of this process whose servers have closed, emptied for the next one. */
const idleDatabases: string[] = [];

/**
 * The tables emptied between servers, each after every table that references it: all of them but the
 * migrator's (the catalogue too: the next server seeds it again, as on a fresh database), and pg-boss's
 * jobs (its queue definitions stay: a server creates them once). DELETE rather than TRUNCATE: on tables
 * of a few rows it is ten times faster. Read from the first database's layout, once per process.
 */
let deletionOrder: Promise<string[]> | undefined;

async function tablesChildrenFirst(client: pg.Client): Promise<string[]> {
  const { rows: tables } = await client.query<{ name: string }>(
    `select format('%I.%I', schemaname, tablename) as name from pg_tables
      where (schemaname = 'public' and tablename not like 'kysely_migration%') or (schemaname = 'pgboss' and tablename in ('job', 'archive'))`,
  );
  const { rows: references } = await client.query<{ child: string; parent: string }>(
    `select conrelid::regclass::text as child, confrelid::regclass::text as parent from pg_constraint where contype = 'f' and conrelid <> confrelid`,
  );
  const qualified = (name: string) => (name.includes('.') ? name : `public.${name}`);
  const left = new Set(tables.map((table) => table.name));
  const order: string[] = [];
  while (left.size > 0) {
    const ready = [...left].filter((table) => !references.some((reference) => qualified(reference.parent) === table && left.has(qualified(reference.child))));
    if (ready.length === 0) throw new Error(`Las tablas ${[...left].join(', ')} se referencian en círculo: no se pueden vaciar en orden`);
    for (const table of ready) {
      order.push(table);
      left.delete(table);
    }
  }
  return order;
}

async function emptyDatabase(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    deletionOrder ??= tablesChildrenFirst(client);
    const tables = await deletionOrder;
    await client.query(`begin; ${tables.map((table) => `delete from ${table};`).join(' ')} commit;`);
  } finally {
    await client.end();
  }
}

/**
 * A database on the TEST_DATABASE_URL server for one server: an idle one of this process, or a new copy
 * of the template. Not a schema: Kysely's migrator looks for its own tables in every schema of a
 * database, so suites side by side in one database would trip over each other's kysely_migration.
 * Names carry `runId`, so that the run's global teardown (server/test/postgres-teardown.ts) drops them.
 */
export async function postgresTestDatabase(url: string, runId: string, startOnce: StartOnce): Promise<TestDatabase> {
  let name = idleDatabases.pop();
  if (name === undefined) {
    name = `autoasesor_test_${runId}_${randomUUID().replaceAll('-', '').slice(0, 12)}`;
    const template = await templateDatabase(url, startOnce);
    await (await admin(url)).query(`create database ${name} template ${template}`);
  }
  const own = withDatabase(url, name);
  const released = name;
  return {
    config: { kind: 'postgres', url: own },
    // countRows is synchronous (suites call it inline), and pg is not: ask psql, which comes with PostgreSQL.
    countRows: (table) => Number(execFileSync('psql', [own, '-tAXc', `select count(*) from ${table}`], { encoding: 'utf8' }).trim()),
    // A psql start costs ~50 ms: a snapshot of nine tables took nine of them per check.
    countTables: (tables) =>
      execFileSync('psql', [own, '-tAXc', `select ${tables.map((table) => `(select count(*) from ${table})`).join(', ')}`], { encoding: 'utf8' })
        .trim()
        .split('|')
        .map(Number),
    open: () => undefined,
    release: async () => {
      await emptyDatabase(own);
      idleDatabases.push(released);
    },
  };
}

/** Drops the databases a test run made (by its runId), once its test processes have ended. */
export async function dropRunDatabases(url: string, runId: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ datname: string }>('select datname from pg_database where datname like $1', [`autoasesor_test_${runId}_%`]);
    for (const { datname } of rows) await dropDatabase(client, datname);
  } finally {
    await client.end();
  }
}
