import type { FastifyBaseLogger } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { supportPaths } from '#shared/api/support.ts';
import { createMailer } from '../../mail/mailer.ts';
import { registerUser, startTestServer } from '../../test/harness.ts';
import { startSmtpSink, type SmtpSink } from '../../test/smtp-sink.ts';
import { openTicket, registerAgent, SUPPORT, supportWorld, ticketPath, type SupportWorld } from './test-support.ts';

/** Issue 44, item 2: with SMTP configured, every mail that names a link carries it, in its text and as an <a href>. */

let sink: SmtpSink;
beforeEach(async () => {
  sink = await startSmtpSink();
});
afterEach(async () => sink.close());

const anchorTo = (link: string) => `<a href="${link.replace(/&/g, '&#38;')}">`;

describe('ticket mails through a real SMTP server', () => {
  let world: SupportWorld;
  beforeEach(async () => {
    world = supportWorld(await startTestServer({ support: SUPPORT, smtp: sink.config }));
  });
  afterEach(async () => world.close());

  it('the team\'s mail and the user\'s answer mail hold the ticket\'s link in text and HTML, and user text arrives escaped', async () => {
    const ana = await registerUser(world.server.app, 'ana@asesoria-uno.es', 'Ana Pérez');
    const ticket = await openTicket(ana, { subject: 'Falla <b>el alta</b>', body: 'Sale esto: <script>alert("x")</script> & nada más.' });

    const [received] = sink.mails().filter((mail) => mail.to.includes(SUPPORT.email));
    if (!received) throw new Error('el equipo de soporte no recibió el correo');
    const deskLink = `http://app.test/soporte?consulta=${ticket.id}`;
    expect(received.text).toContain(deskLink);
    expect(received.text).toContain('<script>alert("x")</script>');
    expect(received.html).toContain(anchorTo(deskLink));
    expect(received.html).not.toContain('<script>');
    expect(received.html).toContain('&#60;script&#62;alert(&#34;x&#34;)&#60;/script&#62; &#38; nada más.');
    expect(received.replyTo).toMatch(/^soporte\+/);

    const agent = await registerAgent(world, 'lucia@autoasesor.test');
    const answer = await agent.post(ticketPath(supportPaths.adminReplies, ticket.id), { body: 'Prueba <img src=x onerror=alert(1)> otra vez.' });
    expect(answer.statusCode, answer.body).toBe(201);

    const [answered] = sink.mails().filter((mail) => mail.to.includes('ana@asesoria-uno.es'));
    if (!answered) throw new Error('Ana no recibió la respuesta');
    const helpLink = `http://app.test/help?consulta=${ticket.id}`;
    expect(answered.subject).toBe('Respuesta a tu consulta: Falla <b>el alta</b>');
    expect(answered.text).toContain(helpLink);
    expect(answered.html).toContain(anchorTo(helpLink));
    expect(answered.html).not.toContain('<img');
    expect(answered.html).not.toContain('<b>');
    expect(answered.html).toContain('&#60;img src=x onerror=alert(1)&#62;');
  });

  it('a password reset mail (sendLink) carries its link in text and HTML', async () => {
    await registerUser(world.server.app, 'eva@asesoria-dos.es', 'Eva');
    const response = await world.server.app.inject({ method: 'POST', url: '/api/auth/resetpass', payload: { email: 'eva@asesoria-dos.es' } });
    expect(response.statusCode).toBe(202);
    const [reset] = sink.mails().filter((mail) => mail.to.includes('eva@asesoria-dos.es') && mail.subject.startsWith('Restablece'));
    if (!reset) throw new Error('no llegó el correo de restablecimiento');
    const link = /http:\/\/app\.test\/auth\/reset\?token=\S+/.exec(reset.text)?.[0];
    expect(link).toBeDefined();
    expect(reset.html).toContain(anchorTo(link ?? ''));
  });
});

describe('the SMTP mailer', () => {
  const log = { info: () => undefined } as unknown as FastifyBaseLogger;

  it('adds a link the text does not name, and builds the HTML part from the escaped lines', async () => {
    const mailer = createMailer(sink.config, log);
    await mailer.sendMessage({ to: 'empresa@cliente.test', subject: 'Aviso', text: 'Hola <empresa>:\n\nMira el enlace.', link: 'http://app.test/payments?a=1&b=2', purpose: 'payment_failed' });
    await mailer.sendMessage({ to: 'sin-enlace@cliente.test', subject: 'Sin enlace', text: 'Solo texto.', purpose: 'alta_registered' });

    const [withLink, withoutLink] = sink.mails();
    expect(withLink?.text).toBe('Hola <empresa>:\n\nMira el enlace.\n\nhttp://app.test/payments?a=1&b=2');
    expect(withLink?.html).toContain('<p style="margin:0 0 16px">Hola &#60;empresa&#62;:</p>');
    expect(withLink?.html).toContain('<a href="http://app.test/payments?a=1&#38;b=2">http://app.test/payments?a=1&#38;b=2</a>');
    // A mail with no link stays text only.
    expect(withoutLink?.text.trimEnd()).toBe('Solo texto.');
    expect(withoutLink?.html).toBeNull();
  });

  it('makes the web addresses a notice names clickable, and leaves a notice without any as text', async () => {
    const mailer = createMailer(sink.config, log);
    await mailer.sendNotice({ to: 'ana@asesoria.test', subject: 'Aviso', text: 'Motivo: <nada>\n\nPuedes ver la ejecución en el historial: http://app.test/flows?robot=a&desde=2026-12-03.', purpose: 'run_notice' });
    await mailer.sendNotice({ to: 'ana@asesoria.test', subject: 'Bloqueo', text: 'Tu cuenta está bloqueada 15 minutos.', purpose: 'account_locked' });
    const [withLink, plain] = sink.mails();
    expect(withLink?.html).toContain('Motivo: &#60;nada&#62;');
    expect(withLink?.html).toContain('historial: <a href="http://app.test/flows?robot=a&#38;desde=2026-12-03">http://app.test/flows?robot=a&#38;desde=2026-12-03</a>.');
    expect(plain?.html).toBeNull();
  });

  it('keeps a caller\'s own HTML part and still writes the link in the text', async () => {
    const mailer = createMailer(sink.config, log);
    await mailer.sendMessage({ to: 'cliente@cliente.test', subject: 'Formulario', text: 'Rellénalo.', html: '<p>Botón</p>', link: 'http://app.test/f/1', purpose: 'online_form_link' });
    const [mail] = sink.mails();
    expect(mail?.text).toBe('Rellénalo.\n\nhttp://app.test/f/1');
    expect(mail?.html).toBe('<p>Botón</p>');
  });
});
