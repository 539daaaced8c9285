/** The stand-in's in-process API, as tests and other helpers code against it (see standin.ts). */
import type { MeterEventRecord } from './store.ts';
import type { StripeEventRecord, WebhookHandler } from './webhooks.ts';

export interface StripeStandin {
  url: string;
  secretKey: string;
  webhookSecret: string;
  /** Where events go: a URL (POSTed) or an in-process handler (API tests use app.inject). Null: kept, not sent. */
  setWebhookTarget(target: string | WebhookHandler | null): void;
  /** Resolves once every event queued so far has been delivered (or given up). */
  settled(): Promise<void>;
  events(): StripeEventRecord[];
  resend(eventId: string): Promise<void>;
  completeCheckout(sessionId: string, card?: string): Promise<{ redirectUrl: string }>;
  advancePeriod(subscriptionId: string): Promise<{ invoiceId: string | null }>;
  failNextPayment(customerId: string): void;
  payInvoice(invoiceId: string): Promise<void>;
  meterEvents(): MeterEventRecord[];
  close(): Promise<void>;
}

export interface StripeStandinOptions {
  port?: number;
  host?: string;
  secretKey?: string;
  webhookSecret?: string;
  now?: () => Date;
  webhookTarget?: string | WebhookHandler;
  /** Waits before the 2nd and 3rd delivery attempts (default 50 and 250 ms). */
  retryDelaysMs?: readonly number[];
}
