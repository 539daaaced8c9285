/**
 * The REST side: Bearer key check, Stripe's form encoding, `Idempotency-Key` replays, `expand[]`, and
 * Stripe's error shape, around the routes of api-customers.ts, api-catalogue.ts and api-billing.ts.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { randomBytes } from 'node:crypto';
import { parseStripeForm, strings, type FormObject } from './form.ts';
import { StripeApiError, readBody, sendJson } from './http.ts';
import { publicView } from './objects.ts';
import type { StripeStore } from './store.ts';
import type { StripeEvent, WebhookQueue } from './webhooks.ts';
import type { Billing } from './billing.ts';

export interface ApiContext {
  store: StripeStore;
  hooks: WebhookQueue;
  billing: Billing;
  /** The path's ids, in order. */
  params: string[];
  /** The form body (POST) or the query (GET, DELETE). */
  form: FormObject;
  /** What events caused by this call carry as `request`. */
  request: StripeEvent['request'];
}

export interface Route {
  method: 'GET' | 'POST' | 'DELETE';
  /** `:id` matches one path segment. */
  path: string;
  handle(context: ApiContext): unknown;
  /** Called when an Idempotency-Key replays this route's stored answer (nothing else runs then). */
  replayed?(context: ApiContext): void;
}

interface CompiledRoute extends Route {
  pattern: RegExp;
}

export function compileRoutes(routes: Route[]): CompiledRoute[] {
  return routes.map((route) => ({ ...route, pattern: new RegExp(`^${route.path.replace(/:[a-z_]+/g, '([^/]+)')}$`) }));
}

export async function handleApi(routes: CompiledRoute[], secretKey: string, services: Pick<ApiContext, 'store' | 'hooks' | 'billing'>, request: IncomingMessage, response: ServerResponse, url: URL): Promise<void> {
  const requestId = `req_${randomBytes(8).toString('hex')}`;
  const headers = { 'request-id': requestId, 'stripe-version': request.headers['stripe-version']?.toString() ?? '2026-10-28.endive' };
  const fail = (error: StripeApiError) => sendJson(response, error.status, error.body(), headers);

  const auth = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '')?.[1];
  if (auth !== secretKey) {
    const shown = auth === undefined ? 'none' : `${auth.slice(0, 8)}${'*'.repeat(Math.max(0, auth.length - 12))}${auth.slice(-4)}`;
    return fail(new StripeApiError(401, 'invalid_request_error', `Invalid API Key provided: ${shown}`));
  }
  const method = request.method ?? 'GET';
  const matches = routes.filter((route) => route.pattern.test(url.pathname));
  const route = matches.find((candidate) => candidate.method === method);
  if (route === undefined) {
    const message = matches.length > 0 ? `Unrecognized request URL (${method}: ${url.pathname}). Please see https://stripe.com/docs or we can help at https://support.stripe.com/.` : `Unrecognized request URL (${method}: ${url.pathname}).`;
    return fail(new StripeApiError(404, 'invalid_request_error', message));
  }

  const body = method === 'POST' ? await readBody(request) : url.search.slice(1);
  const key = method === 'POST' ? request.headers['idempotency-key']?.toString() : undefined;
  const fingerprint = `${method} ${url.pathname} ${body}`;
  const form = parseStripeForm(body);
  const params = (route.pattern.exec(url.pathname) ?? []).slice(1).map(decodeURIComponent);
  const context: ApiContext = { ...services, params, form, request: { id: requestId, idempotency_key: key ?? null } };
  if (key !== undefined) {
    const stored = services.store.idempotent.get(key);
    if (stored !== undefined) {
      if (stored.request !== fingerprint) {
        return fail(new StripeApiError(400, 'idempotency_error', `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${key}' if you meant to execute a different request.`));
      }
      if (stored.status < 300) route.replayed?.(context);
      response.writeHead(stored.status, { 'content-type': 'application/json; charset=utf-8', 'idempotent-replayed': 'true', ...headers });
      response.end(stored.body);
      return;
    }
  }

  let status = 200;
  let answer: unknown;
  try {
    const result = route.handle(context);
    answer = expand(services.store, publicView(result), strings(form.expand));
  } catch (error) {
    if (!(error instanceof StripeApiError)) throw error;
    status = error.status;
    answer = error.body();
  }
  const text = JSON.stringify(answer, null, 2);
  if (key !== undefined && status < 500) services.store.idempotent.set(key, { request: fingerprint, status, body: text });
  response.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
  response.end(text);
}

/** `expand[]=data.product`, `expand[]=subscription`: ids along each dotted path become their objects. */
export function expand(store: StripeStore, value: unknown, paths: string[]): unknown {
  for (const path of paths) value = expandPath(store, value, path.split('.'));
  return value;
}

function expandPath(store: StripeStore, value: unknown, segments: string[]): unknown {
  const [head, ...rest] = segments;
  if (head === undefined || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((entry) => expandPath(store, entry, segments));
  const record = value as Record<string, unknown>;
  const field = record[head];
  const resolve = (entry: unknown) => {
    const found = typeof entry === 'string' ? store.find(entry) : undefined;
    return expandPath(store, found === undefined ? entry : publicView(found), rest);
  };
  record[head] = Array.isArray(field) ? field.map(resolve) : resolve(field);
  return record;
}

/** Stripe's list answer, newest first: `limit` (1–100, 10 by default) and `starting_after` (the SDK's auto-pagination). */
export function listOf<T extends { id: string }>(data: T[], url: string, form: FormObject): { object: 'list'; data: T[]; has_more: boolean; url: string } {
  const raw = typeof form.limit === 'string' ? Number(form.limit) : 10;
  if (!Number.isInteger(raw) || raw < 1 || raw > 100) throw new StripeApiError(400, 'invalid_request_error', 'Invalid integer: limit must be between 1 and 100.', 'parameter_invalid_integer', 'limit');
  const after = typeof form.starting_after === 'string' ? data.findIndex((entry) => entry.id === form.starting_after) : -1;
  const rest = data.slice(after + 1);
  return { object: 'list', data: rest.slice(0, raw), has_more: rest.length > raw, url };
}
