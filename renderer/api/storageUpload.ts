import { authPaths } from '#shared/api/auth-paths.ts';
import { apiErrorSchema } from '#shared/api/errors.ts';
import { flowsPaths, uploadResponseSchema } from '#shared/api/flows.ts';
import type { UploadedFile } from '#shared/api/flows.ts';
import { normalizeFilename } from '#shared/files/index.ts';
import { clientHeaders } from './baseQuery.ts';

/*
 * Files sent to storage (POST /api/storage/uploads, one 'file' part each, cookies sent) through
 * XMLHttpRequest, which, unlike fetch, reports upload progress. The launcher's inputs and the support
 * tickets' attachments both upload this way, each with its own words.
 */

/** A refused upload: the HTTP status (0 when nothing answered) and the message to show, in Spanish. */
export class UploadError extends Error {
  constructor(readonly status: number, message: string) {
    super(message);
    this.name = 'UploadError';
  }
}

/** What the screen says when the upload itself fails (the server's own refusals come with their message). */
export interface UploadMessages {
  failed: string;
  cancelled: string;
  sessionExpired: string;
}

export interface StorageUploadOptions {
  /** Called with the share of bytes sent, 0..1. */
  onProgress?: (fraction: number) => void;
  signal?: AbortSignal;
  language?: string;
  /** Tests hand in their own. */
  createRequest?: () => XMLHttpRequest;
  refreshSession?: () => Promise<boolean>;
}

interface Answer {
  status: number;
  body: unknown;
}

function parseBody(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function send(files: readonly File[], messages: UploadMessages, options: StorageUploadOptions): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = options.createRequest?.() ?? new XMLHttpRequest();
    request.open('POST', flowsPaths.uploads);
    request.withCredentials = true;
    for (const [name, value] of Object.entries(clientHeaders(options.language ?? 'es'))) request.setRequestHeader(name, value);
    request.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) options.onProgress?.(event.loaded / event.total);
    };
    request.onload = () => resolve({ status: request.status, body: parseBody(request.responseText) });
    request.onerror = () => reject(new UploadError(0, messages.failed));
    request.onabort = () => reject(new UploadError(0, messages.cancelled));
    options.signal?.addEventListener('abort', () => request.abort(), { once: true });

    const form = new FormData();
    // Spec §5: names lose the characters Windows and the server's disk refuse.
    for (const file of files) form.append('file', file, normalizeFilename(file.name) || 'archivo');
    request.send(form);
  });
}

/** The shared refresh of an expired access token (the RTK base query does the same for JSON calls). */
async function refreshWithCookie(language: string): Promise<boolean> {
  try {
    const response = await fetch(authPaths.newToken, { method: 'POST', credentials: 'include', headers: clientHeaders(language) });
    return response.ok;
  } catch {
    return false;
  }
}

/**
 * Uploads files to storage and answers the stored files. A 401 gets one session refresh and one retry;
 * any other refusal (413 too large, 415 refused type) rejects with the server's Spanish message.
 */
export async function uploadToStorage(files: readonly File[], messages: UploadMessages, options: StorageUploadOptions = {}): Promise<UploadedFile[]> {
  let answer = await send(files, messages, options);
  if (answer.status === 401) {
    const refreshed = await (options.refreshSession ?? (() => refreshWithCookie(options.language ?? 'es')))();
    if (!refreshed) throw new UploadError(401, messages.sessionExpired);
    answer = await send(files, messages, options);
  }
  if (answer.status >= 200 && answer.status < 300) {
    const parsed = uploadResponseSchema.safeParse(answer.body);
    if (parsed.success) return parsed.data.items;
    throw new UploadError(answer.status, messages.failed);
  }
  const error = apiErrorSchema.safeParse(answer.body);
  const message = answer.status === 401 ? messages.sessionExpired : error.success ? error.data.message : messages.failed;
  throw new UploadError(answer.status, message);
}
