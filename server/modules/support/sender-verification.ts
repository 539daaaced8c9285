/**
 * Whether the receiving mail service vouched for a From domain, read from its RFC 8601
 * Authentication-Results headers: the From header alone can be written by anyone.
 */

/** One `method=result` clause of an Authentication-Results header, with its properties (`header.d`, …) lower-cased by name. */
export interface AuthResult {
  authservId: string;
  method: string;
  result: string;
  props: Record<string, string>;
}

/** Removes (possibly nested) comments; quoted strings are kept as they are, since '(' inside them is text. */
function withoutComments(text: string): string {
  let out = '';
  let depth = 0;
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (char === '\\') {
      if (depth === 0) out += text.slice(i, i + 2);
      i++;
    } else if (quoted) {
      out += char;
      if (char === '"') quoted = false;
    } else if (char === '(') depth++;
    else if (char === ')' && depth > 0) depth--;
    else if (depth === 0) {
      out += char;
      if (char === '"') quoted = true;
    }
  }
  return out;
}

/** Splits on ';' outside quoted strings, so a quoted local part cannot smuggle in a clause. */
function clauses(text: string): string[] {
  const parts: string[] = [];
  let current = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (char === '\\' && quoted) {
      current += text.slice(i, i + 2);
      i++;
      continue;
    }
    if (char === '"') quoted = !quoted;
    if (char === ';' && !quoted) {
      parts.push(current);
      current = '';
    } else current += char;
  }
  parts.push(current);
  return parts.map((part) => part.trim());
}

// `name = value`, the value a run of quoted strings and other non-space characters (e.g. "a b"@x.es).
const PAIR = /([^\s=]+)\s*=\s*((?:"(?:[^"\\]|\\.)*"|[^\s"])+)/g;
const unquote = (value: string) => value.replace(/"((?:[^"\\]|\\.)*)"/g, (_match, inner: string) => inner.replace(/\\(.)/g, '$1'));

/** One Authentication-Results header: who wrote it (its authserv-id, lower-case) and its clauses. */
export interface AuthResultsHeader {
  authservId: string;
  results: AuthResult[];
}

/** Parses one Authentication-Results value (without the header name); reason and properties are optional. */
export function parseAuthenticationResultsHeader(value: string): AuthResultsHeader {
  const [head = '', ...rest] = clauses(withoutComments(value.replace(/\r?\n[ \t]+/g, ' ')));
  const authservId = (head.split(/\s+/)[0] ?? '').toLowerCase();
  const results = rest.flatMap((clause) => {
    const matches = [...clause.matchAll(PAIR)];
    // A clause must open with method=result ('none' and garbage are skipped); 'dkim/1' carries a version.
    if (matches[0]?.index !== 0) return [];
    const [methodPair, ...propPairs] = matches.map(([, name = '', raw = '']) => [name.toLowerCase(), unquote(raw)] as const);
    if (!methodPair) return [];
    const method = methodPair[0].split('/')[0] ?? '';
    return [{ authservId, method, result: methodPair[1].toLowerCase(), props: Object.fromEntries(propPairs) }];
  });
  return { authservId, results };
}

/** The clauses of one Authentication-Results value (without the header name). */
export function parseAuthenticationResults(value: string): AuthResult[] {
  return parseAuthenticationResultsHeader(value).results;
}

/** One header field of a message, in the order it has in the message (top first); the name in any case. */
export interface HeaderField {
  name: string;
  value: string;
}

/**
 * The receiving service's own verdict: the topmost Authentication-Results with a trusted authserv-id,
 * and no other. The service prepends its header fields (RFC 5322 §3.6.7; RFC 8601 §4.1: its
 * Authentication-Results go at the top), so its verdict sits above anything the sender wrote, and any
 * Authentication-Results claiming its authserv-id that it did not add must be deleted or ignored
 * (RFC 8601 §5): a sender can write such a header into the message itself, lower down. Walking down
 * from the top, what later hops prepended above it (Delivered-To, Received, ARC-*, another receiver's
 * Authentication-Results) is passed over, and everything below it is ignored, trusted id or not. Not
 * even a second trusted header right below counts: where the service writes its verdict last, after
 * its Received (Gmail does), the sender's own headers follow it directly, and nothing tells the two
 * apart. Gmail, for one, writes every method in that one header; a chain of filters writing a header
 * each is read by its topmost one only.
 */
export function serviceVerdict(fields: readonly HeaderField[], trustedAuthservIds: readonly string[]): AuthResultsHeader | null {
  const trusted = new Set(trustedAuthservIds.map((id) => id.trim().toLowerCase()).filter((id) => id !== ''));
  for (const field of fields) {
    if (field.name.trim().toLowerCase() !== 'authentication-results') continue;
    const header = parseAuthenticationResultsHeader(field.value);
    if (trusted.has(header.authservId)) return header;
  }
  return null;
}

/** The domain of `user@domain`, `@domain` or a bare domain, lower-case, without a trailing dot or angle brackets. */
export function domainOf(address: string | undefined): string | null {
  if (!address) return null;
  const domain = address.trim().replace(/^<|>$/g, '').split('@').pop() ?? '';
  return domain.toLowerCase().replace(/\.$/, '') || null;
}

/**
 * Whether the trusted receiving service vouched for this domain in its own verdict (serviceVerdict):
 * DKIM signed by it (header.d, or header.i's domain), SPF authorised its envelope sender
 * (smtp.mailfrom), or DMARC passed for it (header.from). No trusted authserv-id: nothing is vouched for.
 */
export function senderDomainVerified(fields: readonly HeaderField[], fromDomain: string, trustedAuthservIds: readonly string[]): boolean {
  const domain = fromDomain.toLowerCase().replace(/\.$/, '');
  if (!domain) return false;
  return (serviceVerdict(fields, trustedAuthservIds)?.results ?? []).some(({ method, result, props }) => {
    if (result !== 'pass') return false;
    if (method === 'dkim') return domainOf(props['header.d']) === domain || domainOf(props['header.i']) === domain;
    if (method === 'spf') return domainOf(props['smtp.mailfrom']) === domain;
    if (method === 'dmarc') return domainOf(props['header.from']) === domain;
    return false;
  });
}
