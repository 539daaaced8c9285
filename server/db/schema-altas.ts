/** The altas y bajas module's tables (migration 0014), part of the Database of schema.ts. */

/** A firm's form of a flow: public settings (title, url, logo) and its configuration. */
export interface AltasFormsTable {
  id: string;
  group_id: string;
  flow_id: string;
  title: string | null;
  /** '/form/flows/<slug>', unique across firms. */
  url: string | null;
  logo_id: string | null;
  logo_key: string | null;
  logo_mime: string | null;
  configuration_name: string;
  /** JSON FormPage[] or null (the built-in pages). */
  form_pages: string | null;
  /** JSON { [fieldKey]: FieldOverride }. */
  field_overrides: string;
  created_at: string;
  updated_at: string;
}

/** A company's user: signs in to the public form with the password the firm emailed. */
export interface AltasClientUsersTable {
  id: string;
  group_id: string;
  name: string;
  email: string;
  password_hash: string | null;
  created_at: string;
  updated_at: string;
}

export interface AltasCompaniesTable {
  id: string;
  group_id: string;
  client_user_id: string;
  form_id: string;
  name: string;
  email: string;
  /** JSON CccRow[]. */
  ccc_list: string;
  /** JSON CompanyGroup[]. */
  groups: string;
  credentials_enabled: number;
  email_sent_at: string | null;
  open: number;
  removed: number;
  created_at: string;
  updated_at: string;
}

export interface AltasSubmissionsTable {
  id: string;
  group_id: string;
  company_id: string;
  flow_id: string;
  group_key: string | null;
  title: string;
  /** JSON FieldsValues. */
  fields_values: string;
  created_by: 'advisor' | 'client';
  created_by_user: string | null;
  created_at: string;
  updated_at: string;
  red_at: string | null;
  red_resolution: string | null;
  a3_at: string | null;
  company_notified_at: string | null;
  afi_file: string | null;
  last_error: string | null;
  /** When RED or A3 last refused it (migration 0025); null with last_error. */
  last_error_at: string | null;
  /** Marked registered by hand (the advisor filed it elsewhere): who (user id, and name then) and RED's reference if given. */
  red_manual_by: string | null;
  red_manual_by_name: string | null;
  red_manual_reference: string | null;
  removed: number;
}

export interface AltasClientSessionsTable {
  id: string;
  token_hash: string;
  client_user_id: string;
  group_id: string;
  expires_at: string;
  created_at: string;
}

/** A file a company uploaded for a submission (DNI photo, contract). */
export interface AltasFilesTable {
  id: string;
  group_id: string;
  client_user_id: string | null;
  session_id: string | null;
  submission_id: string | null;
  name: string;
  size: number;
  content_type: string;
  storage_key: string;
  created_at: string;
}
