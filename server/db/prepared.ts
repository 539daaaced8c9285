import { sql, type Compilable, type CompiledQuery, type Kysely, type RawBuilder } from 'kysely';

/** Where one of the request's values goes in a query compiled ahead: the name of that value. */
class Slot {
  constructor(readonly name: string) {}
}

/** Stands for the request's value of `name` while a prepared query is being built. */
export type SlotOf<Values> = <Name extends keyof Values & string>(name: Name) => RawBuilder<Values[Name]>;

/**
 * A query built with Kysely, compiled once for each shape it takes (a sort order, the filters
 * present) and database it runs on (the dialect decides the SQL), then only given each request's
 * values. Kysely otherwise builds and compiles a query anew on every call, and for a page of the
 * run history that cost the server more CPU than SQLite spent answering it. The history's queries
 * and the session lookup every signed-in request makes (auth/sessions.ts) are written this way.
 * `build` writes the query with `slot('name')` wherever a value of the request goes; `shapeKey`
 * names everything else `build` reads from the shape, so equal keys give equal SQL.
 */
export function preparedQuery<DB, Shape, Values extends Record<string, unknown>, Row>(
  shapeKey: (shape: Shape) => string,
  build: (db: Kysely<DB>, shape: Shape, slot: SlotOf<Values>) => Compilable<Row>,
): (db: Kysely<DB>, shape: Shape, values: Values) => CompiledQuery<Row> {
  const compiledFor = new WeakMap<Kysely<DB>, Map<string, CompiledQuery<Row>>>();
  const slot = ((name: string) => sql`${new Slot(name)}`) as SlotOf<Values>;
  return (db, shape, values) => {
    let shapes = compiledFor.get(db);
    if (!shapes) {
      shapes = new Map();
      compiledFor.set(db, shapes);
    }
    const key = shapeKey(shape);
    let compiled = shapes.get(key);
    if (!compiled) {
      compiled = build(db, shape, slot).compile();
      shapes.set(key, compiled);
    }
    const parameters = compiled.parameters.map((parameter) => (parameter instanceof Slot ? values[parameter.name] : parameter));
    // Written out rather than spread: a page of the history makes four of these.
    return { query: compiled.query, queryId: compiled.queryId, sql: compiled.sql, parameters };
  };
}
