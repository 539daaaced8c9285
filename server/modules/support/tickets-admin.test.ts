import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { supportPaths, ticketPageSchema, ticketSchema } from '#shared/api/support.ts';
import { registerUser, startTestServer, type CookieJar } from '../../test/harness.ts';
import { openTicket, registerAgent, runOf, SUPPORT, supportWorld, TICKET_TABLES, ticketPath, uploadedFile, type SupportWorld } from './test-support.ts';

let world: SupportWorld;
let ana: CookieJar;
let agent: CookieJar;
beforeEach(async () => {
  world = supportWorld(await startTestServer({ support: SUPPORT }));
  ana = await registerUser(world.server.app, 'ana@asesoria-uno.es', 'Ana Pérez');
  agent = await registerAgent(world, 'lucia@autoasesor.test', 'Lucía Soporte');
});
afterEach(async () => world.close());

describe('the support team\'s desk', () => {
  it('answers 404 on every admin path to anyone who is not an agent, and writes nothing', async () => {
    const ticket = await openTicket(ana);
    const fileId = await uploadedFile(ana);
    const before = world.server.countTables(TICKET_TABLES);
    const paths = [
      { method: 'GET', url: supportPaths.adminTickets },
      { method: 'GET', url: ticketPath(supportPaths.adminTicket, ticket.id) },
      { method: 'POST', url: ticketPath(supportPaths.adminReplies, ticket.id), payload: { body: 'Hola' } },
      { method: 'PUT', url: ticketPath(supportPaths.adminStatus, ticket.id), payload: { status: 'closed' } },
      { method: 'GET', url: ticketPath(supportPaths.adminAttachment, ticket.id, { fileId }) },
    ] as const;
    for (const path of paths) {
      const asFirm = await ana.request(path);
      expect(asFirm.statusCode, `${path.method} ${path.url}`).toBe(404);
      expect(asFirm.json()).toEqual({ statusCode: 404, code: 'NOT_FOUND', message: 'Recurso no encontrado' });
      expect((await world.server.app.inject(path)).statusCode).toBe(404);
    }
    // A removed agent is no longer one.
    await world.db.updateTable('users').set({ disabled_at: new Date().toISOString() }).where('email', '=', 'lucia@autoasesor.test').execute();
    expect((await agent.get(supportPaths.adminTickets)).statusCode).not.toBe(200);
    expect(world.server.countTables(TICKET_TABLES)).toEqual(before);
  });

  it('lists every firm\'s tickets by status, with the firm\'s name and what the team has not read', async () => {
    const eva = await registerUser(world.server.app, 'eva@asesoria-dos.es', 'Eva');
    const first = await openTicket(ana, { subject: 'Primera' });
    await openTicket(eva, { subject: 'Segunda' });
    await ana.post(ticketPath(supportPaths.replies, first.id), { body: 'Y otra cosa' });

    const all = ticketPageSchema.parse((await agent.get(supportPaths.adminTickets)).json());
    expect(all.total).toBe(2);
    expect(all.items.map((ticket) => [ticket.subject, ticket.unread, typeof ticket.firmName])).toEqual([['Primera', 2, 'string'], ['Segunda', 1, 'string']]);

    await agent.put(ticketPath(supportPaths.adminStatus, first.id), { status: 'closed' });
    const open = ticketPageSchema.parse((await agent.get(`${supportPaths.adminTickets}?status=open`)).json());
    expect(open.items.map((ticket) => ticket.subject)).toEqual(['Segunda']);
    const closed = ticketPageSchema.parse((await agent.get(`${supportPaths.adminTickets}?status=closed`)).json());
    expect(closed.items.map((ticket) => ticket.subject)).toEqual(['Primera']);
    expect((await agent.get(`${supportPaths.adminTickets}?status=perdido`)).statusCode).toBe(400);
  });

  it('counts unread answers on both sides: up with each message, down when read', async () => {
    const ticket = await openTicket(ana);
    const adminUnread = async () => ticketPageSchema.parse((await agent.get(supportPaths.adminTickets)).json()).items[0]?.unread;
    const firmUnread = async () => (await ana.get(supportPaths.unread)).json().unread as number;
    expect(await adminUnread()).toBe(1);
    expect(await firmUnread()).toBe(0);

    const read = ticketSchema.parse((await agent.get(ticketPath(supportPaths.adminTicket, ticket.id))).json());
    expect(read).toMatchObject({ unread: 0, firmName: expect.any(String), messages: [expect.objectContaining({ author: 'user' })] });
    expect(await adminUnread()).toBe(0);

    const answered = await agent.post(ticketPath(supportPaths.adminReplies, ticket.id), { body: 'Prueba a reiniciar el equipo.' });
    expect(answered.statusCode).toBe(201);
    expect(ticketSchema.parse(answered.json())).toMatchObject({ status: 'answered', messages: [expect.anything(), expect.objectContaining({ author: 'support', authorName: 'Lucía Soporte', via: 'app' })] });
    await agent.post(ticketPath(supportPaths.adminReplies, ticket.id), { body: 'Y dinos si funciona.' });
    expect(await firmUnread()).toBe(2);
    expect(ticketPageSchema.parse((await ana.get(supportPaths.tickets)).json()).items[0]).toMatchObject({ unread: 2, status: 'answered' });

    const seen = ticketSchema.parse((await ana.get(ticketPath(supportPaths.ticket, ticket.id))).json());
    expect(seen.unread).toBe(0);
    expect(seen.messages?.map((message) => message.body)).toEqual(['El robot se queda parado al entrar.', 'Prueba a reiniciar el equipo.', 'Y dinos si funciona.']);
    expect(await firmUnread()).toBe(0);

    // The firm's reply reopens the ticket, even a closed one, and the team has one more to read.
    await agent.put(ticketPath(supportPaths.adminStatus, ticket.id), { status: 'closed' });
    const reopened = ticketSchema.parse((await ana.post(ticketPath(supportPaths.replies, ticket.id), { body: 'Ya funciona, gracias.' })).json());
    expect(reopened.status).toBe('open');
    expect(await adminUnread()).toBe(1);
  });

  it('emails each answer to the user who opened the ticket', async () => {
    const ticket = await openTicket(ana, { subject: 'Certificado caducado' });
    await agent.post(ticketPath(supportPaths.adminReplies, ticket.id), { body: 'Renueva el certificado en la FNMT.' });
    const mails = world.server.mailedMessages('ticket_answer');
    expect(mails).toEqual([expect.objectContaining({ to: 'ana@asesoria-uno.es', link: `http://app.test/help?consulta=${ticket.id}` })]);
    expect(mails[0]?.text).toContain('Renueva el certificado en la FNMT.');
    const subject = world.server.logLines().find((line) => (line.mail as { purpose?: string } | undefined)?.purpose === 'ticket_answer')?.msg;
    expect(subject).toContain('Respuesta a tu consulta: Certificado caducado');
  });

  it('refuses a bad status or an empty answer, writing nothing; another ticket id is 404', async () => {
    const ticket = await openTicket(ana);
    const before = world.server.countTables(TICKET_TABLES);
    expect((await agent.put(ticketPath(supportPaths.adminStatus, ticket.id), { status: 'archivado' })).statusCode).toBe(400);
    expect((await agent.post(ticketPath(supportPaths.adminReplies, ticket.id), { body: ' ' })).statusCode).toBe(400);
    expect((await agent.get(ticketPath(supportPaths.adminTicket, '00000000-0000-4000-8000-000000000000'))).statusCode).toBe(404);
    expect(world.server.countTables(TICKET_TABLES)).toEqual(before);
    expect(world.server.mailedMessages('ticket_answer')).toEqual([]);
  });

  it('lets the team download a ticket\'s files, and attach its own to an answer', async () => {
    const fileId = await uploadedFile(ana, 'error.csv', 'x;y\n');
    const ticket = await openTicket(ana, { attachmentIds: [fileId] });
    const download = await agent.get(ticketPath(supportPaths.adminAttachment, ticket.id, { fileId }));
    expect(download.statusCode).toBe(200);
    expect(download.body).toBe('x;y\n');

    const guide = await uploadedFile(agent, 'guia.csv', 'paso;accion\n');
    const answered = ticketSchema.parse((await agent.post(ticketPath(supportPaths.adminReplies, ticket.id), { body: 'Te paso la guía.', attachmentIds: [guide] })).json());
    expect(answered.messages?.[1]?.attachments).toEqual([{ fileId: guide, name: 'guia.csv', size: 12 }]);
    expect((await ana.get(ticketPath(supportPaths.attachment, ticket.id, { fileId: guide }))).body).toBe('paso;accion\n');
  });
});

describe("the ticket's run on the desk", () => {
  it('tells the team how the run ended (they cannot open the firm’s history); the firm’s own answer has no outcome', async () => {
    const runId = await runOf(world, 'ana@asesoria-uno.es', 'Validar identificadores');
    await world.db.updateTable('flow_runs').set({ result: 'WrongInput', message: 'La hoja no tiene la columna NIF' }).where('id', '=', runId).execute();
    const ticket = await openTicket(ana, { runId });
    const onDesk = ticketSchema.parse((await agent.get(ticketPath(supportPaths.adminTicket, ticket.id))).json());
    expect(onDesk.run).toEqual({
      id: runId,
      robot: 'Validar identificadores',
      createdAt: '2026-11-20T09:00:00.000Z',
      outcome: { state: 'finished', result: 'WrongInput', stoppedByUser: false, message: 'La hoja no tiene la columna NIF', finishedAt: expect.any(String) },
    });
    expect(ticketSchema.parse((await ana.get(ticketPath(supportPaths.ticket, ticket.id))).json()).run).not.toHaveProperty('outcome');
  });
});
