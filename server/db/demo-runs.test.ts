import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FlowlogResponse, FlowlogStats } from '#shared/api/flows.ts';
import type { SubscriptionUsage } from '#shared/domain/subscription.ts';
import { CookieJar, startTestServer, type TestServer } from '../test/harness.ts';
import { DEMO_ACCOUNT } from './seed.ts';

let server: TestServer;
let demo: CookieJar;

beforeEach(async () => {
  server = await startTestServer({ demoAccount: true });
  demo = new CookieJar(server.app);
  const login = await demo.post('/api/auth/login', { email: DEMO_ACCOUNT.email, password: DEMO_ACCOUNT.password });
  expect(login.statusCode).toBe(200);
});
afterEach(async () => server.close());

describe('the demo account', () => {
  it('has a history whose charges this period are its used credits', async () => {
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

    const firstId = page.items[0]?._id ?? '';
    const detail = (await demo.get(`/api/flowlog/${firstId}`)).json() as { logStreams: unknown[] };
    expect(detail.logStreams.length).toBeGreaterThan(0);
  });
});
