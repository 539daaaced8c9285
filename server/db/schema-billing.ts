/** The billing, support and colleagues tables (migration 0017), part of the Database of schema.ts. */

/** The name, NIF/CIF and address a firm's invoices carry (also sent to its Stripe customer). */
export interface BillingProfilesTable {
  group_id: string;
  name: string;
  /** Compacted and upper-case: a valid NIF, NIE or CIF. */
  tax_id: string;
  email: string;
  address_line1: string;
  address_line2: string | null;
  postal_code: string;
  city: string;
  province: string;
  /** ISO 3166-1 alpha-2. */
  country: string;
  updated_by: string | null;
  updated_at: string;
}

/** A Stripe event received: kept by id, so a replay is recognised and changes nothing. */
export interface BillingEventsTable {
  id: string;
  type: string;
  object_id: string | null;
  /** Seconds since the epoch (Stripe's `created`); bigint in PostgreSQL, read it with Number(). */
  created: number | string;
  received_at: string;
  processed_at: string | null;
}

/** An invoice as the webhooks last described it; amounts in cents. */
export interface BillingInvoicesTable {
  id: string;
  group_id: string;
  number: string | null;
  status: 'draft' | 'open' | 'paid' | 'uncollectible' | 'void';
  currency: string;
  total: number;
  amount_paid: number;
  amount_due: number;
  period_start: string | null;
  period_end: string | null;
  hosted_invoice_url: string | null;
  invoice_pdf: string | null;
  payment_failed_at: string | null;
  /** When the failed-payment email went (once per invoice, whatever events came about it). */
  payment_failed_mailed_at: string | null;
  created_at: string;
  updated_at: string;
}

/** A run's slans past the plan's limit, reported to Stripe's meter once (identifier: the run). */
export interface BillingUsageReportsTable {
  run_id: string;
  group_id: string;
  slans: number;
  extra_usage_price: number;
  milli_slans: number;
  state: 'pending' | 'sent' | 'failed';
  attempts: number;
  next_attempt_at: string | null;
  last_error: string | null;
  created_at: string;
  reported_at: string | null;
}

/** The slans a period gave a firm: the trial's, or a paid period's included slans. */
export interface CreditGrantsTable {
  id: string;
  group_id: string;
  plan_name: string;
  slans: number;
  reason: 'trial' | 'period';
  period_start: string;
  period_end: string;
  created_at: string;
}

export type TicketStatus = 'open' | 'answered' | 'closed';

export interface SupportTicketsTable {
  id: string;
  group_id: string;
  user_id: string;
  subject: string;
  category: string;
  run_id: string | null;
  status: TicketStatus;
  user_unread: number;
  support_unread: number;
  created_at: string;
  updated_at: string;
}

export interface SupportMessagesTable {
  id: string;
  ticket_id: string;
  author_kind: 'user' | 'support';
  author_user_id: string | null;
  author_name: string;
  body: string;
  via: 'app' | 'email';
  email_message_id: string | null;
  created_at: string;
}

export interface SupportAttachmentsTable {
  id: string;
  message_id: string;
  /** stored_files.id, in the ticket's firm. */
  file_id: string;
  name: string;
  size: number;
}

export interface ColleagueInvitationsTable {
  id: string;
  group_id: string;
  email: string;
  token_hash: string;
  invited_by: string | null;
  created_at: string;
  expires_at: string;
  accepted_at: string | null;
  accepted_user_id: string | null;
  revoked_at: string | null;
}
