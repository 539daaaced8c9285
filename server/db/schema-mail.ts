/** The mail accounts module's tables (migration 0016), part of the Database of schema.ts. */

/** A mailbox a firm linked; its tokens sealed with the server's secrets key, never sent anywhere but the provider. */
export interface MailAccountsTable {
  id: string;
  group_id: string;
  user_id: string;
  provider: 'google' | 'microsoft';
  email: string;
  client_kind: 'web' | 'desktop';
  scope: string;
  /** Sealed. Microsoft's replaces itself on every use. */
  refresh_token: string;
  /** Sealed; null until the first refresh. */
  access_token: string | null;
  access_expires_at: string | null;
  status: 'linked' | 'needs_relink';
  problem: string | null;
  created_at: string;
  updated_at: string;
  last_used_at: string | null;
}

/** An authorization under way (web flow): the state the provider must echo and its PKCE verifier (sealed). */
export interface MailOAuthStatesTable {
  state: string;
  group_id: string;
  user_id: string;
  provider: 'google' | 'microsoft';
  code_verifier: string;
  redirect_uri: string;
  created_at: string;
  expires_at: string;
}

/** One message a robot's run, a failure or an account caused, and its delivery. */
export interface MailOutboxTable {
  id: string;
  group_id: string;
  user_id: string | null;
  cause_key: string;
  run_id: string | null;
  kind: 'result' | 'notice' | 'account';
  account_id: string | null;
  transport: 'google' | 'microsoft' | 'smtp';
  from_address: string | null;
  /** JSON array of addresses. */
  to_addresses: string;
  subject: string;
  body: string;
  reply_to: string | null;
  sender_name: string | null;
  /** JSON array of { fileId, name, size }. */
  attachments: string;
  state: 'pending' | 'sending' | 'sent' | 'failed' | 'unknown';
  attempts: number;
  next_attempt_at: string | null;
  provider_message_id: string | null;
  last_error: string | null;
  created_at: string;
  updated_at: string;
  sent_at: string | null;
}
