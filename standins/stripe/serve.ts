/**
 * Starts the Stripe stand-in on its own (manual tries, e2e in another process) and prints the lines to
 * paste for the server, then one JSON line for scripts:
 *
 *   STRIPE_SECRET_KEY=sk_test_…
 *   STRIPE_WEBHOOK_SECRET=whsec_…
 *   STRIPE_API_BASE=http://127.0.0.1:12111
 *   {"url":…,"env":{…}}
 *
 * Usage: npx tsx standins/stripe/serve.ts [--port 12111] [--webhook http://localhost:8081/api/stripe/webhook]
 * The key and secret are fixed for a given port unless STRIPE_SECRET_KEY / STRIPE_WEBHOOK_SECRET are set,
 * so a server's .env keeps working across restarts. Runs until SIGINT or SIGTERM. Test-only.
 */
import { parseArgs } from 'node:util';
import { startStripeStandin } from './standin.ts';

const { values } = parseArgs({ options: { port: { type: 'string', default: '12111' }, webhook: { type: 'string' }, host: { type: 'string', default: '127.0.0.1' } } });
const port = Number(values.port);
if (!Number.isInteger(port) || port < 0 || port > 65_535) {
  process.stderr.write(`serve.ts: --port ${values.port} is not a port number\n`);
  process.exit(1);
}

const standin = await startStripeStandin({
  port,
  host: values.host,
  secretKey: process.env.STRIPE_SECRET_KEY || 'sk_test_standin_local',
  webhookSecret: process.env.STRIPE_WEBHOOK_SECRET || 'whsec_standin_local',
  ...(values.webhook && { webhookTarget: values.webhook }),
});

const env = { STRIPE_SECRET_KEY: standin.secretKey, STRIPE_WEBHOOK_SECRET: standin.webhookSecret, STRIPE_API_BASE: standin.url };
process.stdout.write(`${Object.entries(env).map(([name, value]) => `${name}=${value}`).join('\n')}\n`);
process.stdout.write(`${JSON.stringify({ url: standin.url, env, webhook: values.webhook ?? null })}\n`);
process.stderr.write(values.webhook ? `Avisos firmados a ${values.webhook}\n` : 'Sin --webhook: los avisos se guardan (GET /_standin/events) pero no se envían.\n');

const stop = () => void standin.close().finally(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
