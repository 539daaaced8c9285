import { describe, expect, it } from 'vitest';
import { SCHEDULE_MOVED_MESSAGE } from '#shared/api/autopilot.ts';
import { DeviceError } from './errors.ts';
import { deviceServerClient } from './server-client.ts';

const RUN = '6f1d1c1e-2b3a-4c5d-8e9f-0a1b2c3d4e5f';
const UPLOAD = '0d9c6a0e-4c1b-4f0a-9a57-7f3c2b1e0a11';

/** A client whose server answers every call with this response, recording the requests. */
function clientAnswering(answer: () => Response) {
  const requests: { url: string; authorization: string | null }[] = [];
  const client = deviceServerClient({
    serverUrl: 'https://autoasesor.test',
    deviceToken: 'secreto',
    fetch: async (input, init) => {
      requests.push({ url: String(input), authorization: new Headers(init?.headers).get('authorization') });
      return answer();
    },
  });
  return { client, requests };
}

describe('downloading a run file', () => {
  it('asks for the run’s file with the device token and returns its bytes', async () => {
    const bytes = new TextEncoder().encode('%PDF-1.4 justificante');
    const { client, requests } = clientAnswering(() => new Response(bytes, { headers: { 'content-length': String(bytes.length) } }));
    expect(await client.runFile(RUN, UPLOAD)).toEqual(bytes);
    expect(requests).toEqual([{ url: `https://autoasesor.test/api/device/runs/${RUN}/files/${UPLOAD}`, authorization: 'Device secreto' }]);
  });

  it('refuses a body of another size than its content-length, or one without a size', async () => {
    const short = clientAnswering(() => new Response('%PDF', { headers: { 'content-length': '4096' } })).client;
    await expect(short.runFile(RUN, UPLOAD)).rejects.toMatchObject({ reason: 'unreachable', message: 'El archivo ha llegado incompleto (4 de 4096 bytes).' });
    const unsized = clientAnswering(() => new Response(new ReadableStream({ start: (controller) => (controller.enqueue(new Uint8Array([1, 2])), controller.close()) }))).client;
    await expect(unsized.runFile(RUN, UPLOAD)).rejects.toBeInstanceOf(DeviceError);
  });

  it('answers a lost lease as a conflict and a revoked token as refused, with the server’s Spanish message', async () => {
    const json = (status: number, message: string) => () => new Response(JSON.stringify({ statusCode: status, code: 'X', message }), { status, headers: { 'content-type': 'application/json' } });
    await expect(clientAnswering(json(409, 'El dispositivo dejó de responder')).client.runFile(RUN, UPLOAD)).rejects.toMatchObject({ reason: 'conflict', message: 'El dispositivo dejó de responder' });
    await expect(clientAnswering(json(401, 'Ya no está conectado')).client.runFile(RUN, UPLOAD)).rejects.toMatchObject({ reason: 'token-refused' });
    await expect(clientAnswering(json(404, 'No se ha encontrado este archivo de la ejecución')).client.runFile(RUN, UPLOAD)).rejects.toMatchObject({
      reason: 'server',
      message: 'No se ha encontrado este archivo de la ejecución',
    });
  });
});

describe('the autopilot’s schedule calls', () => {
  const SCHEDULE = '3b2f0c1a-9d8e-4f7a-b6c5-d4e3f2a1b0c9';
  const AT = '2026-03-02T08:00:00.000Z';
  const schedule = {
    _id: SCHEDULE,
    browserFlowName: 'Descargar justificantes',
    browserFlow: 'descargar-justificantes',
    localProcess: null,
    scheduledDate: AT,
    repeat: true,
    every: 1,
    interval: 'days',
    user: { email: 'ana@asesoria.example', name: 'Ana' },
    machine: { _id: RUN, name: 'OFICINA-01' },
    flowInputs: {},
    sendOutputToServer: true,
    updatedAt: AT,
  };
  const slot = { runId: RUN, state: 'queued', launchStatus: null, result: null };
  const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

  /** A client whose server answers each call with the next response, recording method, URL and body. */
  function clientAnsweringInTurn(...answers: Response[]) {
    const requests: { method: string; url: string; body: unknown; authorization: string | null }[] = [];
    const client = deviceServerClient({
      serverUrl: 'https://autoasesor.test',
      deviceToken: 'secreto',
      fetch: async (input, init) => {
        requests.push({
          method: init?.method ?? 'GET',
          url: String(input),
          body: typeof init?.body === 'string' ? JSON.parse(init.body) : undefined,
          authorization: new Headers(init?.headers).get('authorization'),
        });
        const answer = answers.shift();
        if (!answer) throw new Error('no more answers');
        return answer;
      },
    });
    return { client, requests };
  }

  it('lists, checks, launches, follows, moves and deletes with the device token, at the contract’s paths', async () => {
    const { client, requests } = clientAnsweringInTurn(
      json(200, { items: [schedule] }),
      json(200, { exists: true, schedule }),
      json(200, slot),
      json(200, { ...slot, state: 'finished', launchStatus: 200, result: 'Success' }),
      json(200, { ...schedule, scheduledDate: '2026-03-03T08:00:00.000Z' }),
      new Response(null, { status: 204 }),
    );
    expect(await client.schedules()).toEqual([schedule]);
    expect(await client.checkSchedule(SCHEDULE)).toEqual({ exists: true, schedule });
    expect(await client.launchSlot(SCHEDULE, AT)).toEqual(slot);
    expect(await client.slotRun(SCHEDULE, RUN)).toMatchObject({ state: 'finished', launchStatus: 200 });
    expect((await client.advanceSchedule(SCHEDULE, AT, '2026-03-03T08:00:00.000Z')).scheduledDate).toBe('2026-03-03T08:00:00.000Z');
    await expect(client.removeSchedule(SCHEDULE, AT)).resolves.toBeUndefined();

    const base = 'https://autoasesor.test/api/device/schedules';
    expect(requests.map(({ method, url, body }) => ({ method, url, body }))).toEqual([
      { method: 'GET', url: base, body: undefined },
      { method: 'GET', url: `${base}/${SCHEDULE}`, body: undefined },
      { method: 'POST', url: `${base}/${SCHEDULE}/launch`, body: { scheduledDate: AT } },
      { method: 'GET', url: `${base}/${SCHEDULE}/runs/${RUN}`, body: undefined },
      { method: 'PUT', url: `${base}/${SCHEDULE}`, body: { from: AT, to: '2026-03-03T08:00:00.000Z' } },
      { method: 'DELETE', url: `${base}/${SCHEDULE}?from=${encodeURIComponent(AT)}`, body: undefined },
    ]);
    expect(new Set(requests.map((request) => request.authorization))).toEqual(new Set(['Device secreto']));
  });

  it('answers a schedule that is gone as not-found and one that moved as a conflict, with the server’s message or a Spanish one', async () => {
    const gone = clientAnsweringInTurn(json(404, { statusCode: 404, code: 'SCHEDULE_NOT_FOUND', message: 'Esta programación ya no existe' })).client;
    await expect(gone.launchSlot(SCHEDULE, AT)).rejects.toMatchObject({ reason: 'not-found', code: 'NOT_FOUND', message: 'Esta programación ya no existe' });
    const moved = clientAnsweringInTurn(json(409, { statusCode: 409, code: 'SCHEDULE_MOVED', message: SCHEDULE_MOVED_MESSAGE })).client;
    await expect(moved.advanceSchedule(SCHEDULE, AT, AT)).rejects.toMatchObject({ reason: 'conflict', message: SCHEDULE_MOVED_MESSAGE });
    const movedBare = clientAnsweringInTurn(new Response(null, { status: 409 })).client;
    await expect(movedBare.removeSchedule(SCHEDULE, AT)).rejects.toMatchObject({ reason: 'conflict', message: SCHEDULE_MOVED_MESSAGE });
    const goneBare = clientAnsweringInTurn(new Response(null, { status: 404 })).client;
    await expect(goneBare.removeSchedule(SCHEDULE, AT)).rejects.toMatchObject({ reason: 'not-found', message: 'Esta programación ya no existe.' });
  });

  it('answers a launch the server refuses (a withdrawn robot, invalid inputs) as refused, with its reason', async () => {
    const withdrawn = clientAnsweringInTurn(json(404, { statusCode: 404, code: 'FLOW_NOT_FOUND', message: 'No se ha podido programar este robot' })).client;
    await expect(withdrawn.launchSlot(SCHEDULE, AT)).rejects.toMatchObject({ reason: 'refused', message: 'No se ha podido programar este robot' });
    const invalid = clientAnsweringInTurn(json(400, { statusCode: 400, code: 'VALIDATION', message: 'Selecciona un certificado' })).client;
    await expect(invalid.launchSlot(SCHEDULE, AT)).rejects.toMatchObject({ reason: 'refused', message: 'Selecciona un certificado' });
  });

  it("answers a launch refused for the firm's full queue (429) as unreachable, so the slot is tried again", async () => {
    const full = clientAnsweringInTurn(json(429, { statusCode: 429, code: 'TOO_MANY_QUEUED_RUNS', message: 'Tu empresa ya tiene 2.000 robots esperando turno.' })).client;
    await expect(full.launchSlot(SCHEDULE, AT)).rejects.toMatchObject({ reason: 'unreachable', message: 'Tu empresa ya tiene 2.000 robots esperando turno.' });
  });

  it('refuses an answer that is not what the contract says, and counts a 5xx or no answer as unreachable', async () => {
    const odd = clientAnsweringInTurn(json(200, { runId: RUN, state: 'perdido', launchStatus: null, result: null })).client;
    await expect(odd.slotRun(SCHEDULE, RUN)).rejects.toMatchObject({ reason: 'server' });
    const down = clientAnsweringInTurn(json(503, { message: 'x' })).client;
    await expect(down.schedules()).rejects.toMatchObject({ reason: 'unreachable' });
    const silent = clientAnsweringInTurn().client;
    await expect(silent.checkSchedule(SCHEDULE)).rejects.toMatchObject({ reason: 'unreachable', message: expect.stringContaining('No se puede contactar') });
  });
});
