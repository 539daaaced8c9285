/**
 * Gmail's users.messages.send (JSON with base64url raw, or the media upload) and Graph's me/sendMail
 * (JSON message, or base64 MIME as text/plain). Each checks the bearer token and its send scope, keeps
 * the provider's size limits, and stores what it decoded for tests to read.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { simpleParser, type AddressObject } from 'mailparser';
import { bearerToken, readBody, sendEmpty, sendJson } from './http.ts';
import type { FailingApi, Grant, ProviderStore } from './store.ts';

export interface StoredAttachment {
  filename: string;
  contentType: string;
  size: number;
  sha256: string;
}

export interface StoredMessage {
  provider: 'google' | 'microsoft';
  via: 'gmail-json' | 'gmail-upload' | 'graph-json' | 'graph-mime';
  /** The mailbox it was sent from (the token's owner). */
  account: string;
  /** What the API answered (Gmail's id); for Graph, made here and never returned. */
  id: string;
  from: string | null;
  /** The display name of From ('Asesoría Pérez'), when the message has one. */
  fromName: string | null;
  replyTo: string | null;
  to: string[];
  subject: string;
  text: string;
  attachments: StoredAttachment[];
  /** The MIME as received (Gmail). */
  raw?: string;
  receivedAt: string;
}

const MB = 1024 * 1024;
export const GMAIL_JSON_LIMIT = 5 * MB;
export const GMAIL_UPLOAD_LIMIT = 35 * MB;
export const GRAPH_LIMIT = 4 * MB;
const GMAIL_SEND_SCOPE = 'https://www.googleapis.com/auth/gmail.send';
const GRAPH_SEND_SCOPE = 'https://graph.microsoft.com/Mail.Send';

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');
const addresses = (value: AddressObject | AddressObject[] | undefined): string[] =>
  (Array.isArray(value) ? value : value === undefined ? [] : [value]).flatMap((object) => object.value.map((entry) => entry.address ?? '')).filter((address) => address !== '');

async function decodeMime(mime: Buffer): Promise<Pick<StoredMessage, 'from' | 'fromName' | 'replyTo' | 'to' | 'subject' | 'text' | 'attachments'>> {
  const parsed = await simpleParser(mime);
  return {
    from: addresses(parsed.from)[0] ?? null,
    fromName: parsed.from?.value[0]?.name || null,
    replyTo: addresses(parsed.replyTo)[0] ?? null,
    to: addresses(parsed.to),
    subject: parsed.subject ?? '',
    text: parsed.text ?? '',
    attachments: parsed.attachments.map((attachment) => ({ filename: attachment.filename ?? '', contentType: attachment.contentType, size: attachment.content.length, sha256: sha256(attachment.content) })),
  };
}

export interface ApiSetup {
  store: ProviderStore;
  messages: StoredMessage[];
}

type Refusal = (status: number, code: string, message: string, headers?: Record<string, string>) => void;

/** The queued failure, then the token: the grant when the call may go on, null when it was answered. */
function admit(setup: ApiSetup, api: FailingApi, request: IncomingMessage, refuse: Refusal, provider: Grant['provider'], scope: string): Grant | null {
  const failure = setup.store.takeFailure(api);
  if (failure !== null) {
    const headers: Record<string, string> = failure.retryAfterSeconds === undefined ? {} : { 'retry-after': String(failure.retryAfterSeconds) };
    refuse(failure.status, failure.status === 429 ? 'TooManyRequests' : 'ServiceUnavailable', 'Simulated failure of the stand-in.', headers);
    return null;
  }
  const token = bearerToken(request);
  const grant = token === null ? null : setup.store.accessGrant(token);
  if (grant === null || grant.provider !== provider) {
    refuse(401, 'InvalidAuthenticationToken', 'Request had invalid authentication credentials.', { 'www-authenticate': 'Bearer realm="standin", error="invalid_token"' });
    return null;
  }
  if (!grant.scopes.includes(scope)) {
    refuse(403, 'ErrorAccessDenied', 'Request had insufficient authentication scopes.');
    return null;
  }
  return grant;
}

const gmailStatus: Record<number, string> = { 400: 'INVALID_ARGUMENT', 401: 'UNAUTHENTICATED', 403: 'PERMISSION_DENIED', 413: 'FAILED_PRECONDITION', 429: 'RESOURCE_EXHAUSTED', 500: 'INTERNAL', 503: 'UNAVAILABLE' };

export async function gmailSend(setup: ApiSetup, request: IncomingMessage, response: ServerResponse, upload: boolean): Promise<void> {
  const refuse: Refusal = (status, _code, message, headers) => sendJson(response, status, { error: { code: status, message, status: gmailStatus[status] ?? 'UNKNOWN' } }, headers);
  const grant = admit(setup, 'gmail', request, refuse, 'google', GMAIL_SEND_SCOPE);
  if (grant === null) return void request.resume();
  const read = await readBody(request, upload ? GMAIL_UPLOAD_LIMIT : GMAIL_JSON_LIMIT);
  if (read.tooLarge) return refuse(413, '', upload ? 'Message too large (35 MB at most).' : 'Request payload size exceeds the limit: 5242880 bytes. Use the upload endpoint.');
  let mime: Buffer;
  if (upload) {
    const uploadType = new URL(request.url ?? '/', 'http://standin.invalid').searchParams.get('uploadType');
    if (uploadType !== 'media') return refuse(400, '', 'Only uploadType=media is supported by the stand-in.');
    if (!(request.headers['content-type'] ?? '').startsWith('message/rfc822')) return refuse(400, '', 'Media type must be message/rfc822.');
    mime = read.body;
  } else {
    let raw: unknown;
    try {
      raw = (JSON.parse(read.body.toString('utf8')) as { raw?: unknown }).raw;
    } catch {
      return refuse(400, '', 'Invalid JSON payload received.');
    }
    if (typeof raw !== 'string' || raw === '' || !/^[A-Za-z0-9_-]+=*$/.test(raw)) return refuse(400, '', "Invalid value for ByteString: 'raw' must be base64url.");
    mime = Buffer.from(raw, 'base64url');
  }
  const decoded = await decodeMime(mime);
  if (decoded.to.length === 0) return refuse(400, '', 'Invalid To header');
  const id = randomBytes(8).toString('hex');
  setup.messages.push({ provider: 'google', via: upload ? 'gmail-upload' : 'gmail-json', account: grant.email, id, ...decoded, raw: mime.toString('utf8'), receivedAt: new Date().toISOString() });
  sendJson(response, 200, { id, threadId: id, labelIds: ['SENT'] });
}

interface GraphRecipient {
  emailAddress?: { address?: unknown; name?: unknown };
}
interface GraphAttachment {
  '@odata.type'?: unknown;
  name?: unknown;
  contentType?: unknown;
  contentBytes?: unknown;
}
interface GraphMessage {
  subject?: unknown;
  body?: { contentType?: unknown; content?: unknown };
  from?: GraphRecipient;
  toRecipients?: GraphRecipient[];
  replyTo?: GraphRecipient[];
  attachments?: GraphAttachment[];
}

const graphAddresses = (list: unknown): string[] | null => {
  if (list === undefined) return [];
  if (!Array.isArray(list)) return null;
  const found = (list as GraphRecipient[]).map((recipient) => recipient.emailAddress?.address);
  return found.every((address): address is string => typeof address === 'string' && address.includes('@')) ? found : null;
};

/** The JSON form of sendMail, or the 400 message (in English, like Graph) when it is malformed. */
function readGraphJson(message: GraphMessage | undefined): Pick<StoredMessage, 'from' | 'fromName' | 'replyTo' | 'to' | 'subject' | 'text' | 'attachments'> | string {
  if (message === undefined || typeof message !== 'object') return 'Empty Payload. JSON content expected.';
  const to = graphAddresses(message.toRecipients);
  const replyTo = graphAddresses(message.replyTo);
  const from = graphAddresses(message.from === undefined ? undefined : [message.from]);
  if (to === null || to.length === 0 || replyTo === null || from === null) return 'At least one recipient is not valid.';
  const attachments: StoredAttachment[] = [];
  for (const attachment of message.attachments ?? []) {
    if (attachment['@odata.type'] !== '#microsoft.graph.fileAttachment' || typeof attachment.name !== 'string' || typeof attachment.contentBytes !== 'string') {
      return 'Attachments must be #microsoft.graph.fileAttachment with name and contentBytes.';
    }
    const content = Buffer.from(attachment.contentBytes, 'base64');
    attachments.push({ filename: attachment.name, contentType: typeof attachment.contentType === 'string' ? attachment.contentType : 'application/octet-stream', size: content.length, sha256: sha256(content) });
  }
  const text = typeof message.body?.content === 'string' ? message.body.content : '';
  const name = message.from?.emailAddress?.name;
  const fromName = typeof name === 'string' && name !== '' ? name : null;
  return { from: from[0] ?? null, fromName, replyTo: replyTo[0] ?? null, to, subject: typeof message.subject === 'string' ? message.subject : '', text, attachments };
}

export async function graphSendMail(setup: ApiSetup, request: IncomingMessage, response: ServerResponse): Promise<void> {
  const refuse: Refusal = (status, code, message, headers) => sendJson(response, status, { error: { code: code === '' ? 'ErrorInvalidRequest' : code, message } }, headers);
  const grant = admit(setup, 'graph', request, refuse, 'microsoft', GRAPH_SEND_SCOPE);
  if (grant === null) return void request.resume();
  const read = await readBody(request, GRAPH_LIMIT);
  if (read.tooLarge) return refuse(413, 'RequestEntityTooLarge', 'The request is larger than 4 MB. Use an upload session for large attachments.');
  const contentType = request.headers['content-type'] ?? '';
  let decoded: Pick<StoredMessage, 'from' | 'fromName' | 'replyTo' | 'to' | 'subject' | 'text' | 'attachments'>;
  let via: StoredMessage['via'];
  if (contentType.startsWith('text/plain')) {
    const base64 = read.body.toString('ascii').replace(/\s+/g, '');
    if (base64 === '' || !/^[A-Za-z0-9+/]+=*$/.test(base64) || base64.length % 4 !== 0) return refuse(400, 'ErrorMimeContentInvalidBase64String', 'Invalid base64 string for MIME content.');
    decoded = await decodeMime(Buffer.from(base64, 'base64'));
    if (decoded.to.length === 0) return refuse(400, 'ErrorInvalidRecipients', 'At least one recipient is not valid.');
    via = 'graph-mime';
  } else if (contentType.startsWith('application/json')) {
    let body: { message?: GraphMessage };
    try {
      body = JSON.parse(read.body.toString('utf8')) as { message?: GraphMessage };
    } catch {
      return refuse(400, 'RequestBodyRead', 'Invalid JSON in the request body.');
    }
    const result = readGraphJson(body.message);
    if (typeof result === 'string') return refuse(400, 'ErrorInvalidRecipients', result);
    decoded = result;
    via = 'graph-json';
  } else {
    return refuse(415, 'UnsupportedMediaType', 'Content-Type must be application/json or text/plain.');
  }
  setup.messages.push({ provider: 'microsoft', via, account: grant.email, id: randomBytes(8).toString('hex'), ...decoded, from: decoded.from ?? grant.email, receivedAt: new Date().toISOString() });
  sendEmpty(response, 202);
}
