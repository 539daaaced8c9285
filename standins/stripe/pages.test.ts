/** The hosted checkout page, the HTTP controls Playwright uses, and webhook delivery to a URL. */
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import type Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STANDIN_CATALOGUE } from './catalogue.ts';
import { startSdkFixture, type SdkFixture } from './testing.ts';
import { signature } from './webhooks.ts';

let fixture: SdkFixture;
beforeAll(async () => {
  fixture = await startSdkFixture();
});
afterAll(() => fixture.standin.close());

async function openSession(mode: 'subscription' | 'setup'): Promise<Stripe.Checkout.Session> {
  const customer = await fixture.stripe.customers.create({ name: 'Asesoría Web' });
  return mode === 'setup'
    ? fixture.stripe.checkout.sessions.create({ mode, customer: customer.id, currency: 'eur', success_url: 'http://app.test/ok', cancel_url: 'http://app.test/volver' })
    : fixture.stripe.checkout.sessions.create({
        mode,
        customer: customer.id,
        line_items: [{ price: STANDIN_CATALOGUE.prices.pro.id, quantity: 1 }, { price: STANDIN_CATALOGUE.prices.proExtra.id }],
        success_url: 'http://app.test/ok?s={CHECKOUT_SESSION_ID}',
        cancel_url: 'http://app.test/volver',
        locale: 'es',
      });
}

const pay = (session: Stripe.Checkout.Session, card: string, exp = '12/34') =>
  fetch(String(session.url), { method: 'POST', redirect: 'manual', body: new URLSearchParams({ card, exp, cvc: '123', name: 'Ana Pérez' }) });

describe('the hosted checkout page', () => {
  it('shows what is bought, labelled fields and a way back; paying answers 303 to success_url', async () => {
    const session = await openSession('subscription');
    const page = await (await fetch(String(session.url))).text();
    for (const text of ['lang="es"', 'Profesional', '149,00 €', '<label for="card">Número de tarjeta</label>', 'Caducidad (MM/AA)', '>CVC<', '>Titular<', '>Suscribirse</button>', 'href="http://app.test/volver">Volver']) expect(page).toContain(text);

    const answer = await pay(session, '4242 4242 4242 4242');
    expect(answer.status).toBe(303);
    expect(answer.headers.get('location')).toBe(`http://app.test/ok?s=${session.id}`);
    expect(await fixture.stripe.checkout.sessions.retrieve(session.id)).toMatchObject({ status: 'complete', payment_status: 'paid' });
    expect(await (await pay(session, '4242424242424242')).text()).toContain('Este pago ya se ha completado.');
  });

  it('refuses a declined card, a past expiry and an unknown number, completing nothing', async () => {
    const session = await openSession('setup');
    expect(await (await fetch(String(session.url))).text()).toContain('>Guardar tarjeta</button>');
    expect(await (await pay(session, '4000000000000002')).text()).toContain('Tu tarjeta ha sido rechazada.');
    expect(await (await pay(session, '4242424242424242', '01/20')).text()).toContain('La fecha de caducidad no es válida.');
    expect(await (await pay(session, '1234567812345678')).text()).toContain('El número de tarjeta no es válido.');
    expect(await fixture.stripe.checkout.sessions.retrieve(session.id)).toMatchObject({ status: 'open', setup_intent: null });
    expect((await pay(session, '5555555555554444')).status).toBe(303);
  });
});

describe('the /_standin/ controls', () => {
  it('complete a checkout, find the subscription, make a payment fail, advance, pay and list events', async () => {
    const base = fixture.standin.url;
    const post = (path: string, body?: unknown) => fetch(`${base}/_standin/${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
    const session = await openSession('subscription');
    expect((await post(`checkout/${session.id}/complete`, { card: '4000000000000002' })).status).toBe(402);
    expect(await (await post(`checkout/${session.id}/complete`, {})).json()).toEqual({ redirectUrl: `http://app.test/ok?s=${session.id}` });
    const [subscription] = (await (await fetch(`${base}/_standin/subscriptions?customer=${String(session.customer)}`)).json()) as Stripe.Subscription[];
    expect(subscription?.status).toBe('active');
    expect((await post(`customers/${String(session.customer)}/fail-next-payment`)).status).toBe(200);
    const { invoiceId } = (await (await post(`subscriptions/${subscription?.id}/advance`)).json()) as { invoiceId: string };
    expect((await fixture.stripe.subscriptions.retrieve(String(subscription?.id))).status).toBe('past_due');
    expect((await post(`invoices/${invoiceId}/pay`)).status).toBe(200);
    expect((await fixture.stripe.subscriptions.retrieve(String(subscription?.id))).status).toBe('active');
    const events = (await (await fetch(`${base}/_standin/events`)).json()) as { type: string; status: string }[];
    expect(events.at(-1)).toMatchObject({ type: 'customer.subscription.updated', status: 'delivered' });
    expect((await post('subscriptions/sub_nope/advance')).status).toBe(404);
    expect((await post('nothing-here')).status).toBe(404);
    expect((await fetch(`${base}/c/pay/cs_test_nope`)).status).toBe(404);
    expect((await fetch(`${base}/v1/nothing`, { headers: { authorization: `Bearer ${fixture.standin.secretKey}` } })).status).toBe(404);
  });
});

describe('webhook delivery to a URL', () => {
  it('signs each attempt, retries a failing endpoint three times, and resends the same body', async () => {
    const bodies: { body: string; signature: string }[] = [];
    let answer = 500;
    const endpoint = createServer((request: IncomingMessage, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => {
        bodies.push({ body, signature: String(request.headers['stripe-signature']) });
        response.writeHead(answer).end();
      });
    });
    await new Promise<void>((resolve) => endpoint.listen(0, '127.0.0.1', resolve));
    const target = `http://127.0.0.1:${(endpoint.address() as AddressInfo).port}/webhook`;
    try {
      fixture.standin.setWebhookTarget(target);
      const customer = await fixture.stripe.customers.create({ name: 'Reintentos' });
      const session = await fixture.stripe.checkout.sessions.create({ mode: 'setup', customer: customer.id, currency: 'eur', success_url: 'http://app.test/ok' });
      await fixture.standin.completeCheckout(session.id);
      await fixture.standin.settled();
      const [first, second] = fixture.standin.events().slice(-2);
      expect(first).toMatchObject({ type: 'setup_intent.succeeded', status: 'failed' });
      expect(first?.attempts.map((attempt) => attempt.status)).toEqual([500, 500, 500]);
      expect(bodies).toHaveLength(6);
      const [t] = /t=(\d+)/.exec(bodies[0]?.signature ?? '')?.slice(1) ?? [];
      expect(bodies[0]?.signature).toBe(signature(fixture.standin.webhookSecret, bodies[0]?.body ?? '', Number(t)));

      answer = 200;
      await fixture.standin.resend(String(second?.id));
      expect(fixture.standin.events().find((event) => event.id === second?.id)).toMatchObject({ status: 'delivered' });
      expect(bodies.at(-1)?.body).toBe(bodies[3]?.body);
      expect(JSON.parse(bodies.at(-1)?.body ?? '{}')).toMatchObject({ id: second?.id, type: 'checkout.session.completed' });
    } finally {
      await new Promise((resolve) => endpoint.close(resolve));
    }
  });
});
