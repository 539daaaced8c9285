/**
 * Test-only: a stand-in for the agent, run as its own process so a test can kill it with SIGKILL and
 * check that its robot (and the robot's Chromium) do not outlive it. It starts one run of a test robot
 * (argv[2]) and prints each event as a JSON line on stdout. With argv[3] 'spare' (or 'spare-browser')
 * it keeps a spare robot process (with its browser) and prints its pid once it is prepared.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPkcs12, createTestCertificate } from '../../certificates/testing/spanish-certificates.ts';
import { createRobotRuntime } from '../runtime.ts';

const flowId = process.argv[2] ?? 'ignora-parada';
const certificate = createTestCertificate({ keyType: 'ec' });
const print = (event: Record<string, unknown>) => process.stdout.write(`${JSON.stringify(event)}\n`);

const spare = process.argv[3] === 'spare' ? { browser: false } : process.argv[3] === 'spare-browser' ? { browser: true } : undefined;
let announced = false;
const runtime = createRobotRuntime({
  robotsModule: new URL('./robots.ts', import.meta.url),
  ...(spare ? { spare } : {}),
  certificates: {
    list: async () => ({ certificates: [], problems: [], folder: null }),
    setFolder: async () => null,
    unlock: async () => 0,
    clientCertificate: async () => ({ pfx: Buffer.from(createPkcs12(certificate, 'clave')), passphrase: 'clave' }),
  },
});
const robot = runtime.start(
  {
    runId: 'run-stand-in',
    flowId,
    inputs: { certificado: certificate.fingerprint },
    timeLimitSeconds: 600,
    startedAt: new Date().toISOString(),
    outputFolder: mkdtempSync(join(tmpdir(), 'agent-stand-in-')),
  },
  {
    log: (level, text) => {
      print({ event: 'log', level, text });
      // The run took the first spare; the next one was started with this run's first line.
      if (spare && !announced) void runtime.warm().then((pid) => print({ event: 'spare', pid }));
      announced = true;
    },
    progress: () => undefined,
  },
);
void robot.outcome.then((outcome) => print({ event: 'outcome', outcome }));
