import { describe, expect, it } from 'vitest';
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
