import type { Kysely } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { flowsPaths, pathFor, type CatalogueResponse } from '#shared/api/flows.ts';
import {
  MACRO_FILE_INVALID_MESSAGE, MACRO_NOT_FOUND_MESSAGE, MACRO_OWNER_ONLY_DELETE_MESSAGE, MACRO_PAYMENT_REQUIRED_MESSAGE, MACRO_VERSION_NOT_FOUND_MESSAGE, MACRO_VIEW_ONLY_MESSAGE,
  MAX_MACRO_VERSIONS, macrosPaths, type Macro, type MacroSummary, type MacroVersion, type MacroVersionSummary,
} from '#shared/api/macros.ts';
import { sharePaths } from '#shared/api/share.ts';
import { MACRO_BODY_LIMIT, MACRO_STEP_LABELS } from '#shared/macros/definition.ts';
import { MACRO_FLOW_GROUP } from '#shared/macros/to-flow.ts';
import { connectDatabase } from '../../db/connect.ts';
import type { Database } from '../../db/schema.ts';
import { registerUser, startTestServer, type CookieJar, type TestServer } from '../../test/harness.ts';
import { joinFirm } from '../colleagues/test-support.ts';
import { memberOf } from '../flowlogs/fixtures.ts';
import { createMacro, MACRO_TABLES, macroPath, rowsMacro, sampleMacro } from './test-support.ts';

let server: TestServer;
let db: Kysely<Database>;
let ana: CookieJar;
let luis: CookieJar;
let marta: CookieJar;
let otra: CookieJar;
let ids: { luis: string; marta: string };

const list = async (jar: CookieJar) => (await jar.get(macrosPaths.macros)).json<{ items: MacroSummary[] }>().items;
const one = (id: string) => macroPath(macrosPaths.macro, { id });
const save = (jar: CookieJar, id: string, definition = sampleMacro(), note?: string) => jar.put(one(id), { definition, ...(note !== undefined && { note }) });
const remove = (jar: CookieJar, id: string) => jar.request({ method: 'DELETE', url: one(id) });
const share = (id: string, grants: { userId: string; access: 'view' | 'edit' }[]) => ana.put(sharePaths.object.replace(':kind', 'macro').replace(':id', id), { grants });

// Four sign-ups (argon2 hashing) on a loaded machine can outlast a hook's default 10 s.
beforeEach(async () => {
  server = await startTestServer();
  db = connectDatabase(server.database);
  ana = await registerUser(server.app, 'ana@asesoria-uno.es');
  luis = await joinFirm(server, ana, 'luis@asesoria-uno.es', 'Luis Gil');
  marta = await joinFirm(server, ana, 'marta@asesoria-uno.es', 'Marta Sanz');
  otra = await registerUser(server.app, 'eva@asesoria-dos.es', 'Eva Otra');
  ids = { luis: (await memberOf(db, 'luis@asesoria-uno.es')).userId, marta: (await memberOf(db, 'marta@asesoria-uno.es')).userId };
}, 60_000);
afterEach(async () => {
  await db.destroy();
  await server.close();
});

describe('macros: creating, reading and sharing', () => {
  it('creates a macro from a recording as version 1, lists it to its owner and reads its definition back', async () => {
    const macro = await createMacro(ana);
    expect(macro).toMatchObject({
      flowId: `macro-${macro.id}`, name: 'Consulta de saldo', description: 'Entra en el portal y copia el saldo', version: 1, steps: 4, runsOn: 'desktop',
      access: 'owner', ownerName: 'Ana Pérez', definition: sampleMacro(), versions: [{ version: 1, note: 'Grabado', createdBy: 'Ana Pérez' }],
    });
    expect(await list(ana)).toEqual([{ id: macro.id, flowId: macro.flowId, name: 'Consulta de saldo', description: macro.description, version: 1, steps: 4, runsOn: 'desktop', access: 'owner', ownerName: 'Ana Pérez', updatedAt: macro.updatedAt }]);
    expect((await ana.get(one(macro.id))).json<Macro>().definition).toEqual(sampleMacro());
    // Its flow row: what schedules check and the history names.
    expect(await db.selectFrom('flows').select(['name', 'group_name', 'runs_on', 'usage_ratio', 'active']).where('id', '=', macro.flowId).executeTakeFirst()).toEqual({ name: 'Consulta de saldo', group_name: MACRO_FLOW_GROUP, runs_on: 'desktop', usage_ratio: 2, active: 1 });
    // Nested steps count too.
    expect((await createMacro(ana, rowsMacro())).steps).toBe(3);
  });

  it("answers 404 for another firm's macro on every route, and lists none of it", async () => {
    const macro = await createMacro(ana);
    expect(await list(otra)).toEqual([]);
    const answers = await Promise.all([
      otra.get(one(macro.id)),
      save(otra, macro.id),
      remove(otra, macro.id),
      otra.get(macroPath(macrosPaths.versions, { id: macro.id })),
      otra.get(macroPath(macrosPaths.version, { id: macro.id, version: 1 })),
      otra.get(macroPath(macrosPaths.export, { id: macro.id })),
      otra.post(sharePaths.clone.replace(':kind', 'macro').replace(':id', macro.id)),
    ]);
    expect(answers.map((answer) => answer.statusCode)).toEqual([404, 404, 404, 404, 404, 404, 404]);
    expect(answers[0]?.json()).toMatchObject({ message: MACRO_NOT_FOUND_MESSAGE });
    // An id that cannot be ours is as unknown.
    expect((await ana.get(one('no-es-un-id'))).statusCode).toBe(404);
    expect((await db.selectFrom('macros').select(['name', 'current_version', 'deleted_at']).execute())).toEqual([{ name: 'Consulta de saldo', current_version: 1, deleted_at: null }]);
  });

  it("lets a colleague with 'view' read and copy, one with 'edit' save versions, and only the owner delete", async () => {
    const macro = await createMacro(ana);
    // Not shared yet: as unknown to colleagues as to another firm.
    expect((await luis.get(one(macro.id))).statusCode).toBe(404);
    expect(await list(luis)).toEqual([]);
    expect((await share(macro.id, [{ userId: ids.luis, access: 'view' }, { userId: ids.marta, access: 'edit' }])).statusCode).toBe(200);

    expect((await list(luis)).map((item) => [item.name, item.access, item.ownerName])).toEqual([['Consulta de saldo', 'view', 'Ana Pérez']]);
    expect((await luis.get(one(macro.id))).json<Macro>()).toMatchObject({ access: 'view', definition: sampleMacro() });
    const refused = await save(luis, macro.id, sampleMacro({ name: 'Cambiado' }));
    expect(refused.json()).toMatchObject({ statusCode: 403, message: MACRO_VIEW_ONLY_MESSAGE });
    const copy = await luis.post(sharePaths.clone.replace(':kind', 'macro').replace(':id', macro.id));
    expect(copy.statusCode, copy.body).toBe(201);
    const luisCopy = (await luis.get(one(copy.json<{ id: string }>().id))).json<Macro>();
    expect(luisCopy).toMatchObject({ name: 'Consulta de saldo (copia)', access: 'owner', ownerName: 'Luis Gil', version: 1 });

    const edited = await save(marta, macro.id, sampleMacro({ name: 'Consulta de saldo v2' }), 'Otro botón');
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json<Macro>()).toMatchObject({ name: 'Consulta de saldo v2', version: 2, access: 'edit', ownerName: 'Ana Pérez' });
    expect(edited.json<Macro>().versions.map((version) => [version.version, version.note, version.createdBy])).toEqual([[2, 'Otro botón', 'Marta Sanz'], [1, 'Grabado', 'Ana Pérez']]);

    for (const jar of [luis, marta]) expect((await remove(jar, macro.id)).json()).toMatchObject({ statusCode: 403, message: MACRO_OWNER_ONLY_DELETE_MESSAGE });
    expect((await remove(ana, macro.id)).statusCode).toBe(204);
    expect(await list(marta)).toEqual([]);
    expect((await marta.get(one(macro.id))).statusCode).toBe(404);
    expect(await db.selectFrom('shares').select('object_id').where('object_kind', '=', 'macro').execute()).toEqual([]);
    expect(await db.selectFrom('flows').select('active').where('id', '=', macro.flowId).executeTakeFirst()).toEqual({ active: 0 });
    // Luis's copy is his own and stays.
    expect((await list(luis)).map((item) => item.name)).toEqual(['Consulta de saldo (copia)']);
  });

  it('answers 402 to building, importing or saving without an active subscription; a recording is still stored, and reads go on', async () => {
    const macro = await createMacro(ana);
    const { groupId } = await memberOf(db, 'ana@asesoria-uno.es');
    await db.updateTable('subscriptions').set({ status: 'canceled' }).where('group_id', '=', groupId).execute();
    const before = server.countTables(MACRO_TABLES);
    const refused = [
      await ana.post(macrosPaths.macros, { source: 'blank', definition: sampleMacro() }),
      await ana.post(macrosPaths.import, { format: 'autoasesor-macro', version: 1, macro: sampleMacro() }),
      await save(ana, macro.id),
    ];
    for (const response of refused) {
      expect(response.statusCode).toBe(402);
      expect(response.json()).toMatchObject({ code: 'PAYMENT_REQUIRED', message: MACRO_PAYMENT_REQUIRED_MESSAGE });
    }
    expect(server.countTables(MACRO_TABLES)).toEqual(before);
    expect((await ana.get(one(macro.id))).statusCode).toBe(200);
    // The recorder and the scraper are the desktop's: what they made is kept, to launch (and pay per run).
    expect((await ana.post(macrosPaths.macros, { source: 'recording', definition: sampleMacro() })).statusCode).toBe(201);
    expect((await ana.post(macrosPaths.macros, { source: 'scraper', definition: sampleMacro() })).statusCode).toBe(201);
  });
});

describe('macros: checking what comes in', () => {
  it('refuses a definition the schema or its cross-field checks refuse, with the Spanish problems and nothing written', async () => {
    const before = server.countTables(MACRO_TABLES);
    const noSteps = await ana.post(macrosPaths.macros, { source: 'blank', definition: sampleMacro({ steps: [] }) });
    expect(noSteps.statusCode).toBe(400);
    expect(noSteps.json()).toMatchObject({ issues: [{ path: 'definition.steps', message: 'El robot necesita al menos un paso' }] });
    const unknownInput = await ana.post(macrosPaths.macros, { source: 'blank', definition: sampleMacro({ inputs: [] }) });
    expect(unknownInput.statusCode).toBe(400);
    expect(unknownInput.json()).toMatchObject({ issues: [{ path: 'definition', message: 'El paso 1 (Escribir) usa el dato «usuario», que no existe' }] });
    // A password's value never comes in: a secret is a reference only.
    const password = sampleMacro({ steps: [{ id: 's1', type: 'fill', target: '#clave', value: { kind: 'secret', ref: 'x', text: 'MiClave123' } as never }] });
    expect((await ana.post(macrosPaths.macros, { source: 'recording', definition: password })).statusCode).toBe(400);
    const nul = await ana.post(macrosPaths.macros, { source: 'blank', definition: sampleMacro({ description: 'a\u0000b' }) });
    expect(nul.statusCode).toBe(400);
    expect(server.countTables(MACRO_TABLES)).toEqual(before);
  });

  it('keeps only what the schema knows: extra fields are dropped, never stored', async () => {
    const macro = await createMacro(ana, { ...sampleMacro(), password: 'MiClave123' } as never);
    const stored = await db.selectFrom('macro_versions').select('definition').where('macro_id', '=', macro.id).executeTakeFirstOrThrow();
    expect(stored.definition).not.toContain('MiClave123');
  });

  it(`answers 413 to a body over ${MACRO_BODY_LIMIT} bytes, writing nothing`, async () => {
    const before = server.countTables(MACRO_TABLES);
    const big = { source: 'recording', definition: sampleMacro({ description: 'x'.repeat(MACRO_BODY_LIMIT) }) };
    expect((await ana.post(macrosPaths.macros, big)).statusCode).toBe(413);
    expect((await ana.post(macrosPaths.import, { format: 'autoasesor-macro', version: 1, macro: big.definition })).statusCode).toBe(413);
    const macro = await createMacro(ana);
    expect((await save(ana, macro.id, big.definition)).statusCode).toBe(413);
    expect(server.countTables(MACRO_TABLES)).toEqual({ ...before, macros: 1, macro_versions: 1, flows: (before.flows ?? 0) + 1 });
  });
});

// 52 saves, each a transaction: slow on PostgreSQL under load, never asserted on time.
describe('macros: versions', { timeout: 90_000 }, () => {
  it(`keeps every saved version readable, up to ${MAX_MACRO_VERSIONS}: older ones are pruned`, async () => {
    const macro = await createMacro(ana);
    for (let n = 2; n <= MAX_MACRO_VERSIONS + 2; n += 1) {
      const saved = await save(ana, macro.id, sampleMacro({ description: `Versión ${n}` }), `Cambio ${n}`);
      expect(saved.statusCode, saved.body).toBe(200);
    }
    const versions = (await ana.get(macroPath(macrosPaths.versions, { id: macro.id }))).json<{ items: MacroVersionSummary[] }>().items;
    expect(versions).toHaveLength(MAX_MACRO_VERSIONS);
    expect(versions[0]).toMatchObject({ version: MAX_MACRO_VERSIONS + 2, note: `Cambio ${MAX_MACRO_VERSIONS + 2}`, createdBy: 'Ana Pérez' });
    expect(versions.at(-1)?.version).toBe(3);
    const third = (await ana.get(macroPath(macrosPaths.version, { id: macro.id, version: 3 }))).json<MacroVersion>();
    expect(third).toMatchObject({ macroId: macro.id, version: 3, note: 'Cambio 3', definition: sampleMacro({ description: 'Versión 3' }) });
    for (const gone of [1, 2, MAX_MACRO_VERSIONS + 3]) {
      expect((await ana.get(macroPath(macrosPaths.version, { id: macro.id, version: gone }))).json()).toMatchObject({ statusCode: 404, message: MACRO_VERSION_NOT_FOUND_MESSAGE });
    }
    expect((await ana.get(one(macro.id))).json<Macro>()).toMatchObject({ version: MAX_MACRO_VERSIONS + 2, description: `Versión ${MAX_MACRO_VERSIONS + 2}` });
  });
});

describe('macros: export and import', () => {
  it('exports the current definition as a named JSON file that imports back as a new macro of the caller', async () => {
    const macro = await createMacro(ana, rowsMacro());
    const exported = await ana.get(macroPath(macrosPaths.export, { id: macro.id }));
    expect(exported.statusCode).toBe(200);
    expect(exported.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(exported.headers['content-disposition']).toContain('filename="Altas por fila.autoasesor-macro.json"');
    const file = exported.json<{ format: string; version: number; macro: unknown }>();
    expect(file).toEqual({ format: 'autoasesor-macro', version: 1, macro: rowsMacro() });

    // Marta's firm-mate imports the file: hers, version 1, the same definition.
    const imported = await marta.post(macrosPaths.import, file);
    expect(imported.statusCode, imported.body).toBe(201);
    expect(imported.json<Macro>()).toMatchObject({ name: 'Altas por fila', access: 'owner', ownerName: 'Marta Sanz', version: 1, definition: rowsMacro(), versions: [{ note: 'Importado' }] });
    expect(imported.json<Macro>().id).not.toBe(macro.id);
  });

  it('refuses a file that is not a macro, or a macro the schema refuses, with a 400 in Spanish and nothing written', async () => {
    const before = server.countTables(MACRO_TABLES);
    for (const body of [{ format: 'otra-cosa', version: 1, macro: sampleMacro() }, { format: 'autoasesor-macro', version: 2, macro: sampleMacro() }, { hola: 1 }]) {
      const response = await ana.post(macrosPaths.import, body);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ code: 'MACRO_FILE_INVALID', message: MACRO_FILE_INVALID_MESSAGE });
    }
    const badMacro = await ana.post(macrosPaths.import, { format: 'autoasesor-macro', version: 1, macro: sampleMacro({ charge: { per: 'row', slans: 1 } }) });
    expect(badMacro.statusCode).toBe(400);
    expect(badMacro.json()).toMatchObject({ message: MACRO_FILE_INVALID_MESSAGE, issues: [{ path: 'macro', message: `Para cobrar por fila, el robot necesita un paso «${MACRO_STEP_LABELS.forEachRow}»` }] });
    const badField = await ana.post(macrosPaths.import, { format: 'autoasesor-macro', version: 1, macro: sampleMacro({ startUrl: 'ftp://x' }) });
    expect(badField.json<{ issues: { message: string }[] }>().issues[0]?.message).toBe('startUrl: La dirección debe empezar por https:// o http://');
    expect(server.countTables(MACRO_TABLES)).toEqual(before);
  });
});

describe('macros in the flows catalogue', () => {
  it("lists the user's visible macros after the built-in flows, and answers their definition; others' are 404", async () => {
    const builtIn = (await ana.get(flowsPaths.catalogue)).json<CatalogueResponse>().items;
    const zeta = await createMacro(ana, sampleMacro({ name: 'Zeta' }));
    const alfa = await createMacro(ana, rowsMacro());
    const items = (await ana.get(flowsPaths.catalogue)).json<CatalogueResponse>().items;
    expect(items.slice(0, builtIn.length)).toEqual(builtIn);
    expect(items.slice(builtIn.length)).toEqual([
      { id: alfa.flowId, name: 'Altas por fila', description: alfa.description, group: MACRO_FLOW_GROUP, limits: expect.any(String), usageRatio: 0.5, usageMeasureUnit: 'fila|filas', runsOn: 'desktop', hasTemplate: false, hasInstructions: true },
      { id: zeta.flowId, name: 'Zeta', description: zeta.description, group: MACRO_FLOW_GROUP, limits: expect.any(String), usageRatio: 2, usageMeasureUnit: 'ejecución|ejecuciones', runsOn: 'desktop', hasTemplate: false, hasInstructions: true },
    ]);
    const definition = await ana.get(pathFor(flowsPaths.flow, { id: zeta.flowId }));
    expect(definition.statusCode).toBe(200);
    expect(definition.json()).toMatchObject({ id: zeta.flowId, name: 'Zeta', runsOn: 'desktop', flowInputs: [{ key: 'usuario', type: 'Text' }] });

    // A colleague sees them once shared; another firm never.
    expect((await luis.get(flowsPaths.catalogue)).json<CatalogueResponse>().items).toEqual(builtIn);
    expect((await luis.get(pathFor(flowsPaths.flow, { id: zeta.flowId }))).statusCode).toBe(404);
    await share(zeta.id, [{ userId: ids.luis, access: 'view' }]);
    expect((await luis.get(flowsPaths.catalogue)).json<CatalogueResponse>().items.map((item) => item.id).slice(builtIn.length)).toEqual([zeta.flowId]);
    expect((await otra.get(flowsPaths.catalogue)).json<CatalogueResponse>().items).toEqual(builtIn);
    expect((await otra.get(pathFor(flowsPaths.flow, { id: zeta.flowId }))).statusCode).toBe(404);
  });
});
