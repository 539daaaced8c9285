import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from '../../context.ts';
import type { ActiveSession } from '../auth/sessions.ts';
import type { FileStorage } from '../storage/service.ts';
import { OnlineForms } from './forms.ts';
import { DEFAULT_ONLINE_FORM_CAPS, type OnlineFormCaps } from './messages.ts';
import { PublicForms, type SubmissionDocumentGenerator } from './public.ts';
import { formFor, type FormRow } from './store.ts';
import { SubmissionFiles } from './submission-files.ts';
import { FormSubmissions } from './submissions.ts';

/** The online forms module's parts, built once in app.ts and handed to its routes. */
export interface OnlineFormsModule {
  forms: OnlineForms;
  submissions: FormSubmissions;
  publicForms: PublicForms;
  caps: OnlineFormCaps;
  /** A form the caller may read (for the export). */
  formFor(session: ActiveSession, id: string): Promise<{ form: FormRow }>;
}

export function createOnlineForms(ctx: AppContext, deps: { storage: FileStorage; generator: SubmissionDocumentGenerator; log: FastifyBaseLogger; caps?: Partial<OnlineFormCaps> }): OnlineFormsModule {
  const caps = { ...DEFAULT_ONLINE_FORM_CAPS, ...deps.caps };
  const files = new SubmissionFiles(ctx.db, deps.storage);
  return {
    forms: new OnlineForms({ db: ctx.db, now: ctx.now, mailer: ctx.mailer, publicUrl: ctx.publicUrl, caps, files }),
    submissions: new FormSubmissions(ctx.db, deps.storage, files),
    publicForms: new PublicForms({ db: ctx.db, now: ctx.now, storage: deps.storage, generator: deps.generator, mailer: ctx.mailer, publicUrl: ctx.publicUrl, caps, log: deps.log }),
    caps,
    formFor: (session, id) => formFor(ctx.db, session, id, 'read'),
  };
}
