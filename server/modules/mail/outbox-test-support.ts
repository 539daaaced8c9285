import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Kysely } from 'kysely';
import type { EmailSettings } from '#shared/api/machines.ts';
import type { Database } from '../../db/schema.ts';
import type { TestServer } from '../../test/harness.ts';
import { FileStorage } from '../storage/service.ts';
import { MailAccountUnusableError, type MailAccessTokens, type MailSender } from './types.ts';

/** Test-only: a clock the test moves. */
export class Clock {
  current = new Date('2026-03-10T10:00:00.000Z');
  readonly now = () => new Date(this.current);
  advance(ms: number): void {
    this.current = new Date(this.current.getTime() + ms);
  }
}

export const storageOf = (server: TestServer) => new FileStorage(join(server.dir, 'storage'));

export async function memberOf(db: Kysely<Database>, email: string): Promise<{ userId: string; groupId: string }> {
  const user = await db.selectFrom('users').select(['id', 'group_id']).where('email', '=', email).executeTakeFirstOrThrow();
  return { userId: user.id, groupId: user.group_id };
}

export interface RunSetup {
  groupId: string;
  userId: string;
  result: string;
  finishedAt: Date;
  inputs?: Record<string, unknown>;
  message?: string | null;
  scheduled?: boolean;
  remote?: boolean;
  launchStatus?: number | null;
  stoppedByUser?: boolean;
  /** The robot's last progress (successful of total) and the slans charged; 0 each by default. */
  figures?: { successful: number; total: number; cost: number };
}

/** A finished run row, as the runs module closes one. */
export async function insertRun(db: Kysely<Database>, run: RunSetup): Promise<string> {
  const id = randomUUID();
  const at = run.finishedAt.toISOString();
  await db
    .insertInto('flow_runs')
    .values({
      id, group_id: run.groupId, user_id: run.userId, flow_id: 'validar-identificadores', flow_name: 'Validar identificadores', idempotency_key: null,
      execution_token: randomUUID(), state: 'finished', result: run.result, stopped_by_user: run.stoppedByUser ? 1 : 0, launch_status: run.launchStatus ?? null,
      scheduled: run.scheduled ? 1 : 0, schedule_id: null, machine_name: null, machine_id: null, remote: run.remote ? 1 : 0, send_output_to_server: 1,
      output_folder: null, output_file_names: null, successful_iterations: run.figures?.successful ?? 0, total_iterations: run.figures?.total ?? 0,
      usage_units: run.figures?.cost ?? 0, usage_ratio: 1, cost: run.figures?.cost ?? 0,
      inputs: JSON.stringify(run.inputs ?? {}), summary: null, message: run.message ?? null, accept_extra_usage: 0, lease_owner: null, lease_until: null,
      created_at: at, started_at: at, finished_at: at,
    })
    .execute();
  return id;
}

/** An output file of the run, on disk and in stored_files. */
export async function storeOutput(db: Kysely<Database>, storage: FileStorage, run: { groupId: string; userId: string; runId: string }, name: string, content: Buffer): Promise<string> {
  const { id, storageKey } = storage.newKey(run.groupId);
  await storage.write(storageKey, content);
  await db
    .insertInto('stored_files')
    .values({
      id, group_id: run.groupId, user_id: run.userId, kind: 'output', run_id: run.runId, name, size: content.length, content_type: 'application/octet-stream',
      storage_key: storageKey, created_at: new Date().toISOString(), detected_type: null, sheet_name: null, sheet_columns: null, row_count: null, entry_count: null, expired_at: null,
    })
    .execute();
  return id;
}

/** A machine with one config carrying these email settings; answers the config id. */
export async function insertEmailConfig(db: Kysely<Database>, member: { groupId: string; userId: string }, settings: EmailSettings): Promise<string> {
  const machineId = randomUUID();
  const at = new Date().toISOString();
  await db
    .insertInto('machines')
    .values({ id: machineId, group_id: member.groupId, owner_user_id: member.userId, machine_hash: randomUUID().replace(/-/g, ''), name: 'PC-1', saved_as: 'PC-1', shared: 0, last_sync_at: null, last_seen_at: null, created_at: at, updated_at: at })
    .execute();
  const configId = randomUUID();
  await db.insertInto('machine_configs').values({ id: configId, machine_id: machineId, group_id: member.groupId, name: 'Correo', ccc_list: '[]', email_settings: JSON.stringify(settings), created_at: at }).execute();
  return configId;
}

export async function insertAccount(db: Kysely<Database>, member: { groupId: string; userId: string }, provider: 'google' | 'microsoft', email: string, status: 'linked' | 'needs_relink' = 'linked'): Promise<string> {
  const id = randomUUID();
  const at = new Date().toISOString();
  await db
    .insertInto('mail_accounts')
    .values({ id, group_id: member.groupId, user_id: member.userId, provider, email, client_kind: 'web', scope: 'send', refresh_token: 'sealed', access_token: null, access_expires_at: null, status, problem: null, created_at: at, updated_at: at, last_used_at: null })
    .execute();
  return id;
}

/** The seam's fake: a token per account read from mail_accounts, a counter per forget. */
export class FakeTokens implements MailAccessTokens {
  forgotten: string[] = [];
  generation = 1;
  unusable = new Set<string>();

  constructor(private readonly db: () => Kysely<Database>) {}

  async accessTokenFor(accountId: string): Promise<MailSender> {
    if (this.unusable.has(accountId)) throw new MailAccountUnusableError('La cuenta de correo necesita volver a conectarse: el proveedor ha retirado el permiso.');
    const account = await this.db().selectFrom('mail_accounts').select(['provider', 'email']).where('id', '=', accountId).executeTakeFirstOrThrow();
    return { accountId, provider: account.provider, email: account.email, accessToken: `token-${this.generation}` };
  }

  async forgetAccessToken(accountId: string): Promise<void> {
    this.forgotten.push(accountId);
    this.generation += 1;
  }
}

export interface ReceivedRequest {
  method: string;
  path: string;
  authorization: string | undefined;
  contentType: string | undefined;
  body: Buffer;
}

export interface FakeAnswer {
  /** 'reset': the connection is cut after the whole request arrived, with no answer (the provider may have sent it). */
  status: number | 'reset';
  headers?: Record<string, string>;
  body?: unknown;
}

/**
 * A tiny Gmail/Graph API on 127.0.0.1: records every request and answers from a queue of scripted
 * answers, else Gmail's { id } (200) or Graph's 202. `acceptedToken` refuses other bearers with 401.
 */
export async function startFakeProvider(): Promise<{ url: string; requests: ReceivedRequest[]; script: FakeAnswer[]; acceptedToken: { value: string | null }; close: () => Promise<void> }> {
  const requests: ReceivedRequest[] = [];
  const script: FakeAnswer[] = [];
  const acceptedToken = { value: null as string | null };
  let sequence = 0;
  const read = async (request: IncomingMessage) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  };
  const server = createServer((request, response) => {
    void read(request).then((body) => {
      requests.push({ method: request.method ?? '', path: request.url ?? '', authorization: request.headers.authorization, contentType: request.headers['content-type'], body });
      const scripted = script.shift();
      const refused = acceptedToken.value !== null && request.headers.authorization !== `Bearer ${acceptedToken.value}`;
      const answer: FakeAnswer = scripted ?? (refused ? { status: 401, body: { error: 'invalid_token' } } : request.url?.startsWith('/v1.0/') ? { status: 202 } : { status: 200, body: { id: `gmail-${++sequence}` } });
      if (answer.status === 'reset') {
        request.socket.destroy();
        return;
      }
      response.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
      response.end(answer.body === undefined ? '' : JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, requests, script, acceptedToken, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** The test runs' flow and its 'Enviar resultado por email' input, as the catalogue gives them to MailProducers. */
export const EMAIL_RESULT_INPUTS: ReadonlyMap<string, string> = new Map([['validar-identificadores', 'emailResult']]);
