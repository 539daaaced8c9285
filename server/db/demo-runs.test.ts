import { afterEach, describe, expect, it } from 'vitest';
import type { FlowLogDetail, FlowlogResponse, FlowlogStats } from '#shared/api/flows.ts';
import type { SubscriptionUsage } from '#shared/domain/subscription.ts';
import { CookieJar, startTestServer, type TestServer } from '../test/harness.ts';
import { DEMO_ACCOUNT } from './seed.ts';

let server: TestServer;
let demo: CookieJar;

async function startDemo(demoFiles: boolean): Promise<void> {
  server = await startTestServer({ demoAccount: true, demoFiles });
  demo = new CookieJar(server.app);
  const login = await demo.post('/api/auth/login', { email: DEMO_ACCOUNT.email, password: DEMO_ACCOUNT.password });
  expect(login.statusCode).toBe(200);
}
afterEach(async () => server.close());

describe('the demo account', () => {
  it('has a history whose charges this period are its used credits', async () => {
    await startDemo(false);
    const usage = (await demo.get('/api/subscriptions/usage')).json() as SubscriptionUsage;
    const stats = (await demo.get('/api/flowlog/stats')).json() as FlowlogStats;
    expect(usage.usedSlans).toBe(1250);
    expect(stats.cost).toBe(usage.usedSlans);
    expect(stats.total).toBe(33);

    const page = (await demo.get('/api/flowlog')).json() as FlowlogResponse;
    expect(page.total).toBe(33);
    expect(page.items).toHaveLength(12);
    // The seeded runs are of the built-in robots the catalogue offers: none shows as a robot that is gone.
    expect(page.items.every((run) => run.browserFlow.name !== null && run.state === 'finished')).toBe(true);
    const scheduled = (await demo.get('/api/flowlog?scheduled=true')).json() as FlowlogResponse;
    const manual = (await demo.get('/api/flowlog?scheduled=false')).json() as FlowlogResponse;
    expect(scheduled.total + manual.total).toBe(33);
    expect(scheduled.total).toBeGreaterThan(0);

    // A run that did not succeed has the lines its robot wrote (a successful one's come with its files, below).
    const failedId = page.items.find((run) => run.result !== 'Success')?._id ?? '';
    const detail = (await demo.get(`/api/flowlog/${failedId}`)).json() as { logStreams: unknown[] };
    expect(detail.logStreams.length).toBeGreaterThan(0);
  });

  it('gets the files, log and figures of its successful runs from their robots, just after the first start', { timeout: 150_000 }, async () => {
    const started = performance.now();
    await startDemo(true);
    const successful = async () => ((await demo.get('/api/flowlog?limit=100')).json() as FlowlogResponse).items.filter((run) => run.result === 'Success');
    // The robots run one after another in the background: 28 runs, a few seconds in all.
    await until(async () => (await successful()).every((run) => run.outputFileNames.length > 0), 120_000);
    console.log(`demo files: ${Math.round(performance.now() - started)} ms`);
    const runs = await successful();
    expect(runs).toHaveLength(28);

    for (const run of runs) {
      const detail = (await demo.get(`/api/flowlog/${run._id}?limit=200`)).json() as FlowLogDetail;
      // What the robot logged and counted.
      expect(detail.logStreams.length, run.browserFlow.name ?? '').toBeGreaterThan(0);
      expect(detail.logStreams.every((line) => line.level !== 'error')).toBe(true);
      expect(detail.totalIterations).toBeGreaterThan(0);
      expect(detail.successfulIterations).toBeLessThanOrEqual(detail.totalIterations);
      for (const name of detail.outputFileNames) {
        const file = await demo.get(`/api/flowlog/${run._id}/outputs/${encodeURIComponent(name)}`);
        expect(file.statusCode, name).toBe(200);
        expect(file.rawPayload.byteLength).toBeGreaterThan(0);
      }
    }

    // The latest Validar run: its workbook's rows (1,940 written, a few left blank), some with a wrong
    // identifier, and the checked workbook back.
    const validar = runs.find((run) => run.browserFlow._id === 'validar-identificadores');
    expect(validar?.outputFileNames).toEqual([expect.stringMatching(/^trabajadores_\d{8} validado\.xlsx$/)]);
    expect(validar?.totalIterations).toBeGreaterThan(1_900);
    expect(validar?.successfulIterations).toBeLessThan(validar?.totalIterations ?? 0);
    // The charges stay what the robots counted: the seed's figures (1,250 slans) are theirs.
    const usage = (await demo.get('/api/subscriptions/usage')).json() as SubscriptionUsage;
    expect(usage.usedSlans).toBe(1250);
  });
});

async function until(check: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`The demo's runs had no files after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}
