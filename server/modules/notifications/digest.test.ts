import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { MessageEmail } from '../../mail/mailer.ts';
import { startTestServer, type TestServer } from '../../test/harness.ts';
import { registerColleague, withDatabase } from '../machines/test-support.ts';
import { NotificationsDigest } from './digest.ts';
import { Clock, envio, firmWithPc, upsert, type TestFirm } from './test-support.ts';

let server: TestServer;
let clock: Clock;
let firm: TestFirm;

beforeEach(async () => {
  clock = new Clock();
  server = await startTestServer({ now: clock.now, notificationsDigestIntervalMs: 0 });
  firm = await firmWithPc(server, 'ana@asesoria.es', 'despacho');
  await registerColleague(server, 'luis@asesoria.es', 'ana@asesoria.es');
});
afterEach(async () => server.close());

const HOUR = 3_600_000;

/** Runs one pass of `count` digest instances at once over their own connections (two server processes). */
async function runDigests(count: number, sent: MessageEmail[]): Promise<number[]> {
  return withDatabase(server, async (db) => {
    const digests = Array.from({ length: count }, () => new NotificationsDigest({ db, mailer: { sendMessage: async (email) => void sent.push(email) }, now: clock.now, publicUrl: 'https://app.test' }));
    return Promise.all(digests.map((digest) => digest.run()));
  });
}

describe('daily digest', () => {
  it('mails each user of the firm once per Madrid day after 08:00, listing new and expiring notifications', async () => {
    // 10 March 06:30 Madrid: too early.
    clock.current = new Date('2026-03-10T05:30:00.000Z');
    await upsert(firm.device, firm.fingerprints[0], [
      envio({ titular: { nombre: 'MARÍA PEÑA', nif: '12345678Z' }, concepto: 'Embargo', organismoEmisor: { codigo: 'E2', nombre: 'Seguridad Social' }, fechaPuestaDisposicion: '2026-03-01T12:00:00+01:00' }),
    ]);
    const sent: MessageEmail[] = [];
    expect(await runDigests(1, sent)).toEqual([0]);
    clock.advance(2 * HOUR); // 08:30
    expect((await runDigests(2, sent)).sort()).toEqual([0, 1]);
    expect(sent.map((email) => email.to).sort()).toEqual(['ana@asesoria.es', 'luis@asesoria.es']);
    const [email] = sent;
    expect(email).toMatchObject({ purpose: 'dehu_digest', subject: 'Resumen diario de notificaciones DEHÚ', link: 'https://app.test/notifications' });
    expect(email?.text).toContain('Notificaciones nuevas en DEHÚ (1):');
    expect(email?.text).toContain('caducan en los próximos 3 días (1):');
    expect(email?.text).toContain('- MARÍA PEÑA · Seguridad Social · Embargo · caduca el 11/03/2026');
    // Later the same day, even with something new: nothing more.
    await upsert(firm.device, firm.fingerprints[0], [envio()]);
    clock.advance(6 * HOUR);
    expect(await runDigests(1, sent)).toEqual([0]);
    expect(sent).toHaveLength(2);
  });

  it('the next day lists only what is new since the last digest, and sends nothing when there is nothing to say', async () => {
    clock.current = new Date('2026-03-10T08:00:00.000Z'); // 09:00
    await upsert(firm.device, firm.fingerprints[0], [envio({ titular: { nombre: 'PRIMERO', nif: '1' }, fechaPuestaDisposicion: '2026-03-09T12:00:00+01:00' })]);
    const sent: MessageEmail[] = [];
    expect(await runDigests(1, sent)).toEqual([1]);
    clock.advance(24 * HOUR);
    // Nothing new, and its caducidad (19 March) is not within 3 days: no digest.
    expect(await runDigests(1, sent)).toEqual([0]);
    clock.advance(HOUR);
    await upsert(firm.device, firm.fingerprints[0], [envio({ titular: { nombre: 'SEGUNDO', nif: '2' }, fechaPuestaDisposicion: '2026-03-10T12:00:00+01:00' })]);
    expect(await runDigests(1, sent)).toEqual([1]);
    const last = sent.at(-1)?.text ?? '';
    expect(last).toContain('SEGUNDO');
    expect(last).not.toContain('PRIMERO');
    const day = await withDatabase(server, (db) => db.selectFrom('dehu_digests').select('last_day').executeTakeFirstOrThrow());
    expect(day.last_day).toBe('2026-03-11');
  });

  it("never mails another firm's users about this firm", async () => {
    clock.current = new Date('2026-03-10T09:00:00.000Z');
    await firmWithPc(server, 'eva@otra.es', 'otra');
    await upsert(firm.device, firm.fingerprints[0], [envio()]);
    const sent: MessageEmail[] = [];
    expect(await runDigests(1, sent)).toEqual([1]);
    expect(sent.map((email) => email.to)).not.toContain('eva@otra.es');
  });
});

describe('the digest timer of the app', () => {
  it('sends the digest through the server mailer on its own, once', async () => {
    await server.close();
    clock = new Clock(new Date('2026-03-10T09:00:00.000Z'));
    server = await startTestServer({ now: clock.now, notificationsDigestIntervalMs: 20 });
    firm = await firmWithPc(server, 'ana@asesoria.es', 'despacho');
    await upsert(firm.device, firm.fingerprints[0], [envio({ titular: { nombre: 'NUEVA SL', nif: 'B1' } })]);
    await expect.poll(() => server.mailedMessages('dehu_digest').length, { timeout: 5_000 }).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const [message] = server.mailedMessages('dehu_digest');
    expect(server.mailedMessages('dehu_digest')).toHaveLength(1);
    expect(message).toMatchObject({ to: 'ana@asesoria.es', link: 'http://app.test/notifications' });
    expect(message?.text).toContain('NUEVA SL');
  });
});
