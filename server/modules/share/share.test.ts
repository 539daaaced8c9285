import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { NOT_A_COLLEAGUE_MESSAGE, OWNER_ONLY_SHARE_MESSAGE, SHARED_OBJECT_NOT_FOUND_MESSAGE, sharePaths, type ObjectShares, type ShareKind, type SharedObject } from '#shared/api/share.ts';
import { connectDatabase } from '../../db/connect.ts';
import type { Database } from '../../db/schema.ts';
import { registerUser, startTestServer, type CookieJar, type TestServer } from '../../test/harness.ts';
import { joinFirm } from '../colleagues/test-support.ts';
import { memberOf } from '../flowlogs/fixtures.ts';
import { sampleMacro } from '../macros/test-support.ts';

const STAMP = '2026-03-01T10:00:00.000Z';
const objectPath = (kind: ShareKind, id: string) => sharePaths.object.replace(':kind', kind).replace(':id', id);
const clonePath = (kind: ShareKind, id: string) => sharePaths.clone.replace(':kind', kind).replace(':id', id);
const editPath = (kind: ShareKind, id: string) => sharePaths.edit.replace(':kind', kind).replace(':id', id);

/** One object of every kind owned by `owner`, arranged in each module's table. */
async function insertObjects(db: Kysely<Database>, owner: { userId: string; groupId: string }): Promise<Record<ShareKind, string>> {
  const base = { group_id: owner.groupId, created_at: STAMP };
  const template = randomUUID();
  await db.insertInto('doc_templates').values({ ...base, id: template, owner_user_id: owner.userId, category_id: null, name: 'Autorización RED', description: 'Modelo', content: '{"blocks":[]}', placeholders: '[]', takes_signature: 0, starter_key: 'autorizacion-red', updated_at: STAMP }).execute();
  const form = randomUUID();
  await db
    .insertInto('doc_forms')
    .values({ ...base, id: form, owner_user_id: owner.userId, template_id: template, title: 'Datos de alta', description: '', fields: '[]', template_content: '{"blocks":[]}', template_name: 'Autorización RED', require_signature: 1, status: 'published', public_id: `pub-${randomUUID()}`, updated_at: STAMP, published_at: STAMP })
    .execute();
  const schedule = randomUUID();
  await db
    .insertInto('flow_schedules')
    .values({ ...base, id: schedule, user_id: owner.userId, flow_id: 'validar', flow_name: 'Validar identificadores', scheduled_date: '2026-04-01T08:00:00.000Z', repeat: 1, every: 1, interval: 'days', flow_inputs: '{"nif":"12345678Z"}', send_output_to_server: 1, machine_id: null, local_machine_hash: null, local_process: null, claimed_by: 'servidor-1', claimed_until: STAMP, updated_at: STAMP })
    .execute();
  const settings = randomUUID();
  await db.insertInto('script_settings').values({ ...base, id: settings, user_id: owner.userId, flow_id: 'validar', name: 'Oficina centro', settings: '{"configuration":{"a":1}}' }).execute();
  const macro = randomUUID();
  await db.insertInto('macros').values({ ...base, id: macro, owner_user_id: owner.userId, name: 'Consulta de saldo', description: '', current_version: 1, steps: 4, updated_at: STAMP, deleted_at: null }).execute();
  await db.insertInto('macro_versions').values({ macro_id: macro, version: 1, definition: JSON.stringify(sampleMacro()), created_by: owner.userId, created_at: STAMP, note: '' }).execute();
  return { template, form, schedule, 'flow-settings': settings, macro };
}

describe('sharing objects with colleagues', () => {
  let server: TestServer;
  let db: Kysely<Database>;
  let owner: CookieJar;
  let luis: CookieJar;
  let eva: CookieJar;
  let stranger: CookieJar;
  let ids: { owner: string; luis: string; eva: string; stranger: string };
  let objects: Record<ShareKind, string>;

  beforeEach(async () => {
    server = await startTestServer();
    db = connectDatabase(server.database);
    owner = await registerUser(server.app, 'ana@asesoria.test', 'Ana Pérez');
    luis = await joinFirm(server, owner, 'luis@asesoria.test', 'Luis Gil');
    eva = await joinFirm(server, owner, 'eva@asesoria.test', 'Eva Ruiz');
    stranger = await registerUser(server.app, 'otro@otra.test', 'Otro Señor');
    const anaMember = await memberOf(db, 'ana@asesoria.test');
    ids = { owner: anaMember.userId, luis: (await memberOf(db, 'luis@asesoria.test')).userId, eva: (await memberOf(db, 'eva@asesoria.test')).userId, stranger: (await memberOf(db, 'otro@otra.test')).userId };
    objects = await insertObjects(db, anaMember);
  });
  afterEach(async () => {
    await db.destroy();
    await server.close();
  });

  it('shows the owner who it could share an object with: the active colleagues of the firm only', async () => {
    const response = await owner.get(objectPath('template', objects.template));
    expect(response.statusCode, response.body).toBe(200);
    const shares = response.json<ObjectShares>();
    expect(shares.grants).toEqual([]);
    expect(shares.colleagues.map((colleague) => colleague.name)).toEqual(['Eva Ruiz', 'Luis Gil']);
  });

  it("grants, lists what is shared both ways, and enforces the owner's rights", async () => {
    const put = await owner.put(objectPath('template', objects.template), { grants: [{ userId: ids.luis, access: 'view' }, { userId: ids.eva, access: 'edit' }] });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json<ObjectShares>().grants.map((grant) => [grant.name, grant.access])).toEqual([['Eva Ruiz', 'edit'], ['Luis Gil', 'view']]);

    const own = (await owner.get(sharePaths.own)).json<{ items: SharedObject[] }>();
    expect(own.items).toEqual([{ kind: 'template', id: objects.template, name: 'Autorización RED', ownerName: 'Ana Pérez', sharedWith: 2, access: 'owner' }]);
    const luisSees = (await luis.get(sharePaths.me)).json<{ items: SharedObject[] }>();
    expect(luisSees.items).toEqual([{ kind: 'template', id: objects.template, name: 'Autorización RED', ownerName: 'Ana Pérez', sharedWith: 1, access: 'view' }]);
    expect((await eva.get(`${sharePaths.me}?kind=template`)).json<{ items: SharedObject[] }>().items.map((item) => item.access)).toEqual(['edit']);
    expect((await eva.get(`${sharePaths.me}?kind=form`)).json()).toEqual({ items: [] });
    expect((await stranger.get(sharePaths.me)).json()).toEqual({ items: [] });

    // A colleague with a grant, even 'edit', does not decide who else sees it.
    for (const jar of [luis, eva]) {
      const refused = await jar.get(objectPath('template', objects.template));
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toMatchObject({ message: OWNER_ONLY_SHARE_MESSAGE });
      expect((await jar.put(objectPath('template', objects.template), { grants: [] })).statusCode).toBe(403);
    }
    // Someone of another firm, or a colleague without a grant, does not learn it exists.
    const unknown = await stranger.get(objectPath('template', objects.template));
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ message: SHARED_OBJECT_NOT_FOUND_MESSAGE });
    expect((await luis.get(objectPath('form', objects.form))).statusCode).toBe(404);
    expect(server.countRows('shares')).toBe(2);
  });

  it('refuses a grantee who is not an active colleague, with a 400 and nothing written', async () => {
    await owner.put(objectPath('form', objects.form), { grants: [{ userId: ids.luis, access: 'view' }] });
    await db.updateTable('users').set({ disabled_at: STAMP }).where('id', '=', ids.eva).execute();
    for (const userId of [ids.stranger, ids.owner, ids.eva, randomUUID(), 'nul\u0000id']) {
      const response = await owner.put(objectPath('form', objects.form), { grants: [{ userId: ids.luis, access: 'edit' }, { userId, access: 'view' }] });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ code: 'NOT_A_COLLEAGUE', message: NOT_A_COLLEAGUE_MESSAGE, issues: [{ path: 'grants.1.userId' }] });
      expect((await owner.patch(editPath('form', objects.form), { userId, access: 'view' })).statusCode).toBe(400);
    }
    const grants = await db.selectFrom('shares').select(['user_id', 'access']).execute();
    expect(grants).toEqual([{ user_id: ids.luis, access: 'view' }]);
    for (const body of [{ grants: [{ userId: ids.luis, access: 'admin' }] }, { grants: 'todos' }, {}]) {
      expect((await owner.put(objectPath('form', objects.form), body)).statusCode).toBe(400);
    }
    expect((await owner.get(objectPath('plantilla' as ShareKind, objects.form))).statusCode).toBe(404);
    expect((await owner.get(`${sharePaths.own}?kind=plantilla`)).statusCode).toBe(400);
    expect((await owner.get(objectPath('form', encodeURIComponent('nul\u0000id')))).statusCode).toBe(404);
    expect(server.countRows('shares')).toBe(1);
  });

  it("changes or removes one colleague's access", async () => {
    const added = await owner.patch(editPath('schedule', objects.schedule), { userId: ids.luis, access: 'view' });
    expect(added.statusCode, added.body).toBe(200);
    expect(added.json<ObjectShares>().grants).toMatchObject([{ userId: ids.luis, access: 'view' }]);
    expect((await owner.patch(editPath('schedule', objects.schedule), { userId: ids.luis, access: 'edit' })).json<ObjectShares>().grants).toMatchObject([{ userId: ids.luis, access: 'edit' }]);
    expect((await luis.get(sharePaths.me)).json<{ items: SharedObject[] }>().items).toMatchObject([{ kind: 'schedule', name: 'Validar identificadores', access: 'edit' }]);
    expect((await luis.patch(editPath('schedule', objects.schedule), { userId: ids.eva, access: 'view' })).statusCode).toBe(403);
    const removed = await owner.patch(editPath('schedule', objects.schedule), { userId: ids.luis, access: null });
    expect(removed.json<ObjectShares>().grants).toEqual([]);
    expect((await luis.get(sharePaths.me)).json()).toEqual({ items: [] });
    expect((await owner.get(sharePaths.own)).json()).toEqual({ items: [] });
  });

  it("makes the caller's own copy of what they may see, of every kind", async () => {
    for (const kind of ['template', 'form', 'schedule', 'flow-settings', 'macro'] as const) {
      // Without a grant it is as unknown as another firm's.
      expect((await luis.post(clonePath(kind, objects[kind]))).statusCode).toBe(404);
      expect((await stranger.post(clonePath(kind, objects[kind]))).statusCode).toBe(404);
      await owner.patch(editPath(kind, objects[kind]), { userId: ids.luis, access: 'view' });
      const response = await luis.post(clonePath(kind, objects[kind]));
      expect(response.statusCode, response.body).toBe(201);
      const copy = response.json<{ kind: ShareKind; id: string }>();
      expect(copy.kind).toBe(kind);
      expect(copy.id).not.toBe(objects[kind]);
    }
    const templates = await db.selectFrom('doc_templates').select(['owner_user_id', 'name', 'content', 'starter_key']).where('owner_user_id', '=', ids.luis).execute();
    expect(templates).toEqual([{ owner_user_id: ids.luis, name: 'Autorización RED (copia)', content: '{"blocks":[]}', starter_key: null }]);
    const [original, form] = await Promise.all([
      db.selectFrom('doc_forms').selectAll().where('id', '=', objects.form).executeTakeFirstOrThrow(),
      db.selectFrom('doc_forms').selectAll().where('owner_user_id', '=', ids.luis).executeTakeFirstOrThrow(),
    ]);
    expect(form).toMatchObject({ title: 'Datos de alta (copia)', status: 'draft', published_at: null, fields: original.fields, template_id: original.template_id });
    expect(form.public_id).not.toBe(original.public_id);
    const schedule = await db.selectFrom('flow_schedules').selectAll().where('user_id', '=', ids.luis).executeTakeFirstOrThrow();
    expect(schedule).toMatchObject({ flow_id: 'validar', flow_inputs: '{"nif":"12345678Z"}', scheduled_date: '2026-04-01T08:00:00.000Z', claimed_by: null, group_id: (await memberOf(db, 'luis@asesoria.test')).groupId });
    const settings = await db.selectFrom('script_settings').selectAll().where('user_id', '=', ids.luis).executeTakeFirstOrThrow();
    expect(settings).toMatchObject({ name: 'Oficina centro (copia)', settings: '{"configuration":{"a":1}}' });
    // A macro's copy starts at version 1 with the original's current definition, under its new name.
    const macro = await db.selectFrom('macros').innerJoin('macro_versions as v', 'v.macro_id', 'macros.id').select(['macros.name', 'macros.current_version', 'v.definition']).where('macros.owner_user_id', '=', ids.luis).executeTakeFirstOrThrow();
    expect(macro).toMatchObject({ name: 'Consulta de saldo (copia)', current_version: 1 });
    expect(JSON.parse(macro.definition)).toEqual({ ...sampleMacro(), name: 'Consulta de saldo (copia)' });
    // The copies are Luis's: he manages their sharing.
    expect((await luis.get(objectPath('template', (await db.selectFrom('doc_templates').select('id').where('owner_user_id', '=', ids.luis).executeTakeFirstOrThrow()).id))).statusCode).toBe(200);
  });

  it("no longer counts a removed colleague's grant", async () => {
    await owner.put(objectPath('template', objects.template), { grants: [{ userId: ids.luis, access: 'view' }, { userId: ids.eva, access: 'edit' }] });
    await db.updateTable('users').set({ disabled_at: STAMP }).where('id', '=', ids.eva).execute();
    expect((await owner.get(sharePaths.own)).json<{ items: SharedObject[] }>().items).toMatchObject([{ id: objects.template, sharedWith: 1 }]);
    const shares = (await owner.get(objectPath('template', objects.template))).json<ObjectShares>();
    expect(shares.grants.map((grant) => grant.userId)).toEqual([ids.luis]);
    expect(shares.colleagues.map((colleague) => colleague.userId)).toEqual([ids.luis]);
  });

  it('forgets a grant when its object is gone', async () => {
    await owner.patch(editPath('flow-settings', objects['flow-settings']), { userId: ids.luis, access: 'view' });
    await db.deleteFrom('script_settings').where('id', '=', objects['flow-settings']).execute();
    expect((await luis.get(sharePaths.me)).json()).toEqual({ items: [] });
    expect((await owner.get(sharePaths.own)).json()).toEqual({ items: [] });
    expect((await luis.post(clonePath('flow-settings', objects['flow-settings']))).statusCode).toBe(404);
  });
});
