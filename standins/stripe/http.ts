/** Small node:http helpers for the Stripe stand-in, and Stripe's error shape. */
import type { IncomingMessage, ServerResponse } from 'node:http';

/** An error as Stripe answers it: the SDK picks its typed error from `status` and `type`. */
export class StripeApiError extends Error {
  constructor(
    readonly status: number,
    readonly type: 'invalid_request_error' | 'card_error' | 'api_error' | 'idempotency_error',
    message: string,
    readonly code?: string,
    readonly param?: string,
  ) {
    super(message);
  }

  body(): { error: Record<string, string> } {
    return { error: { type: this.type, message: this.message, ...(this.code && { code: this.code }), ...(this.param && { param: this.param }) } };
  }
}

export const noSuch = (kind: string, id: string, param?: string): StripeApiError =>
  new StripeApiError(param === undefined ? 404 : 400, 'invalid_request_error', `No such ${kind}: '${id}'`, 'resource_missing', param ?? 'id');

export const missingParam = (param: string): StripeApiError =>
  new StripeApiError(400, 'invalid_request_error', `Missing required param: ${param}.`, 'parameter_missing', param);

export const invalidParam = (param: string, message: string): StripeApiError =>
  new StripeApiError(400, 'invalid_request_error', message, 'parameter_invalid', param);

const BODY_LIMIT = 1024 * 1024;

export function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= BODY_LIMIT) chunks.push(chunk);
    });
    request.on('end', () => (size > BODY_LIMIT ? reject(invalidParam('body', 'Request body too large.')) : resolve(Buffer.concat(chunks).toString('utf8'))));
    request.on('error', reject);
  });
}

export function sendJson(response: ServerResponse, status: number, value: unknown, headers: Record<string, string> = {}): void {
  send(response, status, 'application/json; charset=utf-8', JSON.stringify(value), headers);
}

export function sendHtml(response: ServerResponse, status: number, html: string): void {
  send(response, status, 'text/html; charset=utf-8', html);
}

export function send(response: ServerResponse, status: number, contentType: string, body: string | Buffer, headers: Record<string, string> = {}): void {
  const bytes = typeof body === 'string' ? Buffer.from(body) : body;
  response.writeHead(status, { 'content-type': contentType, 'content-length': bytes.length, 'cache-control': 'no-store', ...headers });
  response.end(bytes);
}

export function seeOther(response: ServerResponse, location: string): void {
  response.writeHead(303, { location, 'content-length': 0, 'cache-control': 'no-store' });
  response.end();
}

export const escapeHtml = (text: string): string =>
  text.replace(/[&<>"']/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char] ?? char);
