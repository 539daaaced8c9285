/**
 * Electronegativity over the desktop app's code: `npm run lint:electron`. Scans main/ and preload/
 * (the TypeScript sources: its bundled parser reads them) and fails on any HIGH or MEDIUM finding.
 *
 * A finding that was reviewed is silenced on its own line with `// eng-disable CHECK_ID` and a
 * reason, never by excluding the check. The one check left out is AVAILABLE_SECURITY_FIXES: it
 * downloads Electron's release list from the internet (CI cannot reach it); Electron's version is
 * kept current through npm instead.
 */
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';

interface Issue {
  id: string;
  file: string;
  location: { line: number; column: number };
  severity: { name: string; value: number };
  confidence: { name: string };
  description: string;
}
type Run = (options: Record<string, unknown>) => Promise<{ issues: Issue[]; errors: Array<{ file: string; message?: string; tolerable: boolean }> }>;

export interface Scan {
  issues: Issue[];
  /** Files its parser could not read: they were not checked, so they fail the gate too. */
  unparsed: string[];
}

const require = createRequire(import.meta.url);
const FAILING = new Set(['HIGH', 'MEDIUM']);

/**
 * The folders are copied side by side into one temp folder and scanned in one run: the global
 * checks (a permission handler, navigation limits, a CSP) look across all files of the app.
 */
export async function scanElectron(dirs: string[], electronVersion?: string): Promise<Scan> {
  const run = require('@doyensec/electronegativity') as Run;
  const version = electronVersion ?? (require('electron/package.json') as { version: string }).version;
  const root = await mkdtemp(join(tmpdir(), 'autoasesor-electronegativity-'));
  try {
    for (const dir of dirs) await cp(resolve(dir), join(root, basename(resolve(dir))), { recursive: true });
    const result = await run({ input: root, electronVersionOverride: version, excludeFromScan: ['AvailableSecurityFixesGlobalCheck'], isRelative: true });
    return { issues: result.issues, unparsed: result.errors.filter((error) => !error.tolerable).map((error) => `${error.file}: ${error.message ?? 'no se pudo leer'}`) };
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

export function failing(issues: Issue[]): Issue[] {
  return issues.filter((issue) => FAILING.has(issue.severity.name));
}

async function main() {
  const dirs = process.argv.slice(2).length > 0 ? process.argv.slice(2) : ['main', 'preload'];
  const started = Date.now();
  const { issues, unparsed } = await scanElectron(dirs);
  const bad = failing(issues);
  for (const file of unparsed) console.log(`✗ sin analizar ${file}`);
  for (const issue of issues) {
    const where = `${issue.file}:${issue.location.line}:${issue.location.column}`;
    console.log(`${FAILING.has(issue.severity.name) ? '✗' : '·'} ${issue.severity.name}/${issue.confidence.name} ${issue.id} ${where} ${issue.description}`);
  }
  const count = (name: string) => issues.filter((issue) => issue.severity.name === name).length;
  console.log(`Electronegativity (${dirs.join(', ')}): ${count('HIGH')} high, ${count('MEDIUM')} medium, ${count('LOW')} low, ${count('INFORMATIONAL')} informational in ${((Date.now() - started) / 1000).toFixed(1)} s, ${unparsed.length} files unparsed`);
  if (bad.length > 0 || unparsed.length > 0) process.exitCode = 1;
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
