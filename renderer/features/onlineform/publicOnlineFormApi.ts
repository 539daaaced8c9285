import { onlineFormsPaths, publicOnlineFormSchema, publicSubmissionReceiptSchema } from '#shared/api/onlineforms.ts';
import type { PublicOnlineForm, PublicSubmissionBody } from '#shared/api/onlineforms.ts';
import type { FieldIssue } from '#shared/api/errors.ts';
import { readApiError } from '../../api/http.ts';

/**
 * The client's calls for /online-form/:id. Plain fetch without cookies: the client has no session and
 * must never meet the advisor's API (baseApi refreshes an advisor's session and sends 401s to sign-in).
 */

export type CallResult<T> = { ok: true; data: T } | { ok: false; error: CallError };

export interface CallError {
  /** The HTTP status; 0 when no usable answer came (offline, timeout, a body that breaks the contract). */
  status: number;
  message: string | undefined;
  issues: FieldIssue[];
}

const TIMEOUT_MS = 30_000;
const noAnswer: CallError = { status: 0, message: undefined, issues: [] };

const formPath = (publicId: string) => onlineFormsPaths.publicForm.replace(':publicId', encodeURIComponent(publicId));
const submissionsPath = (publicId: string) => onlineFormsPaths.publicSubmissions.replace(':publicId', encodeURIComponent(publicId));

async function call(url: string, init: RequestInit): Promise<CallResult<unknown>> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), TIMEOUT_MS);
  try {
    const response = await fetch(url, { ...init, credentials: 'omit', signal: controller.signal });
    const text = await response.text();
    let body: unknown = null;
    try {
      body = text === '' ? null : (JSON.parse(text) as unknown);
    } catch {
      body = text;
    }
    if (response.ok) return { ok: true, data: body };
    const apiError = readApiError(body);
    return { ok: false, error: { status: response.status, message: apiError?.message, issues: apiError?.issues ?? [] } };
  } catch {
    return { ok: false, error: noAnswer };
  } finally {
    clearTimeout(timer);
  }
}

export async function fetchOnlineForm(publicId: string): Promise<CallResult<PublicOnlineForm>> {
  const result = await call(formPath(publicId), { method: 'GET' });
  if (!result.ok) return result;
  const parsed = publicOnlineFormSchema.safeParse(result.data);
  return parsed.success ? { ok: true, data: parsed.data } : { ok: false, error: noAnswer };
}

export async function sendOnlineFormSubmission(publicId: string, body: PublicSubmissionBody): Promise<CallResult<{ id: string; receivedAt: string }>> {
  const result = await call(submissionsPath(publicId), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (!result.ok) return result;
  const parsed = publicSubmissionReceiptSchema.safeParse(result.data);
  return parsed.success ? { ok: true, data: parsed.data } : { ok: false, error: noAnswer };
}
