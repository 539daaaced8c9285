import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, startProcess, stop, waitFor } from '../e2e/processes.ts';
import { buildServerCopy } from './build-server.ts';

let build: { entry: string; dir: string };
beforeAll(async () => {
  build = await buildServerCopy();
});
afterAll(async () => {
  await rm(build.dir, { recursive: true, force: true });
});

/** The files a start reads: the entry and the chunks it imports statically, not those it loads with import(). */
async function startFiles(dir: string, file = 'index.js', seen = new Set<string>()): Promise<Set<string>> {
  seen.add(file);
  const code = await readFile(join(dir, file), 'utf8');
  for (const [, chunk] of code.matchAll(/(?:from|import)\s*"\.\/(chunk-[^"]+\.js)"/g)) if (chunk && !seen.has(chunk)) await startFiles(dir, chunk, seen);
  return seen;
}

describe('the compiled server', () => {
  it('is ESM with our code and its plain-JS packages, in its entry and chunks beside it; native addons come from node_modules', async () => {
    const code = await readFile(build.entry, 'utf8');
    // Fastify is bundled (one file read at start instead of hundreds); better-sqlite3 cannot be.
    expect(code).not.toMatch(/from\s*"fastify"/);
    expect(code).toMatch(/from\s*"better-sqlite3"/);
    // Our own modules are inside: nothing refers to the sources or to #shared any more, only to chunks of the build.
    const outside: string[] = [];
    for (const file of await startFiles(build.dir)) if (/from\s*"(#shared|\.\.\/|\.\/(?!chunk-))/.test(await readFile(join(build.dir, file), 'utf8'))) outside.push(file);
    expect(outside).toEqual([]);
  });

  it('reads at start none of what only some requests need: SheetJS, the API reader, nodemailer, pg', async () => {
    const sources: string[] = [];
    for (const file of await startFiles(build.dir)) sources.push(...(JSON.parse(await readFile(join(build.dir, `${file}.map`), 'utf8')) as { sources: string[] }).sources);
    const packages = new Set(sources.map((source) => /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(source)?.[1]).filter((name) => name !== undefined));
    expect(packages).toContain('fastify');
    for (const lazy of ['xlsx', '@fastify/swagger', '@fastify/swagger-ui', 'yaml', 'nodemailer', '@zxcvbn-ts/language-common']) expect(packages).not.toContain(lazy);
    // Packages left in node_modules, required where they are used: PostgreSQL's, and pino-roll with LOG_FILE.
    const code = (await Promise.all([...(await startFiles(build.dir))].map((file) => readFile(join(build.dir, file), 'utf8')))).join('\n');
    for (const external of ['pg', 'pg-boss', 'pino-roll']) expect(code).not.toMatch(new RegExp(`from\\s*"${external}"`));
  });

  it('starts with plain node, migrates a fresh database and signs in the seeded demo account', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'autoasesor-build-'));
    const port = await freePort();
    const baseUrl = `http://127.0.0.1:${port}`;
    const server = startProcess('node', [build.entry], { PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, NODE_ENV: 'test', WEB_ROOT: dataDir });
    try {
      await waitFor('the compiled server', async () => ((await fetch(`${baseUrl}/api/health`)).ok ? true : undefined), 30_000, server.output);
      const login = await fetch(`${baseUrl}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: baseUrl },
        body: JSON.stringify({ email: 'demo@autoasesor.es', password: 'Demo1234!' }),
      });
      expect(login.status).toBe(200);
      expect(((await login.json()) as { userData: { email: string } }).userData.email).toBe('demo@autoasesor.es');
      // The API reader: its code is in the bundle, its page's files come from @fastify/swagger-ui's folder in node_modules.
      expect((await fetch(`${baseUrl}/api/docs/json`)).status).toBe(200);
      expect((await fetch(`${baseUrl}/api/docs/static/index.html`)).status).toBe(200);
      expect((await fetch(`${baseUrl}/api/docs/static/swagger-ui-bundle.js`)).status).toBe(200);
    } finally {
      await stop(server.child);
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it('inspects an upload in inspect-child.js, runs a built-in flow in run-process.js and the demo\'s robots in demo-process.js, with plain node', async () => {
    expect(await readFile(join(build.dir, 'run-process.js'), 'utf8')).not.toMatch(/from\s*"(#shared|\.\.\/|\.\/(?!chunk-))/);
    const dataDir = await mkdtemp(join(tmpdir(), 'autoasesor-build-'));
    const port = await freePort();
    const baseUrl = `http://127.0.0.1:${port}`;
    const server = startProcess('node', [build.entry], { PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, NODE_ENV: 'test', WEB_ROOT: dataDir });
    try {
      await waitFor('the compiled server', async () => ((await fetch(`${baseUrl}/api/health`)).ok ? true : undefined), 30_000, server.output);
      const registered = await fetch(`${baseUrl}/api/users`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: baseUrl },
        body: JSON.stringify({ name: 'Ana Pérez', email: 'compilado@asesoria.es', password: 'Secreta-Nube7' }),
      });
      expect(registered.status).toBe(201);
      const cookie = registered.headers.getSetCookie().map((line) => line.split(';')[0]).join('; ');
      const headers = { cookie, origin: baseUrl };

      const form = new FormData();
      form.append('file', new Blob(['DNI;Nombre\n12345678Z;Ana\n12345678A;Luis\n']), 'lista.csv');
      const uploaded = await fetch(`${baseUrl}/api/storage/uploads`, { method: 'POST', headers, body: form });
      expect(uploaded.status).toBe(201);
      const [file] = ((await uploaded.json()) as { items: { id: string; name: string }[] }).items;
      // Inspected at upload by dist/server/inspect-child.js, in a process of its own.
      expect(await readFile(join(build.dir, 'inspect-child.js'), 'utf8')).not.toMatch(/from\s*"(#shared|\.\.\/|\.\/(?!chunk-))/);
      const columns = await fetch(`${baseUrl}/api/storage/uploads/${file?.id}/columns`, { headers });
      expect(await columns.json()).toEqual({ sheet: 'lista', columns: ['DNI', 'Nombre'], rowCount: 2 });
      const disguised = new FormData();
      disguised.append('file', new Blob([Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0])]), 'lista.xlsx');
      expect((await fetch(`${baseUrl}/api/storage/uploads`, { method: 'POST', headers, body: disguised })).status).toBe(415);

      const launched = await fetch(`${baseUrl}/api/browserflow/execution/validar-identificadores`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify({ inputs: { workbook: [{ uploadId: file?.id, name: file?.name }] }, idempotencyKey: 'compilado-0001' }),
      });
      expect(launched.status).toBe(202);
      const { executionToken } = (await launched.json()) as { executionToken: string };
      const finished = await waitFor(
        'the run',
        async () => {
          const state = (await (await fetch(`${baseUrl}/api/browserflow/execution/state/${executionToken}?wait=5&since=1000`, { headers })).json()) as { output?: { status: number; data: { files: { name: string }[] } } };
          return state.output;
        },
        60_000,
        server.output,
      );
      expect(finished.status).toBe(200);
      expect(finished.data.files.map((output) => output.name)).toEqual(['lista validado.xlsx']);

      // The demo account's runs got their files from dist/server/demo-process.js after this first start.
      expect(await readFile(join(build.dir, 'demo-process.js'), 'utf8')).not.toMatch(/from\s*"(#shared|\.\.\/|\.\/(?!chunk-))/);
      const demoLogin = await fetch(`${baseUrl}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: baseUrl },
        body: JSON.stringify({ email: 'demo@autoasesor.es', password: 'Demo1234!' }),
      });
      expect(demoLogin.status).toBe(200);
      const demoHeaders = { cookie: demoLogin.headers.getSetCookie().map((line) => line.split(';')[0]).join('; '), origin: baseUrl };
      await waitFor(
        "the demo's files",
        async () => {
          const page = (await (await fetch(`${baseUrl}/api/flowlog?limit=100`, { headers: demoHeaders })).json()) as { items: { result: string | null; outputFileNames: string[] }[] };
          const successful = page.items.filter((run) => run.result === 'Success');
          return successful.length > 0 && successful.every((run) => run.outputFileNames.length > 0) ? true : undefined;
        },
        60_000,
        server.output,
      );
    } finally {
      await stop(server.child);
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});
