import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { supportPaths, TICKET_ATTACHMENT_NOT_FOUND_MESSAGE, TICKET_RUN_NOT_FOUND_MESSAGE, ticketPageSchema, ticketSchema, type Ticket } from '#shared/api/support.ts';
import { registerUser, startTestServer, type CookieJar } from '../../test/harness.ts';
import { replyAddress } from './reply-address.ts';
import { openTicket, runOf, SUPPORT, supportWorld, TICKET_TABLES, ticketPath, uploadedFile, type SupportWorld } from './test-support.ts';

let world: SupportWorld;
let ana: CookieJar;
beforeEach(async () => {
  world = supportWorld(await startTestServer({ support: SUPPORT }));
  ana = await registerUser(world.server.app, 'ana@asesoria-uno.es', 'Ana Pérez');
});
afterEach(async () => world.close());

describe('a firm\'s tickets', () => {
  it('opens a ticket about a run with files, and reads it back with its messages', async () => {
    const runId = await runOf(world, 'ana@asesoria-uno.es', 'Alta en la Seguridad Social');
    const fileId = await uploadedFile(ana, 'plantilla.csv');
    const ticket = ticketSchema.parse(await openTicket(ana, { subject: '  Falla el alta  ', category: 'robots', body: 'No termina.', runId, attachmentIds: [fileId] }));
    expect(ticket).toMatchObject({ subject: 'Falla el alta', category: 'robots', status: 'open', unread: 0, openedBy: { name: 'Ana Pérez', email: 'ana@asesoria-uno.es' } });
    expect(ticket.run).toEqual({ id: runId, robot: 'Alta en la Seguridad Social', createdAt: '2026-11-20T09:00:00.000Z' });
    expect(ticket.firmName).toBeUndefined();
    expect(ticket.messages).toEqual([
      expect.objectContaining({ author: 'user', authorName: 'Ana Pérez', body: 'No termina.', via: 'app', attachments: [{ fileId, name: 'plantilla.csv', size: 25 }] }),
    ]);

    const read = await ana.get(ticketPath(supportPaths.ticket, ticket.id));
    expect(read.statusCode).toBe(200);
    expect(ticketSchema.parse(read.json()).messages).toHaveLength(1);
  });

  it('shows the firm\'s tickets to every member of the firm, and to nobody else', async () => {
    const ticket = await openTicket(ana);
    // A colleague of the same firm, placed in it as an accepted invitation would.
    const colleague = await registerUser(world.server.app, 'luis@asesoria-uno.es', 'Luis');
    const anaGroup = await world.db.selectFrom('users').select('group_id').where('email', '=', 'ana@asesoria-uno.es').executeTakeFirstOrThrow();
    await world.db.updateTable('users').set({ group_id: anaGroup.group_id }).where('email', '=', 'luis@asesoria-uno.es').execute();
    expect((await colleague.get(ticketPath(supportPaths.ticket, ticket.id))).statusCode).toBe(200);
    expect(ticketPageSchema.parse((await colleague.get(supportPaths.tickets)).json()).total).toBe(1);

    const fileId = await uploadedFile(ana);
    const withFile = await openTicket(ana, { attachmentIds: [fileId] });
    const other = await registerUser(world.server.app, 'eva@asesoria-dos.es', 'Eva');
    const before = world.server.countTables(TICKET_TABLES);
    expect((await other.get(ticketPath(supportPaths.ticket, ticket.id))).statusCode).toBe(404);
    expect((await other.post(ticketPath(supportPaths.replies, ticket.id), { body: 'Hola' })).statusCode).toBe(404);
    expect((await other.get(ticketPath(supportPaths.attachment, withFile.id, { fileId }))).statusCode).toBe(404);
    expect(ticketPageSchema.parse((await other.get(supportPaths.tickets)).json())).toEqual({ items: [], page: 1, pageCount: 0, total: 0 });
    expect((await other.get(supportPaths.unread)).json()).toEqual({ unread: 0 });
    expect(world.server.countTables(TICKET_TABLES)).toEqual(before);
  });

  it('needs a session', async () => {
    expect((await world.server.app.inject({ method: 'GET', url: supportPaths.tickets })).statusCode).toBe(401);
    expect((await world.server.app.inject({ method: 'POST', url: supportPaths.tickets, payload: {} })).statusCode).toBe(401);
  });

  it('refuses bad input with 400 and writes nothing', async () => {
    const other = await registerUser(world.server.app, 'eva@asesoria-dos.es', 'Eva');
    const foreignRun = await runOf(world, 'eva@asesoria-dos.es');
    const foreignFile = await uploadedFile(other);
    const ownFile = await uploadedFile(ana);
    const before = world.server.countTables(TICKET_TABLES);
    const base = { subject: 'Duda', category: 'cuenta', body: 'Una pregunta.' };

    const badCategory = await ana.post(supportPaths.tickets, { ...base, category: 'quejas' });
    expect(badCategory.statusCode).toBe(400);
    expect(badCategory.json().issues).toEqual([expect.objectContaining({ path: 'category', message: 'Elige de qué trata la consulta' })]);
    const emptyBody = await ana.post(supportPaths.tickets, { ...base, body: '   ' });
    expect(emptyBody.statusCode).toBe(400);
    expect(emptyBody.json().issues).toEqual([expect.objectContaining({ path: 'body', message: 'Escribe tu mensaje' })]);
    const otherRun = await ana.post(supportPaths.tickets, { ...base, runId: foreignRun });
    expect(otherRun.statusCode).toBe(400);
    expect(otherRun.json()).toMatchObject({ code: 'TICKET_RUN_NOT_FOUND', message: TICKET_RUN_NOT_FOUND_MESSAGE });
    const otherUpload = await ana.post(supportPaths.tickets, { ...base, attachmentIds: [ownFile, foreignFile] });
    expect(otherUpload.statusCode).toBe(400);
    expect(otherUpload.json()).toMatchObject({ code: 'TICKET_ATTACHMENT_NOT_FOUND', message: TICKET_ATTACHMENT_NOT_FOUND_MESSAGE });
    const tooMany = await ana.post(supportPaths.tickets, { ...base, attachmentIds: ['a', 'b', 'c', 'd', 'e', 'f'] });
    expect(tooMany.statusCode).toBe(400);
    expect((await ana.post(supportPaths.tickets, { ...base, extra: 1 })).statusCode).toBe(400);

    const ticket = await openTicket(ana);
    const afterOpen = world.server.countTables(TICKET_TABLES);
    expect((await ana.post(ticketPath(supportPaths.replies, ticket.id), { body: '' })).statusCode).toBe(400);
    expect((await ana.post(ticketPath(supportPaths.replies, ticket.id), { body: 'Mira', attachmentIds: [foreignFile] })).statusCode).toBe(400);
    expect(world.server.countTables(TICKET_TABLES)).toEqual(afterOpen);
    expect(afterOpen).toEqual({ support_tickets: Number(before.support_tickets) + 1, support_messages: Number(before.support_messages) + 1, support_attachments: before.support_attachments });
    expect(world.server.mailedMessages('ticket_received')).toHaveLength(1);
  });

  it('lists pages of 10, most recently active first', async () => {
    const opened: Ticket[] = [];
    for (let index = 1; index <= 12; index++) opened.push(await openTicket(ana, { subject: `Consulta ${index}` }));
    const first = ticketPageSchema.parse((await ana.get(supportPaths.tickets)).json());
    expect(first).toMatchObject({ page: 1, pageCount: 2, total: 12 });
    expect(first.items.map((ticket) => ticket.subject)).toEqual(Array.from({ length: 10 }, (_, index) => `Consulta ${12 - index}`));
    const second = ticketPageSchema.parse((await ana.get(`${supportPaths.tickets}?page=2`)).json());
    expect(second.items.map((ticket) => ticket.subject)).toEqual(['Consulta 2', 'Consulta 1']);
    expect(second.items[0]?.messages).toBeUndefined();

    // Writing in the oldest makes it the most recently active.
    await ana.post(ticketPath(supportPaths.replies, opened[0]?.id ?? ''), { body: 'Sigue pasando' });
    expect(ticketPageSchema.parse((await ana.get(supportPaths.tickets)).json()).items[0]?.subject).toBe('Consulta 1');
    expect((await ana.get(`${supportPaths.tickets}?page=0`)).statusCode).toBe(400);
  });

  it('emails the support team each message, with the ticket\'s signed reply address', async () => {
    const runId = await runOf(world, 'ana@asesoria-uno.es', 'Bajas en Sistema RED');
    const ticket = await openTicket(ana, { subject: 'La baja no se envía', category: 'robots', body: 'Se queda en el paso 3.', runId });
    await ana.post(ticketPath(supportPaths.replies, ticket.id), { body: 'Os adjunto más datos.' });
    const mails = world.server.mailedMessages('ticket_received');
    expect(mails).toHaveLength(2);
    const [opened, replied] = mails;
    expect(opened).toMatchObject({ to: SUPPORT.email, link: `http://app.test/soporte?consulta=${ticket.id}`, replyTo: replyAddress(SUPPORT.email, SUPPORT.inbound?.replySecret ?? '', ticket.id) });
    expect(opened?.replyTo).toMatch(/^soporte\+t\.[0-9a-f-]{36}\.[0-9a-f]{16}@autoasesor\.test$/);
    expect(opened?.text).toContain('Usuario: Ana Pérez <ana@asesoria-uno.es>');
    expect(opened?.text).toContain('Tema: Un robot o una ejecución');
    expect(opened?.text).toContain('Bajas en Sistema RED');
    expect(opened?.text).toContain('Se queda en el paso 3.');
    expect(replied?.text).toContain('Os adjunto más datos.');
    const subject = world.server.logLines().find((line) => (line.mail as { purpose?: string } | undefined)?.purpose === 'ticket_received')?.msg;
    expect(subject).toContain(`[Consulta ${ticket.id.slice(0, 8)}] La baja no se envía`);
  });

  it('sends no reply address when answers by email are not configured', async () => {
    await world.close();
    world = supportWorld(await startTestServer({ support: { email: 'ayuda@asesoria.test' } }));
    ana = await registerUser(world.server.app, 'ana@asesoria-uno.es');
    await openTicket(ana);
    expect(world.server.mailedMessages('ticket_received')).toEqual([expect.objectContaining({ to: 'ayuda@asesoria.test', replyTo: null })]);
  });

  it('streams an attached file to the firm, 404 for a file not attached to that ticket', async () => {
    const fileId = await uploadedFile(ana, 'nóminas de marzo.csv', 'a;b\n1;2\n');
    const other = await uploadedFile(ana, 'otro.csv');
    const ticket = await openTicket(ana, { attachmentIds: [fileId] });
    const download = await ana.get(ticketPath(supportPaths.attachment, ticket.id, { fileId }));
    expect(download.statusCode).toBe(200);
    expect(download.body).toBe('a;b\n1;2\n');
    expect(download.headers['content-disposition']).toContain("filename*=UTF-8''n%C3%B3minas%20de%20marzo.csv");
    expect((await ana.get(ticketPath(supportPaths.attachment, ticket.id, { fileId: other }))).statusCode).toBe(404);

    // Past its retention the upload is gone: 410 and why.
    await world.db.deleteFrom('stored_files').where('id', '=', fileId).execute();
    const gone = await ana.get(ticketPath(supportPaths.attachment, ticket.id, { fileId }));
    expect(gone.statusCode).toBe(410);
    expect(gone.json().code).toBe('FILE_EXPIRED');
  });
});
