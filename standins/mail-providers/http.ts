/** Small node:http helpers for the mail providers' stand-in: bounded bodies, JSON/HTML answers, forms. */
import type { IncomingMessage, ServerResponse } from 'node:http';

/** A body of at most `limit` bytes; a larger one is drained and answered as `{ tooLarge: true }`. */
export function readBody(request: IncomingMessage, limit: number): Promise<{ tooLarge: false; body: Buffer } | { tooLarge: true; size: number }> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      // Past the limit the rest is read and thrown away, so the client gets the 413 instead of a reset.
      if (size <= limit) chunks.push(chunk);
    });
    request.on('end', () => resolve(size > limit ? { tooLarge: true, size } : { tooLarge: false, body: Buffer.concat(chunks) }));
    request.on('error', reject);
  });
}

export function sendJson(response: ServerResponse, status: number, value: unknown, headers: Record<string, string> = {}): void {
  const body = Buffer.from(JSON.stringify(value));
  response.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length, 'cache-control': 'no-store', ...headers });
  response.end(body);
}

export function sendHtml(response: ServerResponse, status: number, html: string): void {
  const body = Buffer.from(html);
  response.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'content-length': body.length, 'cache-control': 'no-store' });
  response.end(body);
}

export function sendEmpty(response: ServerResponse, status: number, headers: Record<string, string> = {}): void {
  response.writeHead(status, { 'content-length': 0, ...headers });
  response.end();
}

export function redirect(response: ServerResponse, location: string): void {
  response.writeHead(302, { location, 'content-length': 0, 'cache-control': 'no-store' });
  response.end();
}

/** application/x-www-form-urlencoded, as token endpoints and the consent form send. */
export function parseForm(body: Buffer): URLSearchParams {
  return new URLSearchParams(body.toString('utf8'));
}

export function bearerToken(request: IncomingMessage): string | null {
  const match = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '');
  return match?.[1] ?? null;
}

/** HTTP Basic client credentials (RFC 6749 §2.3.1: both parts form-urlencoded before base64). */
export function basicCredentials(request: IncomingMessage): { id: string; secret: string } | null {
  const match = /^Basic\s+(\S+)$/i.exec(request.headers.authorization ?? '');
  if (match?.[1] === undefined) return null;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return null;
  const unescape = (value: string) => decodeURIComponent(value.replace(/\+/g, ' '));
  try {
    return { id: unescape(decoded.slice(0, colon)), secret: unescape(decoded.slice(colon + 1)) };
  } catch {
    return null;
  }
}

export const escapeHtml = (text: string): string =>
  text.replace(/[&<>"']/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char] ?? char);
