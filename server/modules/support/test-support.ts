import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { expect } from 'vitest';
import { supportPaths, type Ticket } from '#shared/api/support.ts';
import { pathFor } from '#shared/api/flows.ts';
import { connectDatabase } from '../../db/connect.ts';
import type { Database } from '../../db/schema.ts';
import { registerUser, type CookieJar, type TestServer } from '../../test/harness.ts';
import { insertFlow, insertRun, memberOf } from '../flowlogs/fixtures.ts';
import { upload } from '../runs/test-support.ts';
import type { SupportConfig } from './config.ts';

/** Test support for the ticket suites: a server with answers by email on, agents, runs and uploads. */

export const SUPPORT: SupportConfig = {
  email: 'soporte@autoasesor.test',
  inbound: { token: 'token-del-servicio-de-correo', replySecret: 'secreto-de-las-direcciones-de-respuesta', authservIds: ['mx.correo.test'] },
};

/** The tables a ticket write touches: a refused request leaves them as they were. */
export const TICKET_TABLES = ['support_tickets', 'support_messages', 'support_attachments'] as const;

export interface SupportWorld {
  server: TestServer;
  db: Kysely<Database>;
  close: () => Promise<void>;
}

/** The server (from startTestServer, with `{ support: SUPPORT }` for answers by email) and a connection to arrange rows. */
export function supportWorld(server: TestServer): SupportWorld {
  const db = connectDatabase(server.database);
  return {
    server,
    db,
    close: async () => {
      await db.destroy();
      await server.close();
    },
  };
}

/** A registered user made a support agent, as `npm run support:agent -- grant` does. */
export async function registerAgent(world: SupportWorld, email: string, name = 'Lucía Soporte'): Promise<CookieJar> {
  const jar = await registerUser(world.server.app, email, name);
  await world.db.updateTable('users').set({ support_agent: 1 }).where('email', '=', email).execute();
  return jar;
}

/** A finished run of the firm the user belongs to. */
export async function runOf(world: SupportWorld, email: string, flowName = 'Alta en la Seguridad Social'): Promise<string> {
  const { userId, groupId } = await memberOf(world.db, email);
  const flowId = `flujo-${randomUUID()}`;
  await insertFlow(world.db, { id: flowId, name: flowName });
  return insertRun(world.db, { groupId, userId, flowId, flowName, createdAt: '2026-11-20T09:00:00.000Z' });
}

/** One uploaded CSV of the jar's firm: its stored file id. */
export async function uploadedFile(jar: CookieJar, name = 'trabajadores.csv', data = 'nif;nombre\n12345678Z;Ana\n'): Promise<string> {
  const [file] = await upload(jar, [{ name, data, type: 'text/csv' }]);
  if (!file) throw new Error('la subida no devolvió archivo');
  return file.id;
}

export async function openTicket(jar: CookieJar, input: Record<string, unknown> = {}): Promise<Ticket> {
  const response = await jar.post(supportPaths.tickets, { subject: 'No arranca el robot', category: 'robots', body: 'El robot se queda parado al entrar.', ...input });
  expect(response.statusCode, response.body).toBe(201);
  return response.json() as Ticket;
}

export const ticketPath = (path: string, id: string, extra: Record<string, string> = {}) => pathFor(path, { id, ...extra });
