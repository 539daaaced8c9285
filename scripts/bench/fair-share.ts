/**
 * Safety and fairness figures for `npm run bench` (issue 18), on the compiled server and its own SQLite:
 *  - GET /api/health p50/p99/max, polled every 20 ms while a workbook "zip bomb" (1,000,000 rows of
 *    inline strings, a few hundred KB compressed) is uploaded and, if the upload is accepted, launched
 *    with Validar identificadores until its run ends. Goal: p99 ≤ 100 ms.
 *  - the wait of firm B's single run behind 1,000 queued runs of firm A (launch -> its robot started,
 *    and -> finished). Goal: ≤ 2 s to start.
 */
import SqliteDatabase from 'better-sqlite3';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import yazl from 'yazl';
import { startCompiledServer, stop } from '../../e2e/processes.ts';
import { launchValidar, pollHealth, putOnProPlan, signUpFirm, stateOf, uploadFile } from './bench-http.ts';
import { goalVerdict, median, percentile } from './stats.ts';

export const BOMB_ROWS = 1_000_000;
const FLOOD = 1_000;

/** An .xlsx whose only sheet has a header and `rows` identical rows of inline strings, streamed into the zip. */
export function workbookBomb(rows: number): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  zip.addBuffer(
    Buffer.from(
      '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>',
    ),
    '[Content_Types].xml',
  );
  zip.addBuffer(
    Buffer.from('<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>'),
    '_rels/.rels',
  );
  zip.addBuffer(
    Buffer.from('<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="Nómina" sheetId="1" r:id="rId1"/></sheets></workbook>'),
    'xl/workbook.xml',
  );
  zip.addBuffer(
    Buffer.from('<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/></Relationships>'),
    'xl/_rels/workbook.xml.rels',
  );
  const row = '<row><c t="inlineStr"><is><t>12345678Z</t></is></c></row>';
  function* sheet() {
    yield '<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData><row><c t="inlineStr"><is><t>DNI</t></is></c></row>';
    const chunk = row.repeat(10_000);
    for (let done = 0; done < rows; done += 10_000) yield done + 10_000 <= rows ? chunk : row.repeat(rows - done);
    yield '</sheetData></worksheet>';
  }
  zip.addReadStream(Readable.from(sheet()), 'xl/worksheets/sheet1.xml', { compress: true });
  zip.end();
  const chunks: Buffer[] = [];
  return new Promise((resolve, reject) => {
    zip.outputStream.on('data', (chunk: Buffer) => chunks.push(chunk));
    zip.outputStream.on('end', () => resolve(Buffer.concat(chunks)));
    zip.outputStream.on('error', reject);
  });
}

const fmt = (value: number | null) => (value === null ? '?' : `${value.toFixed(1)} ms`);

export async function runFairShareBench(entry: string): Promise<string[]> {
  const lines: string[] = [];
  const dataDir = await mkdtemp(join(tmpdir(), 'autoasesor-bench-fair-'));
  const server = await startCompiledServer(entry, { dataDir, env: { LOG_LEVEL: 'warn' } });
  try {
    const { baseUrl } = server;
    // 1. The bomb.
    const bomb = await workbookBomb(BOMB_ROWS);
    const hostile = await signUpFirm(baseUrl, 'bomba@bench.es');
    const db = new SqliteDatabase(join(dataDir, 'autoasesor.sqlite'));
    db.pragma('busy_timeout = 5000');
    // Both firms that launch at scale are on the Profesional plan, so the robot really runs.
    const onProPlan = (email: string) => putOnProPlan(db, email);
    onProPlan('bomba@bench.es');
    const health = pollHealth(baseUrl);
    const started = performance.now();
    const uploaded = await uploadFile(baseUrl, hostile, 'nomina.xlsx', bomb);
    let outcome = `upload ${uploaded.status}${uploaded.message ? ` «${uploaded.message}»` : ''}`;
    if (uploaded.id) {
      const launched = await launchValidar(baseUrl, hostile, uploaded.id, 'nomina.xlsx');
      outcome += `, launch ${launched.status}${launched.message ? ` «${launched.message}»` : ''}`;
      if (launched.token) {
        let state = await stateOf(baseUrl, hostile, launched.token);
        while (!state.output) state = await stateOf(baseUrl, hostile, launched.token, 5);
        outcome += `, run ended ${state.output.status} «${state.output.data.message ?? 'ok'}»`;
      }
    }
    const seconds = (performance.now() - started) / 1000;
    const latencies = await health.stop();
    const p99 = percentile(latencies, 99);
    lines.push(`bomb: ${(bomb.byteLength / 1024).toFixed(0)} KiB .xlsx, ${BOMB_ROWS.toLocaleString('en')} rows: ${outcome} in ${seconds.toFixed(1)} s`);
    lines.push(
      `/api/health meanwhile: ${latencies.length} requests, p50 ${fmt(median(latencies))}, p99 ${fmt(p99)}, max ${fmt(latencies.length ? Math.max(...latencies) : null)} · goal p99 <= 100 ms: ${goalVerdict([{ ok: p99 !== null && p99 <= 100, what: 'p99' }])}`,
    );

    // 2. One firm's flood, another firm's single run.
    const flooder = await signUpFirm(baseUrl, 'riada@bench.es');
    const single = await signUpFirm(baseUrl, 'sola@bench.es');
    onProPlan('riada@bench.es');
    const csv = Buffer.from('DNI;Nombre\n12345678Z;Ana\n');
    const floodUpload = await uploadFile(baseUrl, flooder, 'lista.csv', csv);
    const singleUpload = await uploadFile(baseUrl, single, 'lista.csv', csv);
    if (!floodUpload.id || !singleUpload.id) throw new Error(`subidas: ${floodUpload.status} ${singleUpload.status}`);
    const floodStarted = performance.now();
    for (let index = 0; index < FLOOD; index += 1) {
      const launched = await launchValidar(baseUrl, flooder, floodUpload.id, 'lista.csv');
      if (launched.status !== 202) throw new Error(`la riada se ha cortado en ${index}: ${launched.status} ${launched.message ?? ''}`);
    }
    const floodSeconds = (performance.now() - floodStarted) / 1000;
    const launchedAt = performance.now();
    const launched = await launchValidar(baseUrl, single, singleUpload.id, 'lista.csv');
    if (!launched.token) throw new Error(`lanzamiento de B: ${launched.status}`);
    let state = await stateOf(baseUrl, single, launched.token);
    while (!state.output) state = await stateOf(baseUrl, single, launched.token, 5);
    const finishedMs = performance.now() - launchedAt;
    // As the server stamped them: created at the launch, started when a slot claimed it.
    const run = db.prepare('select created_at, started_at from flow_runs where execution_token = ?').get(launched.token) as { created_at: string; started_at: string };
    const startedMs = Date.parse(run.started_at) - Date.parse(run.created_at);
    const waitingA = db.prepare("select count(*) as n from flow_runs where state = 'queued' and group_id = (select group_id from users where email = 'riada@bench.es')").get() as { n: number };
    db.close();
    lines.push(`flood: ${FLOOD} runs of firm A queued in ${floodSeconds.toFixed(1)} s; firm B's one run: started ${(startedMs / 1000).toFixed(2)} s after its launch, finished ${(finishedMs / 1000).toFixed(2)} s (A still had ${waitingA.n} waiting) · goal start <= 2 s: ${goalVerdict([{ ok: startedMs <= 2_000, what: 'start' }])}`);
  } finally {
    await stop(server.child);
    await rm(dataDir, { recursive: true, force: true });
  }
  return lines;
}
