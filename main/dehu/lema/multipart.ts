/**
 * A small multipart/related reader (RFC 2387) for SOAP with Attachments and MTOM/XOP answers: the root
 * XML part and the other parts by Content-ID. Written here rather than taken from a package: the
 * maintained multipart parsers (busboy, formidable) handle multipart/form-data for servers, not
 * multipart/related answers, and this needs 60 lines.
 */

export interface MultipartMessage {
  root: Buffer;
  /** Parts by Content-ID without the angle brackets. */
  parts: Map<string, { contentType: string; bytes: Buffer }>;
}

/** A Content-Type parameter, quoted or not. */
export function contentTypeParameter(contentType: string, name: string): string | null {
  const match = new RegExp(`;\\s*${name}\\s*=\\s*(?:"([^"]*)"|([^;\\s]+))`, 'i').exec(contentType);
  return match ? (match[1] ?? match[2] ?? null) : null;
}

const stripBrackets = (value: string) => value.trim().replace(/^<|>$/g, '');

/** Null when the body is not multipart/related (a plain XML answer). Throws on a multipart body it cannot read. */
export function readMultipartRelated(contentType: string, body: Buffer): MultipartMessage | null {
  if (!/^\s*multipart\/related/i.test(contentType)) return null;
  const boundary = contentTypeParameter(contentType, 'boundary');
  if (!boundary) throw new Error('multipart/related sin boundary');
  const start = contentTypeParameter(contentType, 'start');
  const delimiter = Buffer.from(`--${boundary}`);
  const rawParts: Buffer[] = [];
  let position = body.indexOf(delimiter);
  while (position !== -1) {
    const after = position + delimiter.length;
    if (body.subarray(after, after + 2).toString('latin1') === '--') break;
    const next = body.indexOf(delimiter, after);
    if (next === -1) throw new Error('multipart/related sin cierre');
    rawParts.push(body.subarray(after, next));
    position = next;
  }
  const parts = new Map<string, { contentType: string; bytes: Buffer }>();
  let root: Buffer | null = null;
  for (const raw of rawParts) {
    const part = raw.subarray(raw.subarray(0, 2).toString('latin1') === '\r\n' ? 2 : 0);
    const headerEnd = part.indexOf('\r\n\r\n');
    if (headerEnd === -1) continue;
    const headers = new Map<string, string>();
    for (const line of part.subarray(0, headerEnd).toString('latin1').split('\r\n')) {
      const colon = line.indexOf(':');
      if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
    }
    // The CRLF before the next delimiter belongs to the delimiter.
    let bytes = part.subarray(headerEnd + 4);
    if (bytes.subarray(bytes.length - 2).toString('latin1') === '\r\n') bytes = bytes.subarray(0, bytes.length - 2);
    if (/base64/i.test(headers.get('content-transfer-encoding') ?? '')) bytes = Buffer.from(bytes.toString('latin1').replace(/\s+/g, ''), 'base64');
    const id = stripBrackets(headers.get('content-id') ?? '');
    const isRoot = start ? id === stripBrackets(start) : root === null;
    if (isRoot) root = bytes;
    else if (id) parts.set(id, { contentType: headers.get('content-type') ?? 'application/octet-stream', bytes });
  }
  if (root === null) throw new Error('multipart/related sin parte raíz');
  return { root, parts };
}
