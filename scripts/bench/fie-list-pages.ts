/**
 * Issue 43 (6): what a reload of /fie costs at 12,000 FIE entries, before and after the list was paged.
 * Before, the screen asked GET /api/fie for the whole list (every document with all its entries); now
 * it asks for one page (GET /api/fie?limit=500&offset=0) and the next ones as they are read. Server
 * time through app.inject on a fresh SQLite database (no network), median of 7 after one warm-up, and
 * each answer's bytes plain and compressed. `npx tsx scripts/bench/fie-list-pages.ts [entries]`.
 */
import { FIE_LIST_PAGE, fiePaths } from '#shared/api/fie.ts';
import type { CookieJar } from '../../server/test/harness.ts';
import { serverWithFieFirm } from './fie-firm.ts';
import { median } from './stats.ts';

async function measure(firm: CookieJar, label: string, url: string): Promise<void> {
  const durations: number[] = [];
  for (let round = 0; round <= 7; round += 1) {
    const started = performance.now();
    const response = await firm.get(url);
    if (response.statusCode !== 200) throw new Error(`${url}: ${response.statusCode} ${response.body.slice(0, 200)}`);
    if (round > 0) durations.push(performance.now() - started);
  }
  const plain = await firm.request({ method: 'GET', url, headers: { 'accept-encoding': 'identity' } });
  const compressed = await firm.request({ method: 'GET', url, headers: { 'accept-encoding': 'gzip, br' } });
  const kb = (bytes: number) => `${(bytes / 1024).toLocaleString('es-ES', { maximumFractionDigits: 1 })} KB`;
  console.log(
    `${label}: mediana ${(median(durations) ?? Number.NaN).toFixed(1)} ms en el servidor, ${kb(plain.rawPayload.length)} sin comprimir, ` +
      `${kb(compressed.rawPayload.length)} con ${compressed.headers['content-encoding'] ?? 'nada'}  (${url})`,
  );
}

async function main(): Promise<void> {
  const entries = Number(process.argv[2] ?? 12_000);
  const { server, firm } = await serverWithFieFirm(entries);
  try {
    console.log(`GET /api/fie con ${entries.toLocaleString('es-ES')} entradas (páginas de ${FIE_LIST_PAGE}):`);
    await measure(firm, 'Antes: la lista entera', fiePaths.fie);
    await measure(firm, 'Ahora: la primera página', `${fiePaths.fie}?limit=${FIE_LIST_PAGE}&offset=0`);
    await measure(firm, 'Ahora: la última página', `${fiePaths.fie}?limit=${FIE_LIST_PAGE}&offset=${Math.max(0, entries - FIE_LIST_PAGE)}`);
    await measure(firm, 'Ahora: la primera página de una búsqueda', `${fiePaths.fie}?q=garcia&limit=${FIE_LIST_PAGE}&offset=0`);
    await measure(firm, 'Ahora: la primera página de un rango de fechas', `${fiePaths.fie}?from=2025-01-01&to=2025-01-15&limit=${FIE_LIST_PAGE}&offset=0`);
  } finally {
    await server.close();
  }
}

await main();
