import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ScheduledFlow } from '#shared/api/flows.ts';
import { connectDatabase } from '../../db/connect.ts';
import { registerUser, startTestServer, type CookieJar, type TestServer } from '../../test/harness.ts';
import { DESKTOP_FLOW_ID, TEST_FLOW_ID } from '../flows/test-flows/index.ts';
import { linkPc } from '../devices/test-support.ts';
import { machineHash, registerColleague } from '../machines/test-support.ts';
import { TEST_FLOWS_CONFIG, upload, workbook } from '../runs/test-support.ts';

const NOW = new Date('2025-03-20T10:00:00.000Z');
const TOMORROW_9 = '2025-03-21T08:00:00.000Z';

let server: TestServer;
let ana: CookieJar;

beforeEach(async () => {
  server = await startTestServer({ ...TEST_FLOWS_CONFIG, now: () => NOW, scheduleRunnerIntervalMs: 0 });
  ana = await registerUser(server.app, 'ana@asesoria.es', 'Ana Pérez');
});
afterEach(async () => server.close());

const schedule = (jar: CookieJar, flowId: string, body: Record<string, unknown>) => jar.post(`/api/browserflow/schedule/${flowId}`, body);

async function created(jar: CookieJar, body: Record<string, unknown> = {}): Promise<ScheduledFlow> {
  const response = await schedule(jar, TEST_FLOW_ID, { scheduledDate: TOMORROW_9, flowInputs: { mode: 'ok' }, ...body });
  expect(response.statusCode, response.body).toBe(201);
  return response.json();
}

describe('POST /api/browserflow/schedule/:flowId', () => {
  it('schedules a server flow with the spec’s fields, repeating every 1 day by default', async () => {
    const response = await schedule(ana, TEST_FLOW_ID, { scheduledDate: '2025-03-21T09:00:00+01:00', repeat: true, flowInputs: { mode: 'ok' } });
    expect(response.statusCode).toBe(201);
    expect(response.json()).toEqual({
      _id: expect.any(String),
      browserFlowName: 'Robot de pruebas',
      browserFlow: TEST_FLOW_ID,
      localProcess: null,
      scheduledDate: TOMORROW_9,
      repeat: true,
      every: 1,
      interval: 'days',
      user: { email: 'ana@asesoria.es', name: 'Ana Pérez' },
      machine: null,
      flowInputs: { mode: 'ok' },
      sendOutputToServer: true,
      updatedAt: NOW.toISOString(),
    });
  });

  it('refuses bad input with the field path, writing nothing', async () => {
    for (const [body, path, message] of [
      [{}, 'scheduledDate', 'Elige fecha y hora'],
      [{ scheduledDate: 'mañana' }, 'scheduledDate', 'Elige fecha y hora'],
      [{ scheduledDate: TOMORROW_9, repeat: true, every: 0 }, 'every', 'La repetición debe ser un número entero mayor que 0'],
      [{ scheduledDate: TOMORROW_9, every: 1.5 }, 'every', undefined],
      [{ scheduledDate: TOMORROW_9, interval: 'weeks' }, 'interval', undefined],
      [{ scheduledDate: '2025-03-19T10:00:00.000Z' }, 'scheduledDate', 'Elige una fecha y hora futuras'],
      [{ scheduledDate: TOMORROW_9, flowInputs: { big: 'x'.repeat(70_000) } }, 'flowInputs', 'Las entradas del robot ocupan demasiado'],
    ] as const) {
      const response = await schedule(ana, TEST_FLOW_ID, body);
      expect(response.statusCode, JSON.stringify(body).slice(0, 80)).toBe(400);
      const issue = (response.json() as { issues: Array<{ path: string; message: string }> }).issues[0];
      expect(issue?.path).toBe(path);
      if (message) expect(issue?.message).toBe(message);
    }
    expect(server.countRows('flow_schedules')).toBe(0);
  });

  it('answers an unknown flow with the spec’s message', async () => {
    const response = await schedule(ana, 'no-existe', { scheduledDate: TOMORROW_9 });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ code: 'FLOW_NOT_FOUND', message: 'No se ha podido programar este robot' });
    expect(server.countRows('flow_schedules')).toBe(0);
  });

  it('asks for a device for a desktop flow, one the user sees, and for none for a server flow', async () => {
    const missing = await schedule(ana, DESKTOP_FLOW_ID, { scheduledDate: TOMORROW_9 });
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toMatchObject({ code: 'MACHINE_REQUIRED', message: 'Este robot necesita un dispositivo', issues: [{ path: 'machine' }] });
    const unknown = await schedule(ana, DESKTOP_FLOW_ID, { scheduledDate: TOMORROW_9, machine: randomUUID() });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ message: 'No se ha encontrado este dispositivo' });

    const pc = await linkPc(ana, 'despacho', 'PC del despacho');
    const luis = await registerColleague(server, 'luis@asesoria.es', 'ana@asesoria.es');
    expect((await schedule(luis, DESKTOP_FLOW_ID, { scheduledDate: TOMORROW_9, machine: pc.machine._id })).statusCode).toBe(404);
    const onServer = await schedule(ana, TEST_FLOW_ID, { scheduledDate: TOMORROW_9, machine: pc.machine._id });
    expect(onServer.statusCode).toBe(400);
    expect(onServer.json()).toMatchObject({ issues: [{ path: 'machine' }] });
    expect(server.countRows('flow_schedules')).toBe(0);

    const onPc = await schedule(ana, DESKTOP_FLOW_ID, { scheduledDate: TOMORROW_9, machine: pc.machine._id, flowInputs: { certificate: 'ab'.repeat(32) } });
    expect(onPc.statusCode, onPc.body).toBe(201);
    expect(onPc.json()).toMatchObject({ browserFlow: DESKTOP_FLOW_ID, machine: { _id: pc.machine._id, name: 'PC del despacho' } });
    expect((await ana.get(`/api/browserflow/schedule/${(onPc.json() as ScheduledFlow)._id}`)).json()).toMatchObject({ machine: { _id: pc.machine._id } });
  });

  it('checks the inputs as a launch does: another firm’s upload or a missing one is a 400 on its field path, nothing written', async () => {
    const [anas] = await upload(ana, [{ name: 'trabajadores.xlsx', data: workbook([['NIF'], ['12345678Z']]) }]);
    const eva = await registerUser(server.app, 'eva@otra.es', 'Eva');
    const inputs = (uploadId: string) => ({ mode: 'ok', workbook: [{ uploadId, name: 'trabajadores.xlsx' }] });

    // Firm B (Eva) with firm A's (Ana's) upload id: as missing as a deleted file, and never saved.
    for (const uploadId of [anas?.id ?? '', randomUUID()]) {
      const refused = await schedule(eva, TEST_FLOW_ID, { scheduledDate: TOMORROW_9, flowInputs: inputs(uploadId) });
      expect(refused.statusCode).toBe(400);
      expect(refused.json()).toMatchObject({
        code: 'VALIDATION',
        message: 'Revisa los datos enviados',
        issues: [{ path: 'flowInputs.workbook.0.uploadId', message: 'No se ha encontrado este archivo' }],
      });
    }
    // The flow's own rules too: a required choice, a NIF's format.
    const bad = await schedule(ana, TEST_FLOW_ID, { scheduledDate: TOMORROW_9, flowInputs: { nif: '12345678A' } });
    expect(bad.statusCode).toBe(400);
    expect((bad.json() as { issues: Array<{ path: string }> }).issues.map((issue) => issue.path)).toEqual(['flowInputs.mode', 'flowInputs.nif']);
    expect(server.countRows('flow_schedules')).toBe(0);

    // The firm's own upload is scheduled as sent.
    const own = await schedule(ana, TEST_FLOW_ID, { scheduledDate: TOMORROW_9, flowInputs: inputs(anas?.id ?? '') });
    expect(own.statusCode, own.body).toBe(201);
    expect(own.json()).toMatchObject({ flowInputs: inputs(anas?.id ?? '') });
    expect(server.countRows('flow_schedules')).toBe(1);
  });

  it('needs a session', async () => {
    const response = await server.app.inject({ method: 'POST', url: `/api/browserflow/schedule/${TEST_FLOW_ID}`, payload: { scheduledDate: TOMORROW_9 } });
    expect(response.statusCode).toBe(401);
    expect(server.countRows('flow_schedules')).toBe(0);
  });
});

describe('reading, moving and deleting schedules', () => {
  it('lists the group’s schedules soonest first, one member’s by email; an unknown machine’s list is empty', async () => {
    const luisInGroup = await registerUser(server.app, 'luis@asesoria.es', 'Luis');
    const later = await created(ana, { scheduledDate: '2025-03-25T08:00:00.000Z' });
    const sooner = await created(ana);
    // Luis registered on his own, so he has his own group: he sees none of Ana's.
    await created(luisInGroup);

    const all = (await ana.get('/api/browserflow/schedule')).json() as { items: ScheduledFlow[] };
    expect(all.items.map((item) => item._id)).toEqual([sooner._id, later._id]);
    const byAna = (await ana.get('/api/browserflow/schedule?user=ANA@asesoria.es')).json() as { items: ScheduledFlow[] };
    expect(byAna.items).toHaveLength(2);
    expect((await ana.get('/api/browserflow/schedule?user=luis@asesoria.es')).json()).toEqual({ items: [] });
    expect((await ana.get('/api/browserflow/schedule?machineHash=abc123')).json()).toEqual({ items: [] });
  });

  it('lists the schedules on the machine with ?machineHash (the embedded panel), and with ?user too, that member’s there', async () => {
    const pc = await linkPc(ana, 'despacho', 'PC del despacho');
    const home = await linkPc(ana, 'casa', 'Portátil de casa');
    await ana.patch(`/api/machines/${pc.machine._id}`, { shared: true });
    const luis = await registerColleague(server, 'luis@asesoria.es', 'ana@asesoria.es');
    const onPc = (jar: CookieJar, scheduledDate: string) => schedule(jar, DESKTOP_FLOW_ID, { scheduledDate, machine: pc.machine._id, flowInputs: {} });
    const anaLater = (await onPc(ana, '2025-03-25T08:00:00.000Z')).json() as ScheduledFlow;
    const luisSooner = (await onPc(luis, TOMORROW_9)).json() as ScheduledFlow;
    expect((await schedule(ana, DESKTOP_FLOW_ID, { scheduledDate: TOMORROW_9, machine: home.machine._id, flowInputs: {} })).statusCode).toBe(201);
    await created(ana);

    const ids = async (query: string) => ((await ana.get(`/api/browserflow/schedule?${query}`)).json() as { items: ScheduledFlow[] }).items.map((item) => item._id);
    expect(await ids(`machineHash=${machineHash('despacho')}`)).toEqual([luisSooner._id, anaLater._id]);
    expect(await ids(`machineHash=${machineHash('despacho')}&user=ana@asesoria.es`)).toEqual([anaLater._id]);
    expect(await ids(`machineHash=${machineHash('despacho')}&user=eva@otra.es`)).toEqual([]);
    // Another firm with a PC of the same hash sees only its own.
    const eva = await registerUser(server.app, 'eva@otra.es');
    await linkPc(eva, 'despacho');
    expect((await eva.get(`/api/browserflow/schedule?machineHash=${machineHash('despacho')}`)).json()).toEqual({ items: [] });
  });

  it('reads one by id, or says whether it exists', async () => {
    const one = await created(ana);
    const response = await ana.get(`/api/browserflow/schedule/${one._id}`);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual(one);
    expect((await ana.get(`/api/browserflow/schedule/${one._id}?existSchedule=true`)).json()).toEqual({ exists: true });
    const missing = randomUUID();
    expect((await ana.get(`/api/browserflow/schedule/${missing}?existSchedule=true`)).json()).toEqual({ exists: false });
    const notFound = await ana.get(`/api/browserflow/schedule/${missing}`);
    expect(notFound.statusCode).toBe(404);
    expect(notFound.json()).toMatchObject({ code: 'SCHEDULE_NOT_FOUND', message: 'No se ha encontrado esta programación' });
    expect((await ana.get('/api/browserflow/schedule/xyz')).statusCode).toBe(400);
    expect((await ana.get(`/api/browserflow/schedule/${one._id}?existSchedule=si`)).statusCode).toBe(400);
  });

  it('moves one with ?scheduledDate and deletes it', async () => {
    const one = await created(ana);
    const moved = await ana.request({ method: 'PUT', url: `/api/browserflow/schedule/${one._id}?scheduledDate=2025-04-01T10:30:00%2B02:00` });
    expect(moved.statusCode).toBe(200);
    expect(moved.json()).toMatchObject({ _id: one._id, scheduledDate: '2025-04-01T08:30:00.000Z' });

    const bad = await ana.request({ method: 'PUT', url: `/api/browserflow/schedule/${one._id}?scheduledDate=pronto` });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ issues: [{ path: 'scheduledDate', message: 'Elige fecha y hora' }] });
    expect((await ana.request({ method: 'PUT', url: `/api/browserflow/schedule/${one._id}` })).statusCode).toBe(400);
    expect((await ana.get(`/api/browserflow/schedule/${one._id}`)).json()).toMatchObject({ scheduledDate: '2025-04-01T08:30:00.000Z' });

    expect((await ana.request({ method: 'DELETE', url: `/api/browserflow/schedule/${one._id}` })).statusCode).toBe(204);
    expect((await ana.get(`/api/browserflow/schedule/${one._id}`)).statusCode).toBe(404);
    expect((await ana.request({ method: 'DELETE', url: `/api/browserflow/schedule/${one._id}` })).statusCode).toBe(404);
  });

  it('checks the inputs again when one is moved: a schedule saved with another firm’s upload is not moved', async () => {
    const [anas] = await upload(ana, [{ name: 'trabajadores.xlsx', data: workbook([['NIF'], ['12345678Z']]) }]);
    const eva = await registerUser(server.app, 'eva@otra.es', 'Eva');
    const evas = await created(eva);
    // Saved before schedules were checked: Eva's schedule holds Ana's upload.
    const db = connectDatabase(server.database);
    try {
      await db.updateTable('flow_schedules').set({ flow_inputs: JSON.stringify({ mode: 'ok', workbook: [{ uploadId: anas?.id, name: 'trabajadores.xlsx' }] }) }).where('id', '=', evas._id).execute();
    } finally {
      await db.destroy();
    }
    const moved = await eva.request({ method: 'PUT', url: `/api/browserflow/schedule/${evas._id}?scheduledDate=2025-04-01T10:30:00%2B02:00` });
    expect(moved.statusCode).toBe(400);
    expect(moved.json()).toMatchObject({ issues: [{ path: 'flowInputs.workbook.0.uploadId', message: 'No se ha encontrado este archivo' }] });
    expect((await eva.get(`/api/browserflow/schedule/${evas._id}`)).json()).toMatchObject({ scheduledDate: TOMORROW_9 });
  });

  it('keeps another group’s schedules invisible and untouched', async () => {
    const one = await created(ana);
    const intruder = await registerUser(server.app, 'intruso@otra.es');
    expect((await intruder.get(`/api/browserflow/schedule/${one._id}`)).statusCode).toBe(404);
    expect((await intruder.get(`/api/browserflow/schedule/${one._id}?existSchedule=true`)).json()).toEqual({ exists: false });
    expect((await intruder.get('/api/browserflow/schedule?user=ana@asesoria.es')).json()).toEqual({ items: [] });
    const put = await intruder.request({ method: 'PUT', url: `/api/browserflow/schedule/${one._id}?scheduledDate=2025-05-01T10:00:00Z` });
    expect(put.statusCode).toBe(404);
    expect((await intruder.request({ method: 'DELETE', url: `/api/browserflow/schedule/${one._id}` })).statusCode).toBe(404);
    expect((await ana.get(`/api/browserflow/schedule/${one._id}`)).json()).toEqual(one);
  });
});
