import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import * as XLSX from 'xlsx';
import { expect } from 'vitest';
import { flowsPaths, pathFor, type ExecutionStateResponse, type UploadedFile } from '#shared/api/flows.ts';
import type { ServerConfig } from '../../server-config.ts';
import type { CookieJar } from '../../test/harness.ts';
import { builtInFlows as testFlows } from '../flows/test-flows/index.ts';

/**
 * The test flows and the module the run workers load them from: its bundle beside the test run's
 * child processes when it built them (scripts/vitest-child-bundles.ts), else its source through tsx.
 */
export const TEST_FLOWS_CONFIG: Partial<ServerConfig> = {
  flows: testFlows,
  flowsModule: process.env.AUTOASESOR_CHILD_BUNDLES
    ? pathToFileURL(join(process.env.AUTOASESOR_CHILD_BUNDLES, 'test-flows.js')).href
    : new URL('../flows/test-flows/index.ts', import.meta.url).href,
  runs: { memoryMb: 128, stopGraceMs: 300 },
};

/** A multipart/form-data body with one 'file' part per file, as a browser's FormData sends it. */
export function multipart(files: readonly { name: string; data: Buffer | string; type?: string }[]): { payload: Buffer; headers: Record<string, string> } {
  const boundary = `----autoasesor${randomUUID()}`;
  const parts = files.flatMap((file) => [
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: ${file.type ?? 'application/octet-stream'}\r\n\r\n`),
    Buffer.isBuffer(file.data) ? file.data : Buffer.from(file.data),
    Buffer.from('\r\n'),
  ]);
  const payload = Buffer.concat([...parts, Buffer.from(`--${boundary}--\r\n`)]);
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

/** An .xlsx with a header row and the given data rows. */
export function workbook(rows: readonly (readonly (string | number)[])[]): Buffer {
  const book = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet(rows as (string | number)[][]), 'Trabajadores');
  return XLSX.write(book, { type: 'buffer', bookType: 'xlsx' }) as Buffer;
}

export async function upload(jar: CookieJar, files: readonly { name: string; data: Buffer | string; type?: string }[]): Promise<UploadedFile[]> {
  const { payload, headers } = multipart(files);
  const response = await jar.request({ method: 'POST', url: flowsPaths.uploads, payload, headers });
  expect(response.statusCode, response.body).toBe(201);
  return (response.json() as { items: UploadedFile[] }).items;
}

export function launch(jar: CookieJar, flowId: string, inputs: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  return jar.post(pathFor(flowsPaths.execution, { flowId }), { inputs, idempotencyKey: randomUUID(), ...extra });
}

/** Polls the state (long poll) until the run has finished. */
export async function finishedState(jar: CookieJar, token: string, timeoutMs = 30_000): Promise<ExecutionStateResponse> {
  const deadline = Date.now() + timeoutMs;
  const lines: string[] = [];
  while (Date.now() < deadline) {
    // As the launcher does: ask only for lines it has not seen, so the server waits for news.
    const response = await jar.get(`${pathFor(flowsPaths.executionState, { token })}?wait=5&since=${lines.length}`);
    expect(response.statusCode, response.body).toBe(200);
    const state = response.json() as ExecutionStateResponse;
    lines.push(...state.consoleLog);
    if (state.output) return { ...state, consoleLog: lines };
  }
  throw new Error(`la ejecución ${token} no ha terminado a tiempo`);
}
