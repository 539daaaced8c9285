import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { supportPaths, ticketSchema, type Ticket } from '#shared/api/support.ts';
import { registerUser, startTestServer, type CookieJar } from '../../test/harness.ts';
import { INBOUND_UNVERIFIED_SENDER_MESSAGE, withoutQuotedHistory } from './inbound.ts';
import { replyAddress } from './reply-address.ts';
import { openTicket, registerAgent, SUPPORT, supportWorld, TICKET_TABLES, ticketPath, type SupportWorld } from './test-support.ts';

const TOKEN = SUPPORT.inbound?.token ?? '';
const SECRET = SUPPORT.inbound?.replySecret ?? '';

/** The receiving service's verdict: DKIM signed by the sender's own domain. */
const dkimPass = (domain: string) => `Authentication-Results: mx.correo.test; dkim=pass header.d=${domain} header.s=s1 header.b=abc; spf=none smtp.mailfrom=${domain}`;

/**
 * An agent's reply as the mail service hands it over: raw RFC 822. Unless `auth` says otherwise it
 * carries a passing DKIM result for the From domain.
 */
function replyEmail(options: { to: string; from?: string; messageId?: string; body: string; cc?: string; headers?: string[]; auth?: string[] }): string {
  const from = options.from ?? 'lucia@autoasesor.test';
  return [
    ...(options.auth ?? [dkimPass(from.split('@')[1] ?? '')]),
    `From: Lucía Soporte <${from}>`,
    `To: ${options.to}`,
    ...(options.cc ? [`Cc: ${options.cc}`] : []),
    ...(options.headers ?? []),
    'Subject: Re: [Consulta] No arranca el robot',
    `Message-ID: <${options.messageId ?? 'respuesta-1@correo.autoasesor.test'}>`,
    'Date: Fri, 27 Nov 2026 10:00:00 +0100',
    'MIME-Version: 1.0',
    'Content-Type: text/plain; charset=utf-8',
    'Content-Transfer-Encoding: 8bit',
    '',
    options.body,
  ].join('\r\n');
}

let world: SupportWorld;
let ana: CookieJar;
let ticket: Ticket;
beforeEach(async () => {
  world = supportWorld(await startTestServer({ support: SUPPORT }));
  ana = await registerUser(world.server.app, 'ana@asesoria-uno.es', 'Ana Pérez');
  await registerAgent(world, 'lucia@autoasesor.test', 'Lucía Soporte');
  ticket = await openTicket(ana);
});
afterEach(async () => world.close());

const post = (raw: string, token = TOKEN, contentType = 'message/rfc822') =>
  world.server.app.inject({ method: 'POST', url: supportPaths.inbound, headers: { 'content-type': contentType, authorization: `Bearer ${token}` }, payload: raw });

describe('answers by email (POST /api/support/inbound)', () => {
  it('keeps an agent\'s reply once, without the quoted history, and emails the user', async () => {
    const [notification] = world.server.mailedMessages('ticket_received');
    const raw = replyEmail({
      to: notification?.replyTo ?? '',
      body: 'Hola Ana,\n\nprueba a reiniciar el equipo.\n\nEl jue, 26 nov 2026 a las 9:00, AutoAsesor <soporte@autoasesor.test> escribió:\n> El robot se queda parado al entrar.\n',
    });
    expect((await post(raw)).statusCode).toBe(204);
    const after = world.server.countTables(TICKET_TABLES);
    expect((await post(raw)).statusCode).toBe(204);
    expect(world.server.countTables(TICKET_TABLES)).toEqual(after);

    const read = ticketSchema.parse((await ana.get(ticketPath(supportPaths.ticket, ticket.id))).json());
    expect(read.status).toBe('answered');
    expect(read.messages?.map((message) => [message.author, message.via, message.authorName, message.body])).toEqual([
      ['user', 'app', 'Ana Pérez', 'El robot se queda parado al entrar.'],
      ['support', 'email', 'Lucía Soporte', 'Hola Ana,\n\nprueba a reiniciar el equipo.'],
    ]);
    expect(world.server.mailedMessages('ticket_answer')).toEqual([expect.objectContaining({ to: 'ana@asesoria-uno.es' })]);
  });

  it('finds the reply address in Cc or Delivered-To too', async () => {
    const address = replyAddress(SUPPORT.email, SECRET, ticket.id);
    expect((await post(replyEmail({ to: 'otra@asesoria.es', cc: address, body: 'Por copia.', messageId: 'cc@x' }))).statusCode).toBe(204);
    expect((await post(replyEmail({ to: 'soporte@autoasesor.test', headers: [`Delivered-To: ${address}`], body: 'Por entrega.', messageId: 'dt@x' }))).statusCode).toBe(204);
    expect(world.server.countRows('support_messages')).toBe(3);
  });

  it('refuses without writing: a wrong token (401), a forged mac (404), a sender who is not an agent (403)', async () => {
    const address = replyAddress(SUPPORT.email, SECRET, ticket.id);
    const before = world.server.countTables(TICKET_TABLES);

    expect((await post(replyEmail({ to: address, body: 'Hola' }), 'otro-token-cualquiera')).statusCode).toBe(401);
    expect((await world.server.app.inject({ method: 'POST', url: supportPaths.inbound, headers: { 'content-type': 'message/rfc822' }, payload: replyEmail({ to: address, body: 'Hola' }) })).statusCode).toBe(401);

    const forged = replyAddress(SUPPORT.email, 'otro-secreto-que-no-es-el-nuestro', ticket.id);
    expect((await post(replyEmail({ to: forged, body: 'Hola' }))).statusCode).toBe(404);
    const otherTicket = address.replace(ticket.id, '00000000-0000-4000-8000-000000000000');
    expect((await post(replyEmail({ to: otherTicket, body: 'Hola' }))).statusCode).toBe(404);

    const firmUser = await post(replyEmail({ to: address, from: 'ana@asesoria-uno.es', body: 'Me respondo a mí misma' }));
    expect(firmUser.statusCode).toBe(403);
    expect(firmUser.json().code).toBe('NOT_SUPPORT_AGENT');

    expect((await post(replyEmail({ to: address, body: '> solo lo citado' }))).statusCode).toBe(400);
    expect((await post('{"no":"es un correo"}', TOKEN, 'application/json')).statusCode).toBe(415);
    expect((await post(replyEmail({ to: address, body: 'x'.repeat(10 * 1024 * 1024 + 1) }))).statusCode).toBe(413);

    expect(world.server.countTables(TICKET_TABLES)).toEqual(before);
    expect(world.server.mailedMessages('ticket_answer')).toEqual([]);
  });

  it('refuses a From the receiving service did not vouch for (403), logged, after the token and the reply address', async () => {
    const address = replyAddress(SUPPORT.email, SECRET, ticket.id);
    const before = world.server.countTables(TICKET_TABLES);
    const refused = async (raw: string) => {
      const response = await post(raw);
      expect(response.statusCode, response.body).toBe(403);
      expect(response.json()).toMatchObject({ code: 'SENDER_NOT_VERIFIED', message: INBOUND_UNVERIFIED_SENDER_MESSAGE });
    };

    await refused(replyEmail({ to: address, body: 'Soy soporte, de verdad', auth: [] }));
    await refused(replyEmail({ to: address, body: 'Firmado por otro', auth: ['Authentication-Results: mx.correo.test; dkim=pass header.d=correo-ajeno.es header.i=@correo-ajeno.es; spf=pass smtp.mailfrom=x@correo-ajeno.es'] }));
    await refused(replyEmail({ to: address, body: 'Firma rota', auth: ['Authentication-Results: mx.correo.test; dkim=fail (bad signature) header.d=autoasesor.test; spf=softfail smtp.mailfrom=lucia@autoasesor.test; dmarc=fail header.from=autoasesor.test'] }));
    // A subdomain's signature is not the domain's.
    await refused(replyEmail({ to: address, body: 'Subdominio', auth: ['Authentication-Results: mx.correo.test; dkim=pass header.d=mail.autoasesor.test'] }));
    // A passing verdict the sender wrote into the message itself: not by our receiver (SUPPORT_INBOUND_AUTHSERV_ID).
    await refused(replyEmail({ to: address, body: 'Cabecera falsa', auth: ['Authentication-Results: mx.falso.test; dkim=pass header.d=autoasesor.test'] }));

    expect((await post(replyEmail({ to: address, body: 'Hola', auth: [] }), 'otro-token-cualquiera')).statusCode).toBe(401);
    const forged = replyAddress(SUPPORT.email, 'otro-secreto-que-no-es-el-nuestro', ticket.id);
    expect((await post(replyEmail({ to: forged, body: 'Hola', auth: [] }))).statusCode).toBe(404);

    expect(world.server.countTables(TICKET_TABLES)).toEqual(before);
    expect(world.server.mailedMessages('ticket_answer')).toEqual([]);
    const warnings = world.server.logLines().filter((line) => line.level === 40 && line.from === 'lucia@autoasesor.test');
    expect(warnings).toHaveLength(5);
  });

  it('counts only the verdicts the receiving service added on top, not a passing one the sender wrote lower down', async () => {
    const address = replyAddress(SUPPORT.email, SECRET, ticket.id);
    const before = world.server.countTables(TICKET_TABLES);
    const service = 'Authentication-Results: mx.correo.test; dkim=none; spf=fail smtp.mailfrom=lucia@autoasesor.test; dmarc=fail header.from=autoasesor.test';
    const received = 'Received: from mail.falso.test (mail.falso.test [198.51.100.7]) by mx.correo.test with ESMTPS id abc; Fri, 27 Nov 2026 10:00:01 +0100';
    const forged = 'Authentication-Results: mx.correo.test; dkim=pass header.d=autoasesor.test; spf=pass smtp.mailfrom=lucia@autoasesor.test; dmarc=pass header.from=autoasesor.test';
    const body = 'Para terminar, envíenos la contraseña de su certificado digital.';
    for (const auth of [
      // The receiving service's verdict on top, then its Received, then the sender's own header.
      [service, received, forged],
      // The service's topmost verdict says DKIM failed; a header right below it saying everything passed does not count.
      ['Authentication-Results: mx.correo.test; dkim=fail (bad signature) header.d=autoasesor.test', forged, received],
      [service, forged, received],
    ]) {
      const response = await post(replyEmail({ to: address, body, auth }));
      expect(response.statusCode, response.body).toBe(403);
      expect(response.json()).toMatchObject({ code: 'SENDER_NOT_VERIFIED' });
    }
    // Below From, among the sender's own headers, likewise.
    expect((await post(replyEmail({ to: address, body, auth: [service, received], headers: [forged] }))).statusCode).toBe(403);
    expect(world.server.countTables(TICKET_TABLES)).toEqual(before);
    expect(world.server.mailedMessages('ticket_answer')).toEqual([]);

    // The genuine reply, as it arrives: the service's passing verdict above its Received and the sender's trace.
    const genuine = [
      dkimPass('autoasesor.test'),
      'Received: from mail.autoasesor.test (mail.autoasesor.test [192.0.2.1]) by mx.correo.test with ESMTPS id def; Fri, 27 Nov 2026 10:00:01 +0100',
      'Received: from [10.0.0.5] by mail.autoasesor.test; Fri, 27 Nov 2026 10:00:00 +0100',
    ];
    expect((await post(replyEmail({ to: address, body: 'Reinicie el equipo, por favor.', auth: genuine }))).statusCode).toBe(204);
    expect(world.server.mailedMessages('ticket_answer')).toEqual([expect.objectContaining({ to: 'ana@asesoria-uno.es' })]);
  });

  it('takes SPF for the From domain or DMARC for it as the vouching', async () => {
    const address = replyAddress(SUPPORT.email, SECRET, ticket.id);
    const spf = ['Authentication-Results: mx.correo.test; dkim=none;\r\n SPF=Pass (correo.test: domain of lucia@autoasesor.test; designates 192.0.2.1 as permitted sender)\r\n smtp.mailfrom=Lucia@AutoAsesor.test'];
    expect((await post(replyEmail({ to: address, body: 'Por SPF.', messageId: 'spf@x', auth: spf }))).statusCode).toBe(204);
    const dmarc = ['Authentication-Results: mx.correo.test; dkim=pass header.d=proveedor-de-envio.es; spf=pass smtp.mailfrom=rebote@proveedor-de-envio.es; dmarc=pass (p=NONE sp=NONE) header.from=autoasesor.test'];
    expect((await post(replyEmail({ to: address, body: 'Por DMARC.', messageId: 'dmarc@x', auth: dmarc }))).statusCode).toBe(204);
    expect(world.server.countRows('support_messages')).toBe(3);
  });

  it('is not there without the inbound settings', async () => {
    await world.close();
    world = supportWorld(await startTestServer({ support: { email: SUPPORT.email } }));
    const response = await post(replyEmail({ to: replyAddress(SUPPORT.email, SECRET, 'x'), body: 'Hola' }));
    expect(response.statusCode).toBe(404);
  });
});

describe('withoutQuotedHistory', () => {
  it('cuts at the attribution line, also when it wraps, at Outlook\'s separator or at the first quoted line', () => {
    expect(withoutQuotedHistory('Listo.\r\n\r\nOn Thu, Nov 26, 2026 at 9:00 AM Ana <ana@x.es> wrote:\r\n> hola')).toBe('Listo.');
    expect(withoutQuotedHistory('Listo.\n\nEl jue, 26 nov 2026 a las 9:00, Ana Pérez (<ana@x.es>)\nescribió:\n\n> hola')).toBe('Listo.');
    expect(withoutQuotedHistory('Listo.\n\n-----Mensaje original-----\nDe: Ana')).toBe('Listo.');
    expect(withoutQuotedHistory('Primera línea\n> citado\nmás')).toBe('Primera línea');
    expect(withoutQuotedHistory('El equipo lo revisa hoy.\nUn saludo')).toBe('El equipo lo revisa hoy.\nUn saludo');
  });
});
