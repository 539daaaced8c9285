import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { launcherSubscriptionResponseSchema, subscriptionUsageResponseSchema } from '#shared/api/subscriptions.ts';
import { registerUser, startTestServer, type TestServer } from '../../test/harness.ts';

let now: Date;
let server: TestServer;
beforeEach(async () => {
  now = new Date('2025-06-01T12:00:00.000Z');
  server = await startTestServer({ now: () => now });
});
afterEach(async () => server.close());

describe('subscriptions', () => {
  it('gives a new group an active 14-day trial on Prueba with 500 slans', async () => {
    const jar = await registerUser(server.app, 'plan@asesoria.es');
    const launcher = launcherSubscriptionResponseSchema.parse((await jar.get('/api/subscriptions/launcher')).json());
    expect(launcher).toEqual({ active: true, trialing: true, name: 'Prueba', balance: 500 });
    const usage = subscriptionUsageResponseSchema.parse((await jar.get('/api/subscriptions/usage')).json());
    expect(usage).toMatchObject({ usageLimit: 500, usedSlans: 0, slansPercentage: 0, cancelled: false, nextPaymentDate: '2025-06-15T12:00:00.000Z' });
  });

  it('derives usage from the group’s stored figures and turns inactive after the period', async () => {
    const jar = await registerUser(server.app, 'uso@asesoria.es');
    const db = new Database(join(server.dir, 'test.sqlite'));
    db.prepare('update subscriptions set used_slans = 470').run();
    db.close();
    const usage = subscriptionUsageResponseSchema.parse((await jar.get('/api/subscriptions/usage')).json());
    expect(usage).toMatchObject({ balance: 30, usedSlans: 470, slansPercentage: 94 });

    now = new Date('2025-06-16T00:00:00.000Z');
    expect((await jar.post('/api/auth/newtoken')).statusCode).toBe(200); // the access cookie expired meanwhile
    const launcher = launcherSubscriptionResponseSchema.parse((await jar.get('/api/subscriptions/launcher')).json());
    expect(launcher.active).toBe(false);
  });

  it('needs a session', async () => {
    expect((await server.app.inject({ method: 'GET', url: '/api/subscriptions/launcher' })).statusCode).toBe(401);
    expect((await server.app.inject({ method: 'GET', url: '/api/subscriptions/usage' })).statusCode).toBe(401);
  });
});
