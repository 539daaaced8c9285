import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { connectDatabase } from './connect.ts';
import type { Database } from './schema.ts';
import { preparedQuery, type SlotOf } from './prepared.ts';

const sqlite = connectDatabase({ kind: 'sqlite', file: ':memory:' });
// Compiling needs the dialect only: this pool never connects.
const postgres = new Kysely<Database>({ dialect: new PostgresDialect({ pool: new pg.Pool() }) });

afterAll(async () => {
  await sqlite.destroy();
  await postgres.destroy();
});

type Values = { email: string; limit: number };

function emailQuery() {
  const build = vi.fn((db: Kysely<Database>, ordered: boolean, slot: SlotOf<Values>) => {
    const query = db.selectFrom('users').select(['id', 'email']).where('email', '=', slot('email')).where('name', '!=', '').limit(slot('limit'));
    return ordered ? query.orderBy('email') : query;
  });
  return { build, query: preparedQuery((ordered: boolean) => String(ordered), build) };
}

describe('preparedQuery', () => {
  it("fills each call's own values into the SQL it compiled once, leaving the query's own constants alone", () => {
    const { build, query } = emailQuery();
    const ana = query(sqlite, false, { email: 'ana@asesoria.es', limit: 12 });
    const luis = query(sqlite, false, { email: 'luis@otra.es', limit: 3 });
    expect(build).toHaveBeenCalledTimes(1);
    expect(luis.sql).toBe(ana.sql);
    expect(ana.sql).toBe('select "id", "email" from "users" where "email" = ? and "name" != ? limit ?');
    expect(ana.parameters).toEqual(['ana@asesoria.es', '', 12]);
    expect(luis.parameters).toEqual(['luis@otra.es', '', 3]);
  });

  it('compiles each shape, and each database dialect, apart', () => {
    const { build, query } = emailQuery();
    const plain = query(sqlite, false, { email: 'ana@asesoria.es', limit: 12 });
    const ordered = query(sqlite, true, { email: 'ana@asesoria.es', limit: 12 });
    const onPostgres = query(postgres, true, { email: 'ana@asesoria.es', limit: 12 });
    expect(build).toHaveBeenCalledTimes(3);
    expect(ordered.sql).toBe(`${plain.sql.replace(' limit ?', '')} order by "email" limit ?`);
    expect(onPostgres.sql).toBe('select "id", "email" from "users" where "email" = $1 and "name" != $2 order by "email" limit $3');
    expect(onPostgres.parameters).toEqual(['ana@asesoria.es', '', 12]);
  });

  it("fills a list's items into the slots the shape made for them, in order", () => {
    const build = vi.fn((db: Kysely<Database>, count: number, slot: SlotOf<{ emails: string[]; active: number }>) =>
      db.selectFrom('users').select('id').where('email', 'in', Array.from({ length: count }, (_, index) => slot('emails', index))).where('disabled_at', 'is', null).limit(slot('active')),
    );
    const query = preparedQuery((count: number) => count, build);
    const two = query(sqlite, 2, { emails: ['ana@asesoria.es', 'luis@otra.es'], active: 1 });
    const three = query(sqlite, 3, { emails: ['c@x.es', 'b@x.es', 'a@x.es'], active: 4 });
    expect(two.sql).toBe('select "id" from "users" where "email" in (?, ?) and "disabled_at" is null limit ?');
    expect(two.parameters).toEqual(['ana@asesoria.es', 'luis@otra.es', 1]);
    expect(three.parameters).toEqual(['c@x.es', 'b@x.es', 'a@x.es', 4]);
    expect(query(sqlite, 2, { emails: ['x@x.es', 'y@x.es'], active: 0 }).parameters).toEqual(['x@x.es', 'y@x.es', 0]);
    expect(build).toHaveBeenCalledTimes(2);
  });

  it('runs on the database with the values given', async () => {
    const db = connectDatabase({ kind: 'sqlite', file: ':memory:' });
    try {
      await db.schema.createTable('users').addColumn('id', 'text').addColumn('email', 'text').addColumn('name', 'text').execute();
      await db.insertInto('users').values([{ id: '1', email: 'ana@asesoria.es', name: 'Ana' }, { id: '2', email: 'luis@otra.es', name: 'Luis' }] as never).execute();
      const { query } = emailQuery();
      expect((await db.executeQuery(query(db, true, { email: 'luis@otra.es', limit: 5 }))).rows).toEqual([{ id: '2', email: 'luis@otra.es' }]);
      expect((await db.executeQuery(query(db, true, { email: 'ana@asesoria.es', limit: 5 }))).rows).toEqual([{ id: '1', email: 'ana@asesoria.es' }]);
      expect((await db.executeQuery(query(db, true, { email: 'ana@asesoria.es', limit: 0 }))).rows).toEqual([]);
    } finally {
      await db.destroy();
    }
  });
});
