/**
 * Certificates figures for `npm run bench` (issue 6 goal: GetCertificatesList with 200 certificates in
 * the store in ≤ 300 ms). A real NSS database (made once per run in a temp folder with certutil and
 * pk12util) holds 200 generated Spanish certificates with their keys; GetCertificatesList is run through
 * the bridge's dispatch() as the agent runs it (its service, contract parse of the result included):
 * the first listing of a freshly started agent (every certificate described), the listings after it
 * (the store keeps its readings by fingerprint), and the certutil fallback's one-shot read beside them.
 * `scripts/bench.ts` imports runCertificatesBench(); `npx tsx scripts/bench/certificates.ts` runs it alone.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { isValidNif } from '#shared/validation/identifiers.ts';
import type { BridgeContext } from '../../main/bridge/context.ts';
import { fakeContext } from '../../main/bridge/test-context.ts';
import { dispatch } from '../../main/bridge/registry.ts';
import { listNssCertificates } from '../../main/certificates/nss.ts';
import { keyFileSecretBox } from '../../main/certificates/secret-box.ts';
import { createCertificateService } from '../../main/certificates/service.ts';
import { createNssDatabase, nssToolsAvailable } from '../../main/certificates/testing/nss-database.ts';
import { createTestCertificate, type TestCertificate } from '../../main/certificates/testing/spanish-certificates.ts';
import { goalVerdict, median, percentile } from './stats.ts';

export const CERTIFICATES = 200;
export const RUNS = 20;
/** Runs that start from nothing each time (a new agent, or the certutil fallback): slower, so fewer. */
export const COLD_RUNS = 5;
const GOAL_MS = 300;
const NIF_LETTERS = 'TRWAGMYFPDXBNJZSQVHLCKE';

/** 200 holders: persons and representatives (one in three), EC keys (RSA key generation would dominate the setup). */
function holders(): TestCertificate[] {
  return Array.from({ length: CERTIFICATES }, (_, index) => {
    const number = 10_000_000 + index * 7919;
    const nif = `${number}${NIF_LETTERS[number % 23]}`;
    if (!isValidNif(nif)) throw new Error(`bench: NIF de prueba no válido ${nif}`);
    return createTestCertificate({
      kind: index % 3 === 0 ? 'representative' : 'person',
      keyType: 'ec',
      givenName: `PERSONA ${index + 1}`,
      surnames: 'GARCIA LOPEZ',
      nif,
    });
  });
}

async function timed(runs: number, run: () => Promise<void>): Promise<number[]> {
  await run(); // warm-up: module loading, first open of the database files
  const times: number[] = [];
  for (let i = 0; i < runs; i += 1) {
    const start = performance.now();
    await run();
    times.push(performance.now() - start);
  }
  return times;
}

const ms = (value: number | null) => (value === null ? '?' : `${value.toFixed(1)} ms`);

export async function runCertificatesBench(): Promise<string[]> {
  if (!nssToolsAvailable()) return ['(certutil/pk12util not installed: apt-get install libnss3-tools)'];
  const parent = await mkdtemp(join(tmpdir(), 'bench-certificates-'));
  try {
    const setupStart = performance.now();
    const nss = await createNssDatabase(parent);
    await nss.importAllWithKeys(holders());
    const setupMs = performance.now() - setupStart;

    const agentContext = () =>
      fakeContext({
        now: () => new Date(),
        certificates: createCertificateService({
          platform: 'linux',
          settingsFile: join(parent, 'agent', 'certificates.json'),
          box: keyFileSecretBox(join(parent, 'agent', 'secret.key')),
          nssDatabase: nss.database,
        }),
      });
    const listAll = async (ctx: BridgeContext) => {
      const envelope = await dispatch('GetCertificatesList', {}, ctx);
      if (!envelope.ok) throw new Error(`bench: GetCertificatesList falló: ${envelope.error.message}`);
      const listed = (envelope.data as { certificates: unknown[] }).certificates.length;
      if (listed !== CERTIFICATES) throw new Error(`bench: se esperaban ${CERTIFICATES} certificados y se listaron ${listed}`);
    };
    // First listing of a freshly started agent: every certificate is described.
    const first = await timed(COLD_RUNS, () => listAll(agentContext()));
    // Every listing after: the store keeps what it read (by fingerprint), so only the database is read.
    const ctx = agentContext();
    const again = await timed(RUNS, () => listAll(ctx));

    const fallback = await timed(COLD_RUNS, async () => {
      const { certificates } = await listNssCertificates({ database: nss.database, via: 'certutil' });
      if (certificates.length !== CERTIFICATES) throw new Error(`bench: certutil listó ${certificates.length} certificados`);
    });

    const line = (label: string, times: number[]) => {
      const p95 = percentile(times, 95);
      const verdict = goalVerdict([{ ok: (p95 ?? Infinity) <= GOAL_MS, what: `p95 ${ms(p95)}` }]);
      return `  ${label.padEnd(46)} median ${ms(median(times)).padStart(9)}, p95 ${ms(p95).padStart(9)} (${times.length} runs; goal ≤ ${GOAL_MS} ms: ${verdict})`;
    };
    return [
      `NSS database with ${CERTIFICATES} certificates and their keys (made in ${(setupMs / 1000).toFixed(1)} s); GetCertificatesList through dispatch() as the agent runs it`,
      line('first listing of a fresh agent (all described)', first),
      line('every listing after (store keeps its readings)', again),
      line('certutil fallback, one-shot (no SQLite read)', fallback),
    ];
  } finally {
    await rm(parent, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  for (const line of await runCertificatesBench()) console.log(line);
}
