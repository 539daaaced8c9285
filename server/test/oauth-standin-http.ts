import { createSign, type KeyObject } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

/** The OAuth stand-ins' shared pieces (mail/oauth-test-provider.ts, auth/google-test-provider.ts). Not product code. */

/** An RS256 id_token of `claims`, signed by `key` under `kid`. */
export function signedIdToken(claims: Record<string, unknown>, key: KeyObject, kid: string): string {
  const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const input = `${b64({ alg: 'RS256', typ: 'JWT', kid })}.${b64(claims)}`;
  return `${input}.${createSign('RSA-SHA256').update(input).sign(key).toString('base64url')}`;
}

/** A form-encoded request body (a token or revocation request). */
export async function readForm(request: IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

export function sendJson(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' }).end(JSON.stringify(body));
}
