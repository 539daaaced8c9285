/**
 * What the server benches do over HTTP: sign up a firm (its session cookie), poll /api/health meanwhile,
 * upload a file, launch Validar identificadores on it and follow the run's state.
 */
import type SqliteDatabase from 'better-sqlite3';
import { randomUUID } from 'node:crypto';
import type { ExecutionStateResponse } from '#shared/api/flows.ts';


export interface BenchFirm {
  cookie: string;
}

export async function signUpFirm(baseUrl: string, email: string): Promise<BenchFirm> {
  const response = await fetch(`${baseUrl}/api/users`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: baseUrl },
    body: JSON.stringify({ name: 'Banco de Pruebas', email, password: 'Banco-Pruebas-42' }),
  });
  if (response.status !== 201) throw new Error(`registro ${email}: ${response.status}`);
  return { cookie: response.headers.getSetCookie().map((line) => line.split(';')[0]).join('; ') };
}

/** Polls /api/health one request after the other (20 ms apart) until stopped; the latencies in ms. */
export function pollHealth(baseUrl: string): { stop: () => Promise<number[]> } {
  const latencies: number[] = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      const started = performance.now();
      await fetch(`${baseUrl}/api/health`).then((response) => response.arrayBuffer());
      latencies.push(performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  })();
  return {
    stop: async () => {
      running = false;
      await loop;
      return latencies;
    },
  };
}

export async function uploadFile(baseUrl: string, firm: BenchFirm, name: string, data: Buffer): Promise<{ status: number; id?: string; message?: string }> {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(data)]), name);
  const response = await fetch(`${baseUrl}/api/storage/uploads`, { method: 'POST', headers: { cookie: firm.cookie, origin: baseUrl }, body: form });
  const body = (await response.json()) as { items?: { id: string }[]; message?: string };
  return { status: response.status, ...(body.items?.[0] && { id: body.items[0].id }), ...(body.message && { message: body.message }) };
}

export async function launchValidar(baseUrl: string, firm: BenchFirm, uploadId: string, name: string): Promise<{ status: number; token?: string; message?: string }> {
  const response = await fetch(`${baseUrl}/api/browserflow/execution/validar-identificadores`, {
    method: 'POST',
    headers: { cookie: firm.cookie, origin: baseUrl, 'content-type': 'application/json' },
    body: JSON.stringify({ inputs: { workbook: [{ uploadId, name }] }, idempotencyKey: randomUUID() }),
  });
  const body = (await response.json()) as { executionToken?: string; message?: string };
  return { status: response.status, ...(body.executionToken && { token: body.executionToken }), ...(body.message && { message: body.message }) };
}

export async function stateOf(baseUrl: string, firm: BenchFirm, token: string, wait = 0): Promise<ExecutionStateResponse> {
  const response = await fetch(`${baseUrl}/api/browserflow/execution/state/${token}?wait=${wait}&since=100000`, { headers: { cookie: firm.cookie } });
  return (await response.json()) as ExecutionStateResponse;
}

/**
 * A trial's 500 slans would refuse a launch at scale (402) before any robot reads its file: the firm of
 * `email` goes on the Profesional plan, written straight into the server's SQLite file.
 */
export function putOnProPlan(db: SqliteDatabase.Database, email: string): void {
  db.prepare("update subscriptions set plan_id = (select id from plans where ref = 'pro'), status = 'active' where group_id = (select group_id from users where email = ?)").run(email);
}
