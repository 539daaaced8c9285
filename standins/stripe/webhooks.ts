/**
 * Events and their delivery, as Stripe does it: each event is signed by hand with Stripe's scheme
 * (`Stripe-Signature: t=<unix>,v1=<hex HMAC-SHA256(secret, "<t>.<body>")>`) and delivered in creation
 * order, one at a time; a non-2xx answer or a network failure is retried a few times, and every attempt
 * is recorded so tests can look at it.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { API_VERSION } from './catalogue.ts';
import { publicView } from './objects.ts';

export type WebhookHandler = (payload: string, headers: Record<string, string>) => Promise<{ status: number }>;
export type WebhookTarget = string | WebhookHandler | null;

export interface DeliveryAttempt {
  at: string;
  /** The endpoint's HTTP status; null when it could not be reached (then `error` says why). */
  status: number | null;
  error?: string;
}

export interface StripeEventRecord {
  id: string;
  type: string;
  created: number;
  /** The event exactly as sent (the same bytes on every attempt and resend). */
  body: string;
  event: StripeEvent;
  attempts: DeliveryAttempt[];
  status: 'pending' | 'delivered' | 'failed' | 'not_sent';
}

export interface StripeEvent {
  id: string;
  object: 'event';
  api_version: string;
  created: number;
  type: string;
  livemode: false;
  data: { object: unknown; previous_attributes?: Record<string, unknown> };
  pending_webhooks: number;
  request: { id: string | null; idempotency_key: string | null };
}

export function signature(secret: string, body: string, timestamp: number): string {
  const v1 = createHmac('sha256', secret).update(`${timestamp}.${body}`, 'utf8').digest('hex');
  return `t=${timestamp},v1=${v1}`;
}

export class WebhookQueue {
  private readonly records: StripeEventRecord[] = [];
  private tail: Promise<void> = Promise.resolve();
  private target: WebhookTarget;

  constructor(
    private readonly secret: string,
    private readonly now: () => Date,
    target: WebhookTarget,
    /** Waits before the 2nd and 3rd attempts. */
    private readonly retryDelaysMs: readonly number[] = [50, 250],
  ) {
    this.target = target;
  }

  setTarget(target: WebhookTarget): void {
    this.target = target;
  }

  /** Creates the event (a snapshot of `object` now) and queues its delivery. */
  emit(type: string, object: unknown, request: StripeEvent['request'], previousAttributes?: Record<string, unknown>): StripeEvent {
    const event: StripeEvent = {
      id: `evt_${randomBytes(12).toString('hex')}`,
      object: 'event',
      api_version: API_VERSION,
      created: Math.floor(this.now().getTime() / 1000),
      type,
      livemode: false,
      data: { object: publicView(object), ...(previousAttributes && { previous_attributes: publicView(previousAttributes) }) },
      pending_webhooks: this.target === null ? 0 : 1,
      request,
    };
    const record: StripeEventRecord = { id: event.id, type, created: event.created, body: JSON.stringify(event, null, 2), event, attempts: [], status: 'pending' };
    this.records.push(record);
    this.queue(record);
    return event;
  }

  events(): StripeEventRecord[] {
    return [...this.records];
  }

  /** The same event, same body, signed anew and sent again after whatever is queued. */
  resend(eventId: string): Promise<void> {
    const record = this.records.find((candidate) => candidate.id === eventId);
    if (record === undefined) return Promise.reject(new Error(`No such event: '${eventId}'`));
    this.queue(record);
    return this.tail;
  }

  settled(): Promise<void> {
    return this.tail;
  }

  private queue(record: StripeEventRecord): void {
    this.tail = this.tail.then(() => this.deliver(record));
  }

  private async deliver(record: StripeEventRecord): Promise<void> {
    const target = this.target;
    if (target === null) {
      if (record.status === 'pending') record.status = 'not_sent';
      return;
    }
    for (let attempt = 0; attempt <= this.retryDelaysMs.length; attempt++) {
      if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, this.retryDelaysMs[attempt - 1]));
      const headers = {
        'content-type': 'application/json; charset=utf-8',
        // Signed at the wall clock's time, not the `now` option's: receivers check the signature's age
        // against their own clock (the SDK's tolerance is 300 s), as they would with Stripe.
        'stripe-signature': signature(this.secret, record.body, Math.floor(Date.now() / 1000)),
        'user-agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks)',
      };
      const at = new Date().toISOString();
      try {
        const status = typeof target === 'string' ? await post(target, record.body, headers) : (await target(record.body, headers)).status;
        record.attempts.push({ at, status });
        if (status >= 200 && status < 300) {
          record.status = 'delivered';
          return;
        }
      } catch (error) {
        record.attempts.push({ at, status: null, error: error instanceof Error ? error.message : String(error) });
      }
    }
    record.status = 'failed';
  }
}

async function post(url: string, body: string, headers: Record<string, string>): Promise<number> {
  const response = await fetch(url, { method: 'POST', headers, body, signal: AbortSignal.timeout(10_000) });
  await response.body?.cancel(); // Stripe ignores the answer's body; reading it frees the connection.
  return response.status;
}
