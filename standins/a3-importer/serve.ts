/**
 * Starts the A3 importer stand-in on its own for manual tries: it watches a folder (A3_IMPORT_DIR) and
 * answers each IT import (IT_…) and altas import (MA_…, '202 – MA') there. Prints one JSON line { folder, env: { A3_IMPORT_DIR }, companies }.
 *
 * Usage: node --import tsx standins/a3-importer/serve.ts [--folder <dir>] [--companies <json file>]
 *   --folder     the folder to watch (default: a new temporary one)
 *   --companies  [{ "ccc": "28/1234567/89", "name": "...", "workers": ["12345678Z"] }]; without it, A3 knows
 *                the companies and workers of the FIER stand-in's sample files of the last 14 days
 * Runs until SIGINT or SIGTERM. Test-only: never part of the app.
 */
import { mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { decodeFie } from '#shared/fie/decode.ts';
import { sampleFierDays } from '../fier/files.ts';
import { startA3Importer, type A3Company } from './importer.ts';

const { values } = parseArgs({ options: { folder: { type: 'string' }, companies: { type: 'string' } } });
const folder = values.folder ?? mkdtempSync(join(tmpdir(), 'a3-importacion-'));
mkdirSync(folder, { recursive: true });

function sampleCompanies(): A3Company[] {
  const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
  const byCcc = new Map<string, A3Company>();
  for (const file of sampleFierDays(yesterday, 14)) {
    for (const entry of decodeFie(file.bytes).entries) {
      const ccc = entry.fields[310]?.value;
      if (!ccc || !entry.nif) continue;
      const company = byCcc.get(ccc) ?? { ccc, name: String(entry.fields[530]?.normalizedValue ?? ccc), workers: [] };
      company.workers.push(entry.nif);
      byCcc.set(ccc, company);
    }
  }
  return [...byCcc.values()];
}

const companies = values.companies ? (JSON.parse(readFileSync(values.companies, 'utf8')) as A3Company[]) : sampleCompanies();
const importer = startA3Importer({ folder, companies, pollMs: 250 });
process.stdout.write(`${JSON.stringify({ folder, env: { A3_IMPORT_DIR: folder }, companies: companies.length })}\n`);

// The importer's poll does not hold the process open on its own (tests end without closing it).
const keepAlive = setInterval(() => undefined, 1 << 30);
const stop = () => {
  clearInterval(keepAlive);
  void importer.close().finally(() => process.exit(0));
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
