/**
 * Online forms' figures for `npm run bench` (issue 40: 10,000 submissions list and filter in ≤ 200 ms
 * server time). One form with 10,000 submissions on a fresh SQLite database (and on PostgreSQL too when
 * BENCH_DATABASE_URL is set: a database of its own there, dropped after), in this process with app.inject (no network: the time is the server's):
 * the list's first and last page, a text search, a Madrid-day range, both together, and the .xlsx
 * export of them all; median of 7 after one warm-up, with the query plan of the filtered page.
 * `npx tsx scripts/bench/onlineforms.ts` runs it alone.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import pg from 'pg';
import { documentsPaths } from '#shared/api/documents.ts';
import { onlineFormsPaths, type OnlineForm, type SubmissionsPage } from '#shared/api/onlineforms.ts';
import { buildApp } from '../../server/app.ts';
import { connectDatabase, type DatabaseConfig } from '../../server/db/connect.ts';
import { benchMain } from './bench-main.ts';
import { median } from './stats.ts';

const SUBMISSIONS = 10_000;
const GOAL_MS = 200;
const PASSWORD = 'Banco.Pruebas-2026!';
const NAMES = ['Lucía', 'Jorge', 'Marta', 'Pilar', 'Andrés', 'Sofía', 'Raúl', 'Elena'];
const SURNAMES = ['García', 'Martín', 'Sanz', 'Ruiz', 'Gil', 'López', 'Navarro', 'Ortega'];

async function benchOn(label: string, database: DatabaseConfig, dir: string): Promise<string[]> {
  const app = await buildApp({ database, storageDir: join(dir, 'storage'), webRoot: join(dir, 'no-web'), publicUrl: 'http://bench.test', cookieSecure: false, allowedOrigins: [], logLevel: 'warn' });
  const db = connectDatabase(database);
  try {
    const registered = await app.inject({ method: 'POST', url: '/api/users', payload: { name: 'Banco', email: `banco-${Date.now()}@bench.es`, password: PASSWORD } });
    const cookie = registered.cookies.map((c) => `${c.name}=${c.value}`).join('; ');
    const call = async (method: 'GET' | 'POST', url: string, payload?: object) => app.inject({ method, url, headers: { cookie }, ...(payload && { payload }) });
    const content = { blocks: [{ type: 'paragraph', text: '[[Nombre]] [[NIF]] [[Empresa]] [[Comentarios]]' }], styles: { font: 'sans', fontSize: 11, accentColor: '#1f4e79' } };
    const template = (await call('POST', documentsPaths.templates, { name: 'Banco', description: '', categoryId: null, content })).json() as { id: string };
    const fields = ['Nombre', 'NIF', 'Empresa', 'Comentarios'].map((key) => ({ key, label: key, type: 'text', required: false }));
    const form = (await call('POST', onlineFormsPaths.forms, { templateId: template.id, title: 'Banco', description: '', fields, requireSignature: false })).json() as OnlineForm;
    await call('POST', onlineFormsPaths.publish.replace(':id', form.id));
    const { group_id } = await db.selectFrom('doc_forms').select('group_id').where('id', '=', form.id).executeTakeFirstOrThrow();

    // 10,000 submissions over the last 100 days, written straight to the database.
    const start = Date.now() - 100 * 24 * 60 * 60 * 1000;
    for (let offset = 0; offset < SUBMISSIONS; offset += 500) {
      const rows = Array.from({ length: Math.min(500, SUBMISSIONS - offset) }, (_, index) => {
        const n = offset + index;
        const values = { Nombre: `${NAMES[n % 8]} ${SURNAMES[Math.floor(n / 8) % 8]} ${n}`, NIF: `${String(10_000_000 + n)}X`, Empresa: `Empresa ${n % 300} SL`, Comentarios: n % 50 === 0 ? 'urgente' : '' };
        return {
          id: crypto.randomUUID(), form_id: form.id, group_id, values: JSON.stringify(values), search_text: Object.values(values).join(' │ ').toLowerCase(),
          signer_name: values.Nombre, signature_key: null, bytes: 200, document_id: null, created_at: new Date(start + n * 864_000).toISOString(),
        };
      });
      await db.insertInto('doc_submissions').values(rows).execute();
    }

    const base = onlineFormsPaths.submissions.replace(':id', form.id);
    const from = new Date(start + 30 * 24 * 60 * 60 * 1000).toISOString().slice(0, 10);
    const to = new Date(start + 60 * 24 * 60 * 60 * 1000).toISOString().slice(0, 10);
    const cases: Array<[string, string]> = [
      ['first page', ''],
      ['last page', `?page=${Math.ceil(SUBMISSIONS / 50)}`],
      ['text search "sanz"', '?q=sanz'],
      ['text search, no match', '?q=zzzz'],
      [`days ${from}..${to}`, `?from=${from}&to=${to}`],
      ['days + text "urgente"', `?from=${from}&to=${to}&q=urgente`],
    ];
    const lines = [`  ${label}: ${SUBMISSIONS.toLocaleString('es-ES')} respuestas de un formulario (mediana de 7; objetivo ≤ ${GOAL_MS} ms)`];
    for (const [name, query] of cases) {
      const times: number[] = [];
      let total = 0;
      for (let round = 0; round <= 7; round += 1) {
        const started = performance.now();
        const response = await call('GET', `${base}${query}`);
        if (round > 0) times.push(performance.now() - started);
        total = (response.json() as SubmissionsPage).total;
      }
      const ms = median(times) ?? Number.NaN;
      lines.push(`    ${name.padEnd(34)} ${ms.toFixed(1).padStart(7)} ms  (${total.toLocaleString('es-ES')} encontradas) ${ms <= GOAL_MS ? 'ok' : 'SOBRE EL OBJETIVO'}`);
    }
    const exportTimes: number[] = [];
    let size = 0;
    for (let round = 0; round < 3; round += 1) {
      const started = performance.now();
      const response = await call('GET', onlineFormsPaths.submissionsExport.replace(':id', form.id));
      exportTimes.push(performance.now() - started);
      size = response.rawPayload.length;
    }
    lines.push(`    ${'export .xlsx of all 10,000'.padEnd(34)} ${(median(exportTimes) ?? Number.NaN).toFixed(1).padStart(7)} ms  (${(size / 1024).toFixed(0)} KiB)`);
    if (database.kind === 'sqlite') {
      const plan = await sql<{ detail: string }>`explain query plan select * from doc_submissions where form_id = ${form.id} and created_at >= ${from} order by created_at desc, id desc limit 50`.execute(db);
      lines.push(`    plan: ${plan.rows.map((row) => row.detail).join(' · ')}`);
    }
    return lines;
  } finally {
    await db.destroy();
    await app.close();
  }
}

export async function runOnlineFormsBench(): Promise<string[]> {
  const dir = await mkdtemp(join(tmpdir(), 'autoasesor-bench-onlineforms-'));
  try {
    const lines = await benchOn('SQLite', { kind: 'sqlite', file: join(dir, 'bench.sqlite') }, dir);
    const pgUrl = process.env.BENCH_DATABASE_URL;
    if (pgUrl) {
      // A database of its own on that server, dropped after.
      const admin = new pg.Client({ connectionString: pgUrl });
      await admin.connect();
      const name = `autoasesor_bench_onlineforms_${process.pid}`;
      try {
        await admin.query(`create database ${name}`);
        const url = new URL(pgUrl);
        url.pathname = `/${name}`;
        lines.push(...(await benchOn('PostgreSQL', { kind: 'postgres', url: url.toString() }, dir)));
      } finally {
        await admin.query(`drop database if exists ${name} with (force)`);
        await admin.end();
      }
    }
    return lines;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

await benchMain(import.meta.url, runOnlineFormsBench, async () => null);
