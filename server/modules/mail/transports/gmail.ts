import type { MailAccessTokens } from '../types.ts';
import { MailSendError, failureFromResponse, fetchProvider } from './errors.ts';

/**
 * Gmail refuses a JSON request over 5 MB: the message goes in it base64url-encoded while the whole
 * request fits (a MIME of up to ~3.7 MB), else to the media upload endpoint as message/rfc822.
 */
export const GMAIL_SIMPLE_LIMIT_BYTES = 5 * 1024 * 1024;
/** Gmail's limit for a whole message is 35 MB once encoded; files beyond ~25 MB do not fit it. */
export const GMAIL_ATTACHMENTS_LIMIT_BYTES = 25 * 1024 * 1024;
export const GMAIL_TOO_LARGE_MESSAGE = 'Gmail no admite adjuntos de más de 25 MB: descarga el archivo del historial y compártelo de otra forma.';
const PROVIDER = 'Gmail';

/**
 * users.messages.send with the account's access token. Answers Gmail's message id. A 401 is thrown as
 * 'unauthorized' so the outbox forgets the token and tries once more.
 */
export async function sendWithGmail(tokens: MailAccessTokens, accountId: string, mime: Buffer, apiBaseUrl: string, now: () => Date): Promise<string> {
  const { accessToken } = await tokens.accessTokenFor(accountId);
  const base = apiBaseUrl.replace(/\/+$/, '');
  const authorization = `Bearer ${accessToken}`;
  // Encoded only when it can fit: base64 is a third larger than the MIME.
  const json = Math.ceil((mime.length * 4) / 3) + 16 <= GMAIL_SIMPLE_LIMIT_BYTES ? JSON.stringify({ raw: mime.toString('base64url') }) : null;
  const response =
    json !== null && Buffer.byteLength(json) <= GMAIL_SIMPLE_LIMIT_BYTES
      ? await fetchProvider(`${base}/gmail/v1/users/me/messages/send`, { method: 'POST', headers: { authorization, 'content-type': 'application/json' }, body: json }, PROVIDER)
      : await fetchProvider(`${base}/upload/gmail/v1/users/me/messages/send?uploadType=media`, { method: 'POST', headers: { authorization, 'content-type': 'message/rfc822' }, body: new Uint8Array(mime) }, PROVIDER);
  if (!response.ok) throw await failureFromResponse(response, PROVIDER, now());
  const answer = (await response.json().catch(() => null)) as { id?: unknown } | null;
  if (typeof answer?.id !== 'string') throw new MailSendError('permanent', 'Gmail aceptó el mensaje pero no devolvió su identificador');
  return answer.id;
}
