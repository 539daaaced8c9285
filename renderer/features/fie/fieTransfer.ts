import { authPaths } from '#shared/api/auth-paths.ts';
import { apiErrorSchema } from '#shared/api/errors.ts';
import { fiePaths, fieUploadResponseSchema } from '#shared/api/fie.ts';
import type { FieUploadResponse } from '#shared/api/fie.ts';
import { normalizeFilename } from '#shared/files/index.ts';
import { clientHeaders } from '../../api/baseApi.ts';
import { fie as text } from '../../i18n/es-fie.ts';

/** A refused transfer: the HTTP status (0 when nothing answered) and the Spanish message to show. */
export class FieTransferError extends Error {
  constructor(readonly status: number, message: string) {
    super(message);
    this.name = 'FieTransferError';
  }
}

/**
 * One request with cookies and the client headers; a 401 gets one session refresh and one retry, as
 * the base query does for JSON calls. `build` makes a fresh body each time (a FormData is read once).
 */
async function sendWithRefresh(url: string, build: () => RequestInit, language: string): Promise<Response> {
  const send = () => {
    const init = build();
    return fetch(url, { ...init, credentials: 'include', headers: { ...clientHeaders(language), ...(init.headers as Record<string, string> | undefined) } });
  };
  const first = await send();
  if (first.status !== 401) return first;
  const refresh = await fetch(authPaths.newToken, { method: 'POST', credentials: 'include', headers: clientHeaders(language) });
  if (!refresh.ok) throw new FieTransferError(401, text.upload.sessionExpired);
  return send();
}

async function serverMessage(response: Response, fallback: string): Promise<string> {
  try {
    const parsed = apiErrorSchema.safeParse(await response.json());
    return parsed.success ? parsed.data.message : fallback;
  } catch {
    return fallback;
  }
}

/**
 * POSTs the files in one multipart request (field `files`, spec §5 normalised names). The server
 * answers 200 with one outcome per file even when every file failed; only a refused request throws.
 */
export async function uploadFieFiles(files: readonly File[], language = 'es'): Promise<FieUploadResponse> {
  let response: Response;
  try {
    response = await sendWithRefresh(fiePaths.upload, () => {
      const form = new FormData();
      for (const file of files) form.append('files', file, normalizeFilename(file.name) || 'archivo');
      return { method: 'POST', body: form };
    }, language);
  } catch (error) {
    if (error instanceof FieTransferError) throw error;
    throw new FieTransferError(0, text.upload.requestFailed);
  }
  if (!response.ok) throw new FieTransferError(response.status, await serverMessage(response, text.upload.requestFailed));
  const parsed = fieUploadResponseSchema.safeParse(await response.json().catch(() => null));
  if (!parsed.success) throw new FieTransferError(response.status, text.upload.requestFailed);
  return parsed.data;
}

/** POSTs a JSON body and answers the raw response (after the shared 401 handling). */
export async function postJson(url: string, body: unknown, language = 'es'): Promise<Response> {
  return sendWithRefresh(url, () => ({ method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }), language);
}

/** The A3 incidences workbook of the selected entries (POST exportA3), as bytes to save. */
export async function exportA3Workbook(entryIds: readonly string[], language = 'es'): Promise<Blob> {
  let response: Response;
  try {
    response = await postJson(fiePaths.exportA3, { entryIds }, language);
  } catch (error) {
    if (error instanceof FieTransferError) throw error;
    throw new FieTransferError(0, text.actions.exportFailed);
  }
  if (!response.ok) throw new FieTransferError(response.status, await serverMessage(response, text.actions.exportFailed));
  return response.blob();
}
