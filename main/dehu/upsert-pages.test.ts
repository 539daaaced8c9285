/** Issue 39 (2): the DEHÚ robot's lists go to the server in bodies it takes, by count and by bytes. */
import { describe, expect, it } from 'vitest';
import { NOTIFICATIONS_MAX_UPSERT, NOTIFICATIONS_UPSERT_BODY_LIMIT, type RobotUpsert } from '#shared/api/notifications.ts';
import { dehuServerClient } from './server-client.ts';
import { lemaEnvio, lemaRealizada } from './testing/fake-lema.ts';

function recordingClient() {
  const bodies: string[] = [];
  const client = dehuServerClient({
    serverUrl: 'http://servidor.test',
    deviceToken: 'token',
    fetch: async (_url, init) => {
      bodies.push(String(init?.body));
      const upsert = JSON.parse(String(init?.body)) as RobotUpsert;
      return new Response(JSON.stringify({ added: upsert.pendientes.length + upsert.realizadas.length, updated: 0 }), { status: 200, headers: { 'content-type': 'application/json' } });
    },
  });
  return { client, bodies };
}

describe('upsert in pages', () => {
  it('keeps every body within NOTIFICATIONS_UPSERT_BODY_LIMIT and the count, sending everything once, in order', async () => {
    const long = (text: string) => text.padEnd(1000, 'ñ');
    const pendientes = Array.from({ length: 900 }, (_, index) => lemaEnvio(`P-${index}`, { descripcion: long(`aviso ${index}`) }));
    const realizadas = Array.from({ length: 300 }, (_, index) => lemaRealizada(`R-${index}`));
    const { client, bodies } = recordingClient();
    expect(await client.upsert('a'.repeat(64), pendientes, realizadas)).toEqual({ added: 1_200, updated: 0 });
    expect(bodies.length).toBeGreaterThan(1);
    for (const body of bodies) expect(Buffer.byteLength(body)).toBeLessThanOrEqual(NOTIFICATIONS_UPSERT_BODY_LIMIT);
    const sent = bodies.map((body) => JSON.parse(body) as RobotUpsert);
    for (const upsert of sent) expect(Math.max(upsert.pendientes.length, upsert.realizadas.length)).toBeLessThanOrEqual(NOTIFICATIONS_MAX_UPSERT);
    expect(sent.flatMap((upsert) => upsert.pendientes.map((item) => item.identificador))).toEqual(pendientes.map((item) => item.identificador));
    expect(sent.flatMap((upsert) => upsert.realizadas.map((item) => item.identificador))).toEqual(realizadas.map((item) => item.identificador));
  });

  it('still sends one body with nothing in it (the certificate is watched here)', async () => {
    const { client, bodies } = recordingClient();
    await client.upsert('a'.repeat(64), [], []);
    expect(bodies.map((body) => JSON.parse(body) as RobotUpsert)).toEqual([{ fingerprint: 'a'.repeat(64), pendientes: [], realizadas: [] }]);
  });
});
