import { sql, type Compilable, type CompiledQuery, type Kysely, type RawBuilder } from 'kysely';

/** Where one of the request's values goes in a query compiled ahead: the name of that value, and its place when the value is a list. */
class Slot {
  constructor(
    readonly name: string,
    readonly index: number | undefined,
  ) {}

  valueIn(values: Record<string, unknown>): unknown {
    const value = values[this.name];
    return this.index === undefined ? value : (value as readonly unknown[])[this.index];
  }
}

/** The names of the values that are lists. */
type ListName<Values> = { [Name in keyof Values & string]: Values[Name] extends readonly unknown[] ? Name : never }[keyof Values & string];
type ItemOf<List> = List extends readonly (infer Item)[] ? Item : never;

/**
 * Stands for the request's value of `name` while a prepared query is being built; with an index, for
 * that item of a list (an `in (...)` of as many slots as the shape says the list holds).
 */
export interface SlotOf<Values> {
  <Name extends keyof Values & string>(name: Name): RawBuilder<Values[Name]>;
  <Name extends ListName<Values>>(name: Name, index: number): RawBuilder<ItemOf<Values[Name]>>;
}

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
  shapeKey: (shape: Shape) => string | number,
  build: (db: Kysely<DB>, shape: Shape, slot: SlotOf<Values>) => Compilable<Row>,
): (db: Kysely<DB>, shape: Shape, values: Values) => CompiledQuery<Row> {
  const compiledFor = new WeakMap<Kysely<DB>, Map<string | number, CompiledQuery<Row>>>();
  const slot = ((name: string, index?: number) => sql`${new Slot(name, index)}`) as SlotOf<Values>;
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
    const parameters = compiled.parameters.map((parameter) => (parameter instanceof Slot ? parameter.valueIn(values) : parameter));
    // Written out rather than spread: a page of the history makes four of these.
    return { query: compiled.query, queryId: compiled.queryId, sql: compiled.sql, parameters };
  };
}
