/** The DEHÚ notifications module's tables (migration 0015), part of the Database of schema.ts. */

/** A certificate on a machine whose DEHÚ mailbox the firm watches, with its last update. */
export interface DehuWatchedCertificatesTable {
  id: string;
  group_id: string;
  machine_id: string;
  fingerprint: string;
  common_name: string;
  nif: string | null;
  added_by: string | null;
  created_at: string;
  update_state: 'running' | 'done' | 'error' | null;
  update_started_at: string | null;
  update_finished_at: string | null;
  update_found: number;
  update_added: number;
  update_message: string | null;
}

/** One DEHÚ notification or comunicación of a firm, unique by identificador. */
export interface DehuNotificationsTable {
  id: string;
  group_id: string;
  identificador: string;
  codigo_origen: number;
  certificate_fingerprint: string;
  machine_id: string | null;
  certificate_common_name: string;
  titular_name: string;
  titular_nif: string;
  organo_name: string;
  organo_code: string;
  organismo_raiz_name: string | null;
  cod_procedimiento: string | null;
  concepto: string;
  descripcion: string | null;
  tipo: 'notificacion' | 'comunicacion';
  vinculo: 'titular' | 'destinatario' | 'apoderado' | 'otro';
  disposicion: string;
  caducidad: string | null;
  estado: 'pendiente' | 'aceptada' | 'rechazada' | 'expirada' | 'realizada_teu' | 'leida';
  receptor_name: string | null;
  receptor_nif: string | null;
  csv_resguardo: string | null;
  opened_at: string | null;
  opened_by: string | null;
  first_seen_at: string;
  updated_at: string;
  search_text: string;
}

/** A stored document of an opened notification (the notice, an annex, the acuse). */
export interface DehuDocumentsTable {
  id: string;
  notification_id: string;
  group_id: string;
  kind: 'documento' | 'anexo' | 'acuse';
  name: string;
  mime_type: string;
  size: number;
  sha256: string;
  storage_key: string;
  created_at: string;
}

/** The last digest each firm was sent. */
export interface DehuDigestsTable {
  group_id: string;
  last_day: string;
  last_sent_at: string | null;
}
