/**
 * `/_standin/…`: what tests in another process (Playwright) use to act as the customer and as time:
 * complete a checkout, end a period, make a payment fail, retry an invoice, look at events and meter
 * events. No key needed; the stand-in only ever listens on a test machine.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { CheckoutProblem } from './billing.ts';
import { StripeApiError, readBody, sendJson } from './http.ts';
import { publicView, type Subscription } from './objects.ts';
import type { StripeStandin } from './types.ts';
import type { StripeStore } from './store.ts';

type Control = (standin: StripeStandin, body: Record<string, unknown>, id: string, url: URL) => Promise<unknown>;

const CONTROLS: { method: string; pattern: RegExp; run: Control }[] = [
  { method: 'POST', pattern: /^\/_standin\/checkout\/([^/]+)\/complete$/, run: (standin, body, id) => standin.completeCheckout(id, typeof body.card === 'string' ? body.card : undefined) },
  { method: 'POST', pattern: /^\/_standin\/subscriptions\/([^/]+)\/advance$/, run: (standin, _body, id) => standin.advancePeriod(id) },
  { method: 'POST', pattern: /^\/_standin\/customers\/([^/]+)\/fail-next-payment$/, run: async (standin, _body, id) => (standin.failNextPayment(id), {}) },
  { method: 'POST', pattern: /^\/_standin\/invoices\/([^/]+)\/pay$/, run: async (standin, _body, id) => (await standin.payInvoice(id), {}) },
  { method: 'GET', pattern: /^\/_standin\/events$/, run: async (standin) => standin.events() },
  { method: 'POST', pattern: /^\/_standin\/events\/([^/]+)\/resend$/, run: async (standin, _body, id) => (await standin.resend(id), {}) },
  { method: 'GET', pattern: /^\/_standin\/meter-events$/, run: async (standin) => standin.meterEvents() },
  {
    method: 'POST',
    pattern: /^\/_standin\/webhook-target$/,
    run: async (standin, body) => {
      if (body.url !== null && typeof body.url !== 'string') throw new StripeApiError(400, 'invalid_request_error', 'url: a string or null');
      standin.setWebhookTarget(body.url);
      return {};
    },
  },
];

export async function handleControl(standin: StripeStandin, store: StripeStore, request: IncomingMessage, response: ServerResponse, url: URL): Promise<void> {
  if (request.method === 'GET' && url.pathname === '/_standin/subscriptions') {
    const customer = url.searchParams.get('customer');
    return sendJson(response, 200, publicView(store.all<Subscription>('subscription', (entry) => customer === null || entry.customer === customer)));
  }
  for (const control of CONTROLS) {
    const match = control.pattern.exec(url.pathname);
    if (match === null || control.method !== request.method) continue;
    try {
      const text = request.method === 'POST' ? await readBody(request) : '';
      const body = text.trim() === '' ? {} : (JSON.parse(text) as Record<string, unknown>);
      return sendJson(response, 200, await control.run(standin, body, decodeURIComponent(match[1] ?? ''), url));
    } catch (error) {
      if (error instanceof StripeApiError) return sendJson(response, error.status, error.body());
      if (error instanceof CheckoutProblem) return sendJson(response, 402, { error: { type: 'card_error', message: error.message, code: error.reason } });
      if (error instanceof SyntaxError) return sendJson(response, 400, { error: { type: 'invalid_request_error', message: 'The body is not JSON.' } });
      throw error;
    }
  }
  sendJson(response, 404, { error: { type: 'invalid_request_error', message: `No such control: ${request.method} ${url.pathname}` } });
}
