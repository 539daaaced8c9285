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

/** The clauses of one Authentication-Results value (without the header name); reason and properties are optional. */
export function parseAuthenticationResults(value: string): AuthResult[] {
  const [head = '', ...rest] = clauses(withoutComments(value.replace(/\r?\n[ \t]+/g, ' ')));
  const authservId = (head.split(/\s+/)[0] ?? '').toLowerCase();
  return rest.flatMap((clause) => {
    const matches = [...clause.matchAll(PAIR)];
    // A clause must open with method=result ('none' and garbage are skipped); 'dkim/1' carries a version.
    if (matches[0]?.index !== 0) return [];
    const [methodPair, ...propPairs] = matches.map(([, name = '', raw = '']) => [name.toLowerCase(), unquote(raw)] as const);
    if (!methodPair) return [];
    const method = methodPair[0].split('/')[0] ?? '';
    return [{ authservId, method, result: methodPair[1].toLowerCase(), props: Object.fromEntries(propPairs) }];
  });
}

/** The domain of `user@domain`, `@domain` or a bare domain, lower-case, without a trailing dot or angle brackets. */
export function domainOf(address: string | undefined): string | null {
  if (!address) return null;
  const domain = address.trim().replace(/^<|>$/g, '').split('@').pop() ?? '';
  return domain.toLowerCase().replace(/\.$/, '') || null;
}

/**
 * Whether some result passes for exactly this domain: DKIM signed by it (header.d, or header.i's
 * domain), SPF authorised its envelope sender (smtp.mailfrom), or DMARC passed for it (header.from).
 * With trustedAuthservIds, only headers those receivers wrote count.
 */
export function senderDomainVerified(headerValues: readonly string[], fromDomain: string, trustedAuthservIds: readonly string[] = []): boolean {
  const domain = fromDomain.toLowerCase().replace(/\.$/, '');
  if (!domain) return false;
  const trusted = new Set(trustedAuthservIds.map((id) => id.toLowerCase()));
  return headerValues
    .flatMap(parseAuthenticationResults)
    .filter((entry) => trusted.size === 0 || trusted.has(entry.authservId))
    .some(({ method, result, props }) => {
      if (result !== 'pass') return false;
      if (method === 'dkim') return domainOf(props['header.d']) === domain || domainOf(props['header.i']) === domain;
      if (method === 'spf') return domainOf(props['smtp.mailfrom']) === domain;
      if (method === 'dmarc') return domainOf(props['header.from']) === domain;
      return false;
    });
}
