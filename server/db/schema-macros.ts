/** The macros tables (migration 0022, issue 41), part of the Database of schema.ts. */

export interface MacrosTable {
  id: string;
  group_id: string;
  owner_user_id: string;
  name: string;
  description: string;
  current_version: number;
  /** Steps of the current version (walkSteps), for the list. */
  steps: number;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
}

export interface MacroVersionsTable {
  macro_id: string;
  version: number;
  /** JSON MacroDefinition. */
  definition: string;
  created_by: string | null;
  created_at: string;
  note: string;
}
