/** The machines module's tables (migrations 0007, 0008): PCs, their certificates, configs, script settings and device tokens; part of the Database of schema.ts. */

export interface MachinesTable {
  id: string;
  group_id: string;
  /** Who registered it: only they rename, share or delete it. */
  owner_user_id: string;
  machine_hash: string;
  name: string;
  saved_as: string;
  shared: number;
  last_sync_at: string | null;
  /** The last call of its desktop app or agent with a device token (online = within 45 s). */
  last_seen_at: string | null;
  created_at: string;
  updated_at: string;
}

/** A PC's desktop app or agent acting for its machine (shared/api/devices.ts). */
export interface DeviceTokensTable {
  id: string;
  machine_id: string;
  group_id: string;
  user_id: string;
  token_hash: string;
  created_at: string;
  last_used_at: string | null;
}

export interface MachineCertificatesTable {
  id: string;
  machine_id: string;
  group_id: string;
  fingerprint: string;
  serial_number: string;
  subject_string: string;
  common_name: string;
  issuer: string;
  not_before: string;
  not_after: string;
  nif_vat: string | null;
  kind: string;
  store: string;
  synced_at: string;
}

export interface MachineConfigsTable {
  id: string;
  /** The device it belongs to; null: the firm's own config (0023), used wherever the firm's robots run. */
  machine_id: string | null;
  group_id: string;
  name: string;
  /** JSON array of CCCs. */
  ccc_list: string;
  /** JSON of EmailSettings, or null. */
  email_settings: string | null;
  created_at: string;
}

export interface ScriptSettingsTable {
  id: string;
  group_id: string;
  user_id: string;
  flow_id: string;
  name: string;
  /** JSON object with the 'configuration' group. */
  settings: string;
  created_at: string;
}
