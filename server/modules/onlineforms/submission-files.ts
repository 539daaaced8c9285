import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { FileStorage } from '../storage/service.ts';
import type { FormRow } from './store.ts';

/** Files removed per call when a whole form goes (a form may hold thousands of submissions). */
const REMOVE_BATCH = 200;

/**
 * What submissions hold in storage (their drawn signature, and the PDF and .docx generated from them)
 * and their removal: rows first in one transaction, files after (a file left by a crash is an orphan
 * on disk, never a row pointing at nothing).
 */
export class SubmissionFiles {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly storage: FileStorage,
  ) {}

  /** One submission, its signature and its generated document (row and files). */
  async removeSubmission(submission: { id: string; group_id: string; signature_key: string | null }): Promise<void> {
    const keys = await this.db.transaction().execute(async (trx) => {
      const documents = await trx.selectFrom('doc_documents').select(['pdf_key', 'docx_key']).where('group_id', '=', submission.group_id).where('submission_id', '=', submission.id).execute();
      await trx.deleteFrom('doc_documents').where('group_id', '=', submission.group_id).where('submission_id', '=', submission.id).execute();
      await trx.deleteFrom('doc_submissions').where('id', '=', submission.id).execute();
      return [submission.signature_key, ...documents.flatMap((document) => [document.pdf_key, document.docx_key])];
    });
    await this.removeKeys(keys);
  }

  /** A form with every submission of it, their signatures and documents. */
  async removeForm(form: Pick<FormRow, 'id' | 'group_id'>): Promise<void> {
    const keys = await this.db.transaction().execute(async (trx) => {
      const ofForm = trx.selectFrom('doc_submissions').select('id').where('form_id', '=', form.id);
      const signatures = await trx.selectFrom('doc_submissions').select('signature_key').where('form_id', '=', form.id).where('signature_key', 'is not', null).execute();
      const documents = await trx.selectFrom('doc_documents').select(['pdf_key', 'docx_key']).where('group_id', '=', form.group_id).where('submission_id', 'in', ofForm).execute();
      await trx.deleteFrom('doc_documents').where('group_id', '=', form.group_id).where('submission_id', 'in', ofForm).execute();
      await trx.deleteFrom('doc_submissions').where('form_id', '=', form.id).execute();
      await trx.deleteFrom('doc_forms').where('id', '=', form.id).execute();
      return [...signatures.map((row) => row.signature_key), ...documents.flatMap((document) => [document.pdf_key, document.docx_key])];
    });
    await this.removeKeys(keys);
  }

  private async removeKeys(keys: ReadonlyArray<string | null>): Promise<void> {
    const present = keys.filter((key): key is string => key !== null);
    for (let start = 0; start < present.length; start += REMOVE_BATCH) await this.storage.remove(present.slice(start, start + REMOVE_BATCH));
  }
}
