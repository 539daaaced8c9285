/**
 * The Stripe stand-in: a local HTTP server that speaks the part of Stripe's REST API AutoAsesor uses
 * (through the official SDK, pointed here by STRIPE_API_BASE), hosts the checkout page, and sends
 * webhooks signed with Stripe's scheme. Test-only: never part of the app.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { compileRoutes, handleApi } from './api.ts';
import { billingRoutes } from './api-billing.ts';
import { catalogueRoutes } from './api-catalogue.ts';
import { customerRoutes } from './api-customers.ts';
import { Billing, DEFAULT_CARD } from './billing.ts';
import { handleControl } from './controls.ts';
import { sendHtml, sendJson } from './http.ts';
import type { CheckoutSession, Invoice } from './objects.ts';
import { checkoutPage, invoicePage, postCheckout, sendPdf } from './pages.ts';
import { StripeStore } from './store.ts';
import type { StripeStandin, StripeStandinOptions } from './types.ts';
import { WebhookQueue } from './webhooks.ts';

export { STANDIN_CATALOGUE, TEST_CARDS } from './catalogue.ts';
export type { MeterEventRecord } from './store.ts';
export type { StripeEventRecord, WebhookHandler } from './webhooks.ts';
export type { StripeStandin, StripeStandinOptions } from './types.ts';

const API_ROUTES = compileRoutes([...customerRoutes, ...catalogueRoutes, ...billingRoutes]);

export async function startStripeStandin(options: StripeStandinOptions = {}): Promise<StripeStandin> {
  const secretKey = options.secretKey ?? `sk_test_standin${randomBytes(12).toString('hex')}`;
  const webhookSecret = options.webhookSecret ?? `whsec_standin${randomBytes(16).toString('hex')}`;
  const now = options.now ?? (() => new Date());
  let url = '';
  const store = new StripeStore(() => url, now);
  const hooks = new WebhookQueue(webhookSecret, now, options.webhookTarget ?? null, options.retryDelaysMs);
  const billing = new Billing(store, hooks);

  const standin: StripeStandin = {
    url: '',
    secretKey,
    webhookSecret,
    setWebhookTarget: (target) => hooks.setTarget(target),
    settled: () => hooks.settled(),
    events: () => hooks.events(),
    resend: (eventId) => hooks.resend(eventId),
    completeCheckout: async (sessionId, card) => billing.completeCheckout(sessionId, { ...DEFAULT_CARD, number: card ?? DEFAULT_CARD.number }),
    advancePeriod: async (subscriptionId) => billing.advancePeriod(subscriptionId),
    failNextPayment: (customerId) => void store.failNextPayment.add(store.get('customer', customerId).id),
    payInvoice: async (invoiceId) => void billing.payInvoice(invoiceId),
    meterEvents: () => store.meterEvents.map((event) => ({ ...event })),
    close: () =>
      new Promise((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections(); // the SDK keeps connections alive
      }),
  };

  const server = createServer((request, response) => {
    route(request, response).catch((error: unknown) => {
      if (!response.headersSent) sendJson(response, 500, { error: { type: 'api_error', message: error instanceof Error ? error.message : String(error) } });
      else response.destroy();
    });
  });

  async function route(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const requestUrl = new URL(request.url ?? '/', url);
    const path = requestUrl.pathname;
    if (path.startsWith('/v1/')) return handleApi(API_ROUTES, secretKey, { store, hooks, billing }, request, response, requestUrl);
    if (path.startsWith('/_standin/')) return handleControl(standin, store, request, response, requestUrl);
    const page = /^\/c\/pay\/([^/]+)$/.exec(path);
    if (page !== null) {
      const session = store.find(decodeURIComponent(page[1] ?? ''));
      if (session?.object !== 'checkout.session') return sendHtml(response, 404, '<!doctype html><html lang="es"><title>No encontrado</title><h1>Esta página de pago no existe.</h1></html>');
      if (request.method === 'POST') return postCheckout(store, billing, session as CheckoutSession, request, response);
      return sendHtml(response, 200, checkoutPage(store, session as CheckoutSession));
    }
    const invoice = /^\/(?:i\/([^/]+)|invoices\/([^/]+)\.pdf)$/.exec(path);
    const found = invoice === null ? undefined : store.find(invoice[1] ?? invoice[2] ?? '');
    if (found?.object === 'invoice' && (found as Invoice).status !== 'draft') {
      return invoice?.[2] !== undefined ? sendPdf(response, found as Invoice) : sendHtml(response, 200, invoicePage(found as Invoice));
    }
    sendJson(response, 404, { error: { type: 'invalid_request_error', message: `Unrecognized request URL (${request.method}: ${path}).` } });
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const address = server.address() as AddressInfo;
  url = `http://${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}`;
  standin.url = url;
  return standin;
}
