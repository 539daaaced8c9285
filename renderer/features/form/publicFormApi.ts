import { altasPaths, publicFormSchema, publicUploadedFileSchema } from '#shared/api/altas.ts';
import type { FieldsValues, PublicForm, SubmissionFile } from '#shared/api/altas.ts';
import { NO_ANSWER, publicCall, type CallResult } from '../../api/publicCall.ts';

/**
 * The company's calls. Plain fetch with the company's own cookie (same origin), never the app's
 * baseApi: its 401 handling refreshes an advisor's session and sends the user to the advisor login.
 */

export type { CallError, CallResult } from '../../api/publicCall.ts';

/** Uploads of up to 10 MB on a slow line need longer than a JSON call. */
const UPLOAD_TIMEOUT_MS = 120_000;

const formPath = (slug: string) => altasPaths.publicForm.replace(':id', encodeURIComponent(slug));
const filesPath = (slug: string) => altasPaths.publicFiles.replace(':id', encodeURIComponent(slug));

/** With the company's own cookie (same origin). */
const call = (url: string, init: RequestInit, timeoutMs?: number) => publicCall(url, init, { credentials: 'same-origin', ...(timeoutMs !== undefined && { timeoutMs }) });

const jsonInit = (body: unknown): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
});

/** An answer that does not match the contract is treated like no answer: the page offers to retry. */
function parsed<T>(result: CallResult<unknown>, parse: (data: unknown) => T | undefined): CallResult<T> {
  if (!result.ok) return result;
  const data = parse(result.data);
  return data === undefined ? { ok: false, error: NO_ANSWER } : { ok: true, data };
}

export async function fetchPublicForm(slug: string): Promise<CallResult<PublicForm>> {
  const result = await call(formPath(slug), { method: 'GET' });
  return parsed(result, (data) => {
    const check = publicFormSchema.safeParse(data);
    return check.success ? check.data : undefined;
  });
}

/** Signs the company in; `url` is the form's address as it opened it ('/form/flows/<slug>'). */
export async function signInToForm(url: string, email: string, password: string): Promise<CallResult<unknown>> {
  return call(altasPaths.publicAuth, jsonInit({ url, email, password }));
}

export async function signOutOfForm(): Promise<CallResult<unknown>> {
  return call(altasPaths.publicLogout, { method: 'POST' });
}

/** Sends one file of a file field; the answer is the value the submission carries for it. */
export async function uploadFormFile(slug: string, file: File): Promise<CallResult<SubmissionFile>> {
  const body = new FormData();
  body.append('file', file, file.name);
  const result = await call(filesPath(slug), { method: 'POST', body }, UPLOAD_TIMEOUT_MS);
  return parsed(result, (data) => {
    const check = publicUploadedFileSchema.safeParse(data);
    return check.success ? check.data : undefined;
  });
}

export interface PublicSubmissionBody {
  companyId: string;
  groupKey: string;
  fieldsValues: FieldsValues;
}

export async function sendSubmission(slug: string, submission: PublicSubmissionBody): Promise<CallResult<unknown>> {
  return call(formPath(slug), jsonInit(submission));
}
