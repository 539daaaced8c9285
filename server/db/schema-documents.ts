/** The documents tables (migration 0020, issue 40), part of the Database of schema.ts. */

export interface DocCategoriesTable {
  id: string;
  group_id: string;
  name: string;
  created_at: string;
}

export interface DocTemplatesTable {
  id: string;
  group_id: string;
  owner_user_id: string;
  category_id: string | null;
  name: string;
  description: string;
  /** JSON TemplateContent. */
  content: string;
  /** JSON string[] (templatePlaceholders of the content). */
  placeholders: string;
  takes_signature: number;
  starter_key: string | null;
  created_at: string;
  updated_at: string;
}

export interface DocFormsTable {
  id: string;
  group_id: string;
  owner_user_id: string;
  template_id: string | null;
  title: string;
  description: string;
  /** JSON OnlineFormField[]. */
  fields: string;
  /** JSON TemplateContent, as the template was when the form was last saved. */
  template_content: string;
  template_name: string;
  require_signature: number;
  status: 'draft' | 'published' | 'closed';
  public_id: string;
  created_at: string;
  updated_at: string;
  published_at: string | null;
}

export interface DocSubmissionsTable {
  id: string;
  form_id: string;
  group_id: string;
  /** JSON OnlineFormValues. */
  values: string;
  search_text: string;
  signer_name: string | null;
  signature_key: string | null;
  /** Bytes it holds in storage (signature and generated files), counted against the form's and firm's caps. */
  bytes: number;
  document_id: string | null;
  created_at: string;
}

export interface DocDocumentsTable {
  id: string;
  group_id: string;
  owner_user_id: string | null;
  template_id: string | null;
  submission_id: string | null;
  name: string;
  company: string | null;
  status: 'generating' | 'ready' | 'failed';
  error: string | null;
  pdf_key: string | null;
  pdf_size: number | null;
  docx_key: string | null;
  docx_size: number | null;
  created_at: string;
}

export interface SharesTable {
  id: string;
  group_id: string;
  object_kind: 'template' | 'form' | 'schedule' | 'flow-settings' | 'macro';
  object_id: string;
  user_id: string;
  access: 'view' | 'edit';
  created_by: string;
  created_at: string;
}

export interface GoogleSignInsTable {
  state: string;
  code_verifier: string;
  nonce: string;
  redirect_to: string;
  expires_at: string;
}
