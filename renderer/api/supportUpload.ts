import { authPaths } from '#shared/api/auth-paths.ts';
import { apiErrorSchema } from '#shared/api/errors.ts';
import { flowsPaths, uploadResponseSchema } from '#shared/api/flows.ts';
import type { UploadedFile } from '#shared/api/flows.ts';
import { normalizeFilename } from '#shared/files/index.ts';
import { support as text } from '../i18n/es-support.ts';
import { clientHeaders } from './baseQuery.ts';

/** A file the server did not keep: the HTTP status (0 when nothing answered) and why, in Spanish. */
export class UploadRefused extends Error {
  constructor(readonly status: number, message: string) {
    super(message);
    this.name = 'UploadRefused';
  }
}

export interface AttachmentUploadOptions {
  /** The share of bytes sent, 0..1. */
  onProgress?: (fraction: number) => void;
  signal?: AbortSignal;
  /** Tests hand in their own. */
  createRequest?: () => XMLHttpRequest;
}

interface Answer {
  status: number;
  body: unknown;
}

function parseBody(body: string): unknown {
  try {
    return JSON.parse(body) as unknown;
  } catch {
    return undefined;
  }
}

/** One multipart POST through XMLHttpRequest, which (unlike fetch) reports upload progress. */
function send(file: File, options: AttachmentUploadOptions): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = options.createRequest?.() ?? new XMLHttpRequest();
    request.open('POST', flowsPaths.uploads);
    request.withCredentials = true;
    for (const [name, value] of Object.entries(clientHeaders('es'))) request.setRequestHeader(name, value);
    request.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) options.onProgress?.(event.loaded / event.total);
    };
    request.onload = () => resolve({ status: request.status, body: parseBody(request.responseText) });
    request.onerror = () => reject(new UploadRefused(0, text.attachments.failed));
    request.onabort = () => reject(new UploadRefused(0, text.attachments.cancelled));
    options.signal?.addEventListener('abort', () => request.abort(), { once: true });

    const form = new FormData();
    // Names lose the characters Windows and the server's disk refuse (spec §5), as the launcher's do.
    form.append('file', file, normalizeFilename(file.name) || 'archivo');
    request.send(form);
  });
}

async function refreshSession(): Promise<boolean> {
  try {
    const response = await fetch(authPaths.newToken, { method: 'POST', credentials: 'include', headers: clientHeaders('es') });
    return response.ok;
  } catch {
    return false;
  }
}

/**
 * Uploads one attachment to storage (POST /api/storage/uploads, the launcher's rules: ≤ 100 MB, judged
 * by content) and answers the stored file. One at a time, so each file shows its own progress and its
 * own refusal. A 401 gets one session refresh and one retry.
 */
export async function uploadAttachment(file: File, options: AttachmentUploadOptions = {}): Promise<UploadedFile> {
  let answer = await send(file, options);
  if (answer.status === 401) {
    if (!(await refreshSession())) throw new UploadRefused(401, text.attachments.sessionExpired);
    answer = await send(file, options);
  }
  if (answer.status >= 200 && answer.status < 300) {
    const stored = uploadResponseSchema.safeParse(answer.body);
    const first = stored.success ? stored.data.items[0] : undefined;
    if (first) return first;
    throw new UploadRefused(answer.status, text.attachments.failed);
  }
  const error = apiErrorSchema.safeParse(answer.body);
  const message = answer.status === 401 ? text.attachments.sessionExpired : error.success ? error.data.message : text.attachments.failed;
  throw new UploadRefused(answer.status, message);
}
