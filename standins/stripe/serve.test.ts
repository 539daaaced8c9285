/** serve.ts as a person and e2e start it: a separate process printing the STRIPE_* lines the server reads. */
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import Stripe from 'stripe';
import { afterAll, expect, it } from 'vitest';
import { billingConfigFromEnv } from '../../server/modules/billing/config.ts';

const children: ChildProcess[] = [];
afterAll(() => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
});

it('prints STRIPE_* lines that the server turns into a working SDK client', async () => {
  const child = spawn(process.execPath, ['--import', 'tsx', new URL('./serve.ts', import.meta.url).pathname, '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, STRIPE_SECRET_KEY: '', STRIPE_WEBHOOK_SECRET: '' } });
  children.push(child);
  const lines: string[] = [];
  const json = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).on('line', (line) => (line.startsWith('{') ? resolve(line) : lines.push(line)));
    child.once('exit', (code) => reject(new Error(`serve.ts exited with ${code} before printing`)));
  });
  const env = Object.fromEntries(lines.map((line) => line.split('=', 2) as [string, string]));
  expect(JSON.parse(json)).toMatchObject({ env });
  const config = billingConfigFromEnv(env);
  expect(config).toMatchObject({ secretKey: expect.stringMatching(/^sk_test_/), webhookSecret: expect.stringMatching(/^whsec_/), api: { host: '127.0.0.1', protocol: 'http' } });

  const stripe = new Stripe(config?.secretKey ?? '', { host: config?.api?.host, port: config?.api?.port, protocol: 'http', maxNetworkRetries: 0 });
  expect((await stripe.prices.list({ lookup_keys: ['autoasesor_basic'] })).data[0]?.unit_amount).toBe(4900);
  expect(await (await fetch(`${env.STRIPE_API_BASE}/_standin/events`)).json()).toEqual([]);
});
