import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { insertFlow, insertRun } from '../flowlogs/fixtures.ts';

/**
 * Test support: one document of every kind the document manager lists, arranged straight in each
 * module's tables (the modules' own tests cover how they get there). Times are `at` plus `minute`
 * minutes, so the list's order is known.
 */
export interface FirmDocuments {
  generated: string;
  submission: string;
  runId: string;
  altaSubmission: string;
  altaFile: string;
  fie: string;
  dehuNotification: string;
  dehu: string;
}

const minutesAfter = (at: Date, minutes: number) => new Date(at.getTime() + minutes * 60_000).toISOString();

export async function insertFirmDocuments(db: Kysely<Database>, member: { groupId: string; userId: string }, at: Date, tag = ''): Promise<FirmDocuments> {
  const { groupId, userId } = member;
  const stamp = at.toISOString();
  const id = () => randomUUID();

  // A generated document (from a template) and a client's signed submission.
  const templateId = id();
  await db.insertInto('doc_templates').values({ id: templateId, group_id: groupId, owner_user_id: userId, category_id: null, name: 'Autorización RED', description: '', content: '{"blocks":[]}', placeholders: '[]', takes_signature: 0, starter_key: null, created_at: stamp, updated_at: stamp }).execute();
  const generated = id();
  await db
    .insertInto('doc_documents')
    .values({ id: generated, group_id: groupId, owner_user_id: userId, template_id: templateId, submission_id: null, name: `Autorización RED Talleres${tag}.pdf`, company: 'TALLERES ORTEGA SL', status: 'ready', error: null, pdf_key: `documents/${id()}.pdf`, pdf_size: 1200, docx_key: null, docx_size: null, created_at: minutesAfter(at, 1) })
    .execute();
  // One still generating is not listed.
  await db
    .insertInto('doc_documents')
    .values({ id: id(), group_id: groupId, owner_user_id: userId, template_id: templateId, submission_id: null, name: 'En curso.pdf', company: null, status: 'generating', error: null, pdf_key: null, pdf_size: null, docx_key: null, docx_size: null, created_at: minutesAfter(at, 1) })
    .execute();
  const formId = id();
  await db
    .insertInto('doc_forms')
    .values({ id: formId, group_id: groupId, owner_user_id: userId, template_id: templateId, title: 'Solicitud de datos', description: '', fields: '[]', template_content: '{"blocks":[]}', template_name: 'Autorización RED', require_signature: 1, status: 'published', public_id: id(), created_at: stamp, updated_at: stamp, published_at: stamp })
    .execute();
  const docSubmission = id();
  await db.insertInto('doc_submissions').values({ id: docSubmission, form_id: formId, group_id: groupId, values: '{}', search_text: '', signer_name: 'Ana', signature_key: null, bytes: 0, document_id: null, created_at: minutesAfter(at, 2) }).execute();
  const submission = id();
  await db
    .insertInto('doc_documents')
    .values({ id: submission, group_id: groupId, owner_user_id: null, template_id: templateId, submission_id: docSubmission, name: `Solicitud firmada 50%_x${tag}.pdf`, company: 'PANADERÍA SOL SL', status: 'ready', error: null, pdf_key: `documents/${id()}.pdf`, pdf_size: 900, docx_key: null, docx_size: null, created_at: minutesAfter(at, 2) })
    .execute();

  // A robot's output.
  const flowId = `validar-${groupId.slice(0, 8)}`;
  await insertFlow(db, { id: flowId, name: 'Validar identificadores' });
  const runId = await insertRun(db, { groupId, userId, flowId, flowName: 'Validar identificadores', createdAt: minutesAfter(at, 3), outputs: [`resultado${tag}.xlsx`] });

  // An altas attachment of a company's submission.
  const formRow = id();
  await db
    .insertInto('altas_forms')
    .values({ id: formRow, group_id: groupId, flow_id: 'altas', title: null, url: `/form/flows/${id()}`, logo_id: null, logo_key: null, logo_mime: null, configuration_name: 'altas', form_pages: null, field_overrides: '{}', created_at: stamp, updated_at: stamp })
    .execute();
  const clientUser = id();
  await db.insertInto('altas_client_users').values({ id: clientUser, group_id: groupId, name: 'Cliente', email: `cliente-${id()}@empresa.test`, password_hash: null, created_at: stamp, updated_at: stamp }).execute();
  const companyId = id();
  await db
    .insertInto('altas_companies')
    .values({ id: companyId, group_id: groupId, client_user_id: clientUser, form_id: formRow, name: 'TALLERES ORTEGA SL', email: 'talleres@empresa.test', ccc_list: '[]', groups: '[]', credentials_enabled: 0, email_sent_at: null, open: 0, removed: 0, created_at: stamp, updated_at: stamp })
    .execute();
  const altaSubmission = id();
  await db
    .insertInto('altas_submissions')
    .values({ id: altaSubmission, group_id: groupId, company_id: companyId, flow_id: 'altas', group_key: null, title: 'Alta de Juan Pérez', fields_values: '{}', created_by: 'client', created_by_user: null, created_at: stamp, updated_at: stamp, red_at: null, red_resolution: null, a3_at: null, company_notified_at: null, afi_file: null, last_error: null, removed: 0 })
    .execute();
  const altaFile = id();
  await db
    .insertInto('altas_files')
    .values({ id: altaFile, group_id: groupId, client_user_id: clientUser, session_id: null, submission_id: altaSubmission, name: `dni${tag}.pdf`, size: 300, content_type: 'application/pdf', storage_key: `altas/${id()}`, created_at: minutesAfter(at, 4) })
    .execute();

  // A FIE file, and one still importing (not listed).
  const fie = id();
  for (const [fieId, importing] of [[fie, 0], [id(), 1]] as const) {
    await db
      .insertInto('fie_documents')
      .values({ id: fieId, group_id: groupId, content_hash: id(), file_name: importing ? 'importando.txt' : `FIE_marzo${tag}.txt`, source: 'siltra', version: 'FIE4', registry_date: null, date: '2026-03-01', entry_count: 3, created_by: userId, created_at: minutesAfter(at, 5), importing })
      .execute();
  }

  // A DEHÚ notification's document.
  const dehuNotification = id();
  await db
    .insertInto('dehu_notifications')
    .values({
      id: dehuNotification, group_id: groupId, identificador: id(), codigo_origen: 1, certificate_fingerprint: 'ab', machine_id: null, certificate_common_name: 'ANA GARCÍA',
      titular_name: 'TALLERES ORTEGA SL', titular_nif: 'B12345678', organo_name: 'AEAT', organo_code: 'E0001', organismo_raiz_name: null, cod_procedimiento: null,
      concepto: 'Requerimiento IVA', descripcion: null, tipo: 'notificacion', vinculo: 'titular', disposicion: stamp, caducidad: null, estado: 'pendiente',
      receptor_name: null, receptor_nif: null, csv_resguardo: null, opened_at: null, opened_by: null, first_seen_at: stamp, updated_at: stamp, search_text: 'talleres',
    })
    .execute();
  const dehu = id();
  await db
    .insertInto('dehu_documents')
    .values({ id: dehu, notification_id: dehuNotification, group_id: groupId, kind: 'documento', name: `Requerimiento${tag}.pdf`, mime_type: 'application/pdf', size: 700, sha256: 'cd', storage_key: `dehu/${id()}`, created_at: minutesAfter(at, 6) })
    .execute();

  return { generated, submission, runId, altaSubmission, altaFile, fie, dehuNotification, dehu };
}
