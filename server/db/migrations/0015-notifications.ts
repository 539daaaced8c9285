import type { Kysely } from 'kysely';

/**
 * DEHÚ notifications (issue 24): the certificates a firm watches (with each one's last update), the
 * notifications LEMA returned for them (one row per firm and identificador, however many updates or
 * certificates found it), their stored documents, and the day each firm's digest went out.
 * Times are ISO text, so they sort and compare as text.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('dehu_watched_certificates')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('group_id', 'text', (c) => c.notNull().references('groups.id').onDelete('cascade'))
    .addColumn('machine_id', 'text', (c) => c.notNull().references('machines.id').onDelete('cascade'))
    .addColumn('fingerprint', 'text', (c) => c.notNull())
    .addColumn('common_name', 'text', (c) => c.notNull())
    .addColumn('nif', 'text')
    .addColumn('added_by', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    /** The last update: 'running' | 'done' | 'error', or null before the first. */
    .addColumn('update_state', 'text')
    .addColumn('update_started_at', 'text')
    .addColumn('update_finished_at', 'text')
    .addColumn('update_found', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('update_added', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('update_message', 'text')
    .addUniqueConstraint('dehu_watched_certificates_unique', ['group_id', 'machine_id', 'fingerprint'])
    .execute();
  await db.schema.createIndex('dehu_watched_certificates_machine_idx').on('dehu_watched_certificates').columns(['machine_id', 'fingerprint']).execute();

  await db.schema
    .createTable('dehu_notifications')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('group_id', 'text', (c) => c.notNull().references('groups.id').onDelete('cascade'))
    .addColumn('identificador', 'text', (c) => c.notNull())
    .addColumn('codigo_origen', 'integer', (c) => c.notNull())
    /** The certificate that first found it, as it was then (the machine may be deleted later). */
    .addColumn('certificate_fingerprint', 'text', (c) => c.notNull())
    .addColumn('machine_id', 'text', (c) => c.references('machines.id').onDelete('set null'))
    .addColumn('certificate_common_name', 'text', (c) => c.notNull())
    .addColumn('titular_name', 'text', (c) => c.notNull())
    .addColumn('titular_nif', 'text', (c) => c.notNull())
    .addColumn('organo_name', 'text', (c) => c.notNull())
    .addColumn('organo_code', 'text', (c) => c.notNull())
    .addColumn('organismo_raiz_name', 'text')
    .addColumn('cod_procedimiento', 'text')
    .addColumn('concepto', 'text', (c) => c.notNull())
    .addColumn('descripcion', 'text')
    /** 'notificacion' | 'comunicacion'. */
    .addColumn('tipo', 'text', (c) => c.notNull())
    /** 'titular' | 'destinatario' | 'apoderado' | 'otro'. */
    .addColumn('vinculo', 'text', (c) => c.notNull())
    .addColumn('disposicion', 'text', (c) => c.notNull())
    /** disposicion + CADUCIDAD_DAYS natural days for a notificación; null for a comunicación. */
    .addColumn('caducidad', 'text')
    /** NOTIFICATION_STATES. */
    .addColumn('estado', 'text', (c) => c.notNull())
    .addColumn('receptor_name', 'text')
    .addColumn('receptor_nif', 'text')
    .addColumn('csv_resguardo', 'text')
    .addColumn('opened_at', 'text')
    .addColumn('opened_by', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('first_seen_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    /** Lower case, no accents: titular, NIF, organo, procedure and concepto (the search box). */
    .addColumn('search_text', 'text', (c) => c.notNull())
    .addUniqueConstraint('dehu_notifications_group_identificador_unique', ['group_id', 'identificador'])
    .execute();
  // The screen filters by view (estado) and sorts by one column; ties go to the id.
  const sortColumns = ['titular_name', 'organo_name', 'cod_procedimiento', 'concepto', 'disposicion', 'caducidad'];
  for (const column of sortColumns) {
    await db.schema.createIndex(`dehu_notifications_estado_${column}_idx`).on('dehu_notifications').columns(['group_id', 'estado', column, 'id']).execute();
  }
  for (const column of ['caducidad', 'disposicion', 'first_seen_at', 'certificate_fingerprint']) {
    await db.schema.createIndex(`dehu_notifications_${column}_idx`).on('dehu_notifications').columns(['group_id', column]).execute();
  }

  await db.schema
    .createTable('dehu_documents')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('notification_id', 'text', (c) => c.notNull().references('dehu_notifications.id').onDelete('cascade'))
    .addColumn('group_id', 'text', (c) => c.notNull().references('groups.id').onDelete('cascade'))
    /** 'documento' | 'anexo' | 'acuse'. */
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('mime_type', 'text', (c) => c.notNull())
    .addColumn('size', 'integer', (c) => c.notNull())
    .addColumn('sha256', 'text', (c) => c.notNull())
    .addColumn('storage_key', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('dehu_documents_kind_name_unique', ['notification_id', 'kind', 'name'])
    .execute();

  await db.schema
    .createTable('dehu_digests')
    .addColumn('group_id', 'text', (c) => c.primaryKey().references('groups.id').onDelete('cascade'))
    /** The Madrid day ('yyyy-mm-dd') of the last digest sent: a guarded UPDATE claims each day once. */
    .addColumn('last_day', 'text', (c) => c.notNull())
    .addColumn('last_sent_at', 'text')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['dehu_digests', 'dehu_documents', 'dehu_notifications', 'dehu_watched_certificates']) await db.schema.dropTable(table).execute();
}
