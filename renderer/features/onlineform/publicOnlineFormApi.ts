import { onlineFormsPaths, publicOnlineFormSchema, publicSubmissionReceiptSchema } from '#shared/api/onlineforms.ts';
import type { PublicOnlineForm, PublicSubmissionBody } from '#shared/api/onlineforms.ts';
import { NO_ANSWER, publicCall, type CallResult } from '../../api/publicCall.ts';

/**
 * The client's calls for /online-form/:id. Plain fetch without cookies: the client has no session and
 * must never meet the advisor's API (baseApi refreshes an advisor's session and sends 401s to sign-in).
 */

export type { CallError, CallResult } from '../../api/publicCall.ts';

const formPath = (publicId: string) => onlineFormsPaths.publicForm.replace(':publicId', encodeURIComponent(publicId));
const submissionsPath = (publicId: string) => onlineFormsPaths.publicSubmissions.replace(':publicId', encodeURIComponent(publicId));
const call = (url: string, init: RequestInit) => publicCall(url, init, { credentials: 'omit' });

export async function fetchOnlineForm(publicId: string): Promise<CallResult<PublicOnlineForm>> {
  const result = await call(formPath(publicId), { method: 'GET' });
  if (!result.ok) return result;
  const parsed = publicOnlineFormSchema.safeParse(result.data);
  return parsed.success ? { ok: true, data: parsed.data } : { ok: false, error: NO_ANSWER };
}

export async function sendOnlineFormSubmission(publicId: string, body: PublicSubmissionBody): Promise<CallResult<{ id: string; receivedAt: string }>> {
  const result = await call(submissionsPath(publicId), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (!result.ok) return result;
  const parsed = publicSubmissionReceiptSchema.safeParse(result.data);
  return parsed.success ? { ok: true, data: parsed.data } : { ok: false, error: NO_ANSWER };
}
