import type { Generated, Insertable, Selectable } from 'kysely';
import type { DocCategoriesTable, DocDocumentsTable, DocFormsTable, DocSubmissionsTable, DocTemplatesTable, GoogleSignInsTable, SharesTable } from './schema-documents.ts';
import type { AltasClientSessionsTable, AltasClientUsersTable, AltasCompaniesTable, AltasFilesTable, AltasFormsTable, AltasSubmissionsTable } from './schema-altas.ts';
import type { FieDocumentEntriesTable, FieDocumentsTable, FieEntriesTable, FieImportsTable } from './schema-fie.ts';
import type { DehuDigestsTable, DehuDocumentsTable, DehuNotificationsTable, DehuWatchedCertificatesTable } from './schema-notifications.ts';
import type { MacrosTable, MacroVersionsTable } from './schema-macros.ts';
import type { MailAccountsTable, MailOAuthStatesTable, MailOutboxTable } from './schema-mail.ts';
import type { DeviceTokensTable, MachineCertificatesTable, MachineConfigsTable, MachinesTable, ScriptSettingsTable } from './schema-machines.ts';
import type {
  BillingEventsTable,
  BillingInvoicesTable,
  BillingProfilesTable,
  BillingUsageReportsTable,
  ColleagueInvitationsTable,
  CreditGrantsTable,
  SupportAttachmentsTable,
  SupportMessagesTable,
  SupportTicketsTable,
} from './schema-billing.ts';

/**
 * The tables as Kysely sees them. Portable column types only: ids are text UUIDs, timestamps are
 * ISO-8601 UTC text (so they sort as text), JSON is text and booleans are 0/1 integers.
 */
export interface Database {
  groups: GroupsTable;
  users: UsersTable;
  sessions: SessionsTable;
  user_tokens: UserTokensTable;
  preferences: PreferencesTable;
  app_logs: AppLogsTable;
  release_notes: ReleaseNotesTable;
  plans: PlansTable;
  subscriptions: SubscriptionsTable;
  auth_throttle: AuthThrottleTable;
  flows: FlowsTable;
  flow_runs: FlowRunsTable;
  flow_run_logs: FlowRunLogsTable;
  stored_files: StoredFilesTable;
  credit_ledger: CreditLedgerTable;
  flow_schedules: FlowSchedulesTable;
  flow_run_counts: FlowRunCountsTable;
  machines: MachinesTable;
  machine_certificates: MachineCertificatesTable;
  machine_configs: MachineConfigsTable;
  script_settings: ScriptSettingsTable;
  device_tokens: DeviceTokensTable;
  fie_documents: FieDocumentsTable;
  fie_entries: FieEntriesTable;
  fie_document_entries: FieDocumentEntriesTable;
  fie_imports: FieImportsTable;
  altas_forms: AltasFormsTable;
  altas_client_users: AltasClientUsersTable;
  altas_companies: AltasCompaniesTable;
  altas_submissions: AltasSubmissionsTable;
  altas_client_sessions: AltasClientSessionsTable;
  altas_files: AltasFilesTable;
  dehu_watched_certificates: DehuWatchedCertificatesTable;
  dehu_notifications: DehuNotificationsTable;
  dehu_documents: DehuDocumentsTable;
  dehu_digests: DehuDigestsTable;
  mail_accounts: MailAccountsTable;
  mail_oauth_states: MailOAuthStatesTable;
  mail_outbox: MailOutboxTable;
  billing_profiles: BillingProfilesTable;
  billing_events: BillingEventsTable;
  billing_invoices: BillingInvoicesTable;
  billing_usage_reports: BillingUsageReportsTable;
  credit_grants: CreditGrantsTable;
  support_tickets: SupportTicketsTable;
  support_messages: SupportMessagesTable;
  support_attachments: SupportAttachmentsTable;
  doc_categories: DocCategoriesTable;
  doc_templates: DocTemplatesTable;
  doc_forms: DocFormsTable;
  doc_submissions: DocSubmissionsTable;
  doc_documents: DocDocumentsTable;
  shares: SharesTable;
  google_sign_ins: GoogleSignInsTable;
  colleague_invitations: ColleagueInvitationsTable;
  macros: MacrosTable;
  macro_versions: MacroVersionsTable;
}

export interface GroupsTable {
  id: string;
  name: string;
  /** JSON of GroupConfig. */
  config: string;
  created_at: string;
}

export interface UsersTable {
  id: string;
  group_id: string;
  email: string;
  name: string;
  password_hash: string;
  language: string;
  email_validated: number;
  /** JSON object: per-user app config. */
  config: string;
  used_slans: number;
  created_at: string;
  updated_at: string;
  /** 'owner' registered the firm (invites and removes colleagues); 'member' joined by invitation (migration 0017). */
  role: Generated<'owner' | 'member'>;
  /** 1: a member of the server's support team (answers tickets). Granted with `npm run support:agent`. */
  support_agent: Generated<number>;
  /** Set when the firm's owner removed this colleague: no sign-in, no sessions. */
  disabled_at: Generated<string | null>;
  /** Google's subject id once the user signed in with Google (migration 0020). */
  google_sub: Generated<string | null>;
}

/** One access + refresh token pair. A login starts a family; each refresh rotates to a new row in it. */
export interface SessionsTable {
  id: string;
  user_id: string;
  family_id: string;
  access_hash: string;
  refresh_hash: string;
  access_expires_at: string;
  refresh_expires_at: string;
  revoked_at: string | null;
  created_at: string;
  /** After rotation: the successor's tokens, sealed with this row's refresh token (grace replays). */
  successor_sealed?: string | null;
}

export type UserTokenKind = 'reset_password' | 'email_validation';

/** Single-use tokens sent by email, stored hashed. */
export interface UserTokensTable {
  id: string;
  user_id: string;
  kind: UserTokenKind;
  token_hash: string;
  expires_at: string;
  used_at: string | null;
  created_at: string;
}

export interface PreferencesTable {
  user_id: string;
  /** JSON object of the user's UI preferences. */
  data: string;
  updated_at: string;
}

export interface AppLogsTable {
  id: string;
  level: string;
  message: string;
  stack: string | null;
  url: string | null;
  /** JSON object or null. */
  context: string | null;
  client_app: string | null;
  client_version: string | null;
  client_language: string | null;
  user_id: string | null;
  created_at: string;
  /** The sender's IP (IPv6: its /64), for the per-sender byte budget (migration 0003). */
  client_ip: string | null;
  /** Bytes of message + stack + url + context. */
  size_bytes: number;
}

export interface ReleaseNotesTable {
  id: string;
  /** Markdown. */
  content: string;
  active: Generated<number>;
  created_at: string;
}

export interface PlansTable {
  id: string;
  /** Stable key the seed and code refer to: 'trial', 'basic', 'pro'. */
  ref: string;
  name: string;
  usage_limit: number;
  base_price: number;
  extra_usage_price: number;
  /** Length of the trial in days; null for paid plans. */
  trial_days: number | null;
  created_at: string;
  /** The plan's Stripe prices: the base (licensed) and the metered extra usage (migration 0017). */
  stripe_price_id: Generated<string | null>;
  stripe_extra_price_id: Generated<string | null>;
  /** 1 while the plan is offered. */
  available: Generated<number>;
}

/** A group's subscription (one per group). Statuses follow Stripe's names. */
export interface SubscriptionsTable {
  id: string;
  group_id: string;
  plan_id: string;
  status: string;
  current_period_end: string;
  cancel_at: string | null;
  used_slans: number;
  created_at: string;
  updated_at: string;
  /** Stripe's ids, once the firm has a customer, a paid subscription, a schedule (migration 0017). */
  stripe_customer_id: Generated<string | null>;
  stripe_subscription_id: Generated<string | null>;
  stripe_schedule_id: Generated<string | null>;
  /** The plan the schedule's next phase moves to, shown as scheduleSubNextPhaseName. */
  next_plan_id: Generated<string | null>;
  /** Start of the current period: when it moves on, used_slans starts again from 0. */
  current_period_start: Generated<string | null>;
  /** The latest invoice's payment failed (banner); cleared when an invoice is paid. */
  payment_failed_at: Generated<string | null>;
  /** When the subscription was last read from Stripe. */
  stripe_synced_at: Generated<string | null>;
}

/** Auth abuse counters (server/modules/auth/throttle.ts); times in epoch ms. */
export interface AuthThrottleTable {
  key: string;
  hits: number;
  window_start: number | string;
  blocked_until: number | string;
}

/** The catalogue: one row per resources/flows/<id> folder ever loaded (migration 0004). */
export interface FlowsTable {
  id: string;
  name: string;
  group_name: string;
  runs_on: string;
  usage_ratio: number;
  /** JSON of the FlowDefinition (shared/flows/definition.ts). */
  definition: string;
  /** 0 once its folder is gone: old runs still name it, new launches are refused. */
  active: number;
  created_at: string;
  updated_at: string;
}

export type FlowRunState = 'queued' | 'running' | 'finished';

/** One run of a flow: the flow log of spec §3. */
export interface FlowRunsTable {
  id: string;
  group_id: string;
  user_id: string;
  flow_id: string;
  flow_name: string;
  idempotency_key: string | null;
  execution_token: string;
  state: FlowRunState;
  /** RunResultName (shared/runlogs) once finished. */
  result: string | null;
  stopped_by_user: number;
  launch_status: number | null;
  scheduled: number;
  schedule_id: string | null;
  machine_name: string | null;
  /** Desktop flows: the machine that runs it (null for server flows, or once the machine is deleted). */
  machine_id: string | null;
  /** Launched for a machine from the web or a schedule ('Lanzamiento remoto'). */
  remote: number;
  /** The desktop sends its output files to the server (always 1 for server flows). */
  send_output_to_server: number;
  /** Desktop runs: the folder on the machine with the run's files, and their names (JSON array). */
  output_folder: string | null;
  output_file_names: string | null;
  successful_iterations: number;
  total_iterations: number;
  usage_units: number;
  usage_ratio: number;
  cost: number;
  /** JSON object of the inputs as sent (uploads by id). */
  inputs: string;
  /** JSON object of the robot's summary figures, or null. */
  summary: string | null;
  message: string | null;
  accept_extra_usage: number;
  /** Slans set aside at launch (its estimate): they count against the balance until the run closes (0011). */
  reserved_cost: Generated<number>;
  /** Its place in the server's fair queue (0011); null for runs never queued there. */
  queue_rank: number | string | null;
  lease_owner: string | null;
  lease_until: string | null;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
}

export interface FlowRunLogsTable {
  run_id: string;
  seq: number;
  level: string;
  text: string;
  created_at: string;
}

export type StoredFileKind = 'upload' | 'output';

export interface StoredFilesTable {
  id: string;
  group_id: string;
  user_id: string;
  kind: StoredFileKind;
  run_id: string | null;
  name: string;
  size: number;
  content_type: string;
  /** Path under the storage folder. */
  storage_key: string;
  created_at: string;
  /** What the upload's content turned out to be when inspected ('xlsx', 'csv', 'fie', 'pdf'…); null on outputs and older uploads. */
  detected_type: string | null;
  /** Workbooks: the first sheet's name, its header (JSON array of the non-empty cells) and its data rows. */
  sheet_name: string | null;
  sheet_columns: string | null;
  row_count: number | null;
  /** FIE files: their entries (partes). */
  entry_count: number | null;
  /** An output past its retention whose file the sweeper deleted (the row stays for the history); null while kept. */
  expired_at: string | null;
}

/** A run's debit; run_id is unique, so a run is charged once at most. */
export interface CreditLedgerTable {
  id: string;
  group_id: string;
  run_id: string;
  usage_units: number;
  usage_ratio: number;
  amount: number;
  created_at: string;
}

export interface FlowSchedulesTable {
  id: string;
  group_id: string;
  user_id: string;
  flow_id: string;
  flow_name: string;
  scheduled_date: string;
  repeat: number;
  every: number;
  interval: string;
  /** JSON object. */
  flow_inputs: string;
  send_output_to_server: number;
  machine_id: string | null;
  local_machine_hash: string | null;
  local_process: string | null;
  claimed_by: string | null;
  claimed_until: string | null;
  created_at: string;
  updated_at: string;
}

/** How many runs a group has, manual (scheduled 0) and scheduled or remote (1): the history's totals (0005). */
export interface FlowRunCountsTable {
  group_id: string;
  scheduled: number;
  runs: number;
}

export type UserRow = Selectable<UsersTable>;
export type GroupRow = Selectable<GroupsTable>;
export type SessionRow = Selectable<SessionsTable>;
export type NewUser = Insertable<UsersTable>;
