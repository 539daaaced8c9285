import { altasPaths, formSettingsSchema } from '#shared/api/altas.ts';
import type { FormSettings } from '#shared/api/altas.ts';
import { authPaths } from '#shared/api/auth-paths.ts';
import { apiErrorSchema } from '#shared/api/errors.ts';
import { pathFor } from '#shared/api/flows.ts';
import { clientHeaders } from '../../api/baseApi.ts';
import { altas as text } from '../../i18n/es-altas.ts';

/** Where the advisor downloads a file a company attached (a plain link: the session cookie goes with it). */
export function submissionFileUrl(submissionId: string, fileId: string): string {
  return pathFor(altasPaths.submissionFile, { id: submissionId, fileId });
}

/** A refused upload: the HTTP status (0 when nothing answered), the Spanish message to show and the per-field messages of a 400. */
export class AltasTransferError extends Error {
  constructor(readonly status: number, message: string, readonly fields: Readonly<Record<string, string>> = {}) {
    super(message);
    this.name = 'AltasTransferError';
  }
}

/** One request with cookies and the client headers; a 401 gets one refresh and one retry, as the base query does. */
async function sendWithRefresh(url: string, build: () => RequestInit, language: string): Promise<Response> {
  const send = () => fetch(url, { ...build(), credentials: 'include', headers: clientHeaders(language) });
  const first = await send();
  if (first.status !== 401) return first;
  const refresh = await fetch(authPaths.newToken, { method: 'POST', credentials: 'include', headers: clientHeaders(language) });
  if (!refresh.ok) throw new AltasTransferError(401, text.sessionExpired);
  return send();
}

export interface FormSettingsInput {
  title: string;
  /** The slug, or the whole '/form/flows/<slug>' URL: the server takes both. */
  url: string;
  /** A new logo, already checked for type and size. */
  logo: File | null;
  /** Drop the current logo (when no new one comes). */
  removeLogo: boolean;
}

/** PUT users/formToFlow as multipart: title, url, the logo file when there is one (spec §5 Form config). */
export async function saveFormSettings(input: FormSettingsInput, language = 'es'): Promise<FormSettings> {
  let response: Response;
  try {
    response = await sendWithRefresh(altasPaths.formSettings, () => {
      const form = new FormData();
      form.append('title', input.title.trim());
      form.append('url', input.url.trim());
      if (input.logo) form.append('logo', input.logo, input.logo.name);
      else if (input.removeLogo) form.append('removeLogo', 'true');
      return { method: 'PUT', body: form };
    }, language);
  } catch (error) {
    if (error instanceof AltasTransferError) throw error;
    throw new AltasTransferError(0, text.failed);
  }
  if (!response.ok) {
    const body: unknown = await response.json().catch(() => null);
    const parsed = apiErrorSchema.safeParse(body);
    const fields: Record<string, string> = {};
    for (const issue of parsed.success ? (parsed.data.issues ?? []) : []) fields[issue.path] ??= issue.message;
    throw new AltasTransferError(response.status, parsed.success ? parsed.data.message : text.failed, fields);
  }
  const parsed = formSettingsSchema.safeParse(await response.json().catch(() => null));
  if (!parsed.success) throw new AltasTransferError(response.status, text.failed);
  return parsed.data;
}
