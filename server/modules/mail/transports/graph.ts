import type { LoadedAttachment, OutgoingMail } from '../mime.ts';
import type { MailAccessTokens } from '../types.ts';
import { MailSendError, failureFromResponse, fetchProvider } from './errors.ts';

/**
 * Graph refuses requests over 4 MB and base64 grows files by a third: beyond ~3 MB of files only an
 * upload session would do, which is left out (the message says what to do instead).
 */
export const GRAPH_ATTACHMENTS_LIMIT_BYTES = 3 * 1024 * 1024;
/** Graph's own limit for one request, which the encoded files and the text must fit together. */
export const GRAPH_REQUEST_LIMIT_BYTES = 4 * 1024 * 1024;
export const GRAPH_TOO_LARGE_MESSAGE = 'Microsoft no admite adjuntos de más de 3 MB por este medio: envía el archivo desde la cuenta de Google o descárgalo del historial.';
const PROVIDER = 'Microsoft Graph';

const recipient = (address: string) => ({ emailAddress: { address } });

function attachment(file: LoadedAttachment) {
  return { '@odata.type': '#microsoft.graph.fileAttachment', name: file.name, contentBytes: file.content.toString('base64') };
}

/** POST /me/sendMail (202 and no id: Graph does not say which message it created). */
export async function sendWithGraph(tokens: MailAccessTokens, accountId: string, mail: OutgoingMail, apiBaseUrl: string, now: () => Date): Promise<null> {
  const { accessToken } = await tokens.accessTokenFor(accountId);
  const message = {
    subject: mail.subject,
    body: { contentType: 'Text', content: mail.body },
    toRecipients: mail.to.map(recipient),
    ...(mail.replyTo && { replyTo: [recipient(mail.replyTo)] }),
    ...(mail.senderName && { from: { emailAddress: { address: mail.from, name: mail.senderName } } }),
    attachments: mail.attachments.map(attachment),
  };
  const body = JSON.stringify({ message, saveToSentItems: true });
  // Files just under 3 MB with a long text can still pass 4 MB once encoded.
  if (Buffer.byteLength(body) > GRAPH_REQUEST_LIMIT_BYTES) throw new MailSendError('permanent', GRAPH_TOO_LARGE_MESSAGE);
  const response = await fetchProvider(
    `${apiBaseUrl.replace(/\/+$/, '')}/v1.0/me/sendMail`,
    { method: 'POST', headers: { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json' }, body },
    PROVIDER,
  );
  if (!response.ok) throw await failureFromResponse(response, PROVIDER, now());
  await response.body?.cancel();
  return null;
}
