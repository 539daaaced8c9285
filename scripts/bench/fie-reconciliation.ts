/**
 * Issue 43 (5): GET /api/fie/reconciliation for a firm with 12,000 FIE entries (the case: about
 * 8,000 open bajas), server time only (app.inject on a fresh SQLite database, no network), median of 7
 * after one warm-up, against the goal of ≤ 300 ms; also GET /api/fie's size plain and compressed.
 * `npx tsx scripts/bench/fie-reconciliation.ts [entries]`.
 */
import { fiePaths } from '#shared/api/fie.ts';
import { serverWithFieFirm } from './fie-firm.ts';
import { median } from './stats.ts';

const GOAL_MS = 300;

async function main(): Promise<void> {
  const entries = Number(process.argv[2] ?? 12_000);
  const { server, firm } = await serverWithFieFirm(entries);
  try {
    const durations: number[] = [];
    let rows = 0;
    for (let round = 0; round <= 7; round += 1) {
      const started = performance.now();
      const response = await firm.get(fiePaths.reconciliation);
      if (round > 0) durations.push(performance.now() - started);
      rows = (response.json() as { items: unknown[] }).items.length;
    }
    const ms = median(durations) ?? Number.NaN;
    console.log(`GET /api/fie/reconciliation, ${entries} entradas: ${rows} bajas abiertas, mediana ${ms.toFixed(0)} ms (objetivo ≤ ${GOAL_MS} ms: ${ms <= GOAL_MS ? 'cumple' : 'NO cumple'})`);
    const plain = await firm.request({ method: 'GET', url: fiePaths.fie, headers: { 'accept-encoding': 'identity' } });
    const compressed = await firm.request({ method: 'GET', url: fiePaths.fie, headers: { 'accept-encoding': 'gzip, br' } });
    console.log(`GET /api/fie: ${(plain.rawPayload.length / 1e6).toFixed(2)} MB sin comprimir, ${(compressed.rawPayload.length / 1e6).toFixed(2)} MB con ${compressed.headers['content-encoding'] ?? 'nada'}`);
  } finally {
    await server.close();
  }
}

await main();
