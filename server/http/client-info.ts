import type { FastifyInstance, FastifyRequest } from 'fastify';
import { CLIENT_APP_HEADER, CLIENT_VERSION_HEADER, LANGUAGE_HEADER, clientApps, type ClientApp } from '#shared/api/headers.ts';
import { languageSchema, type Language } from '#shared/domain/user.ts';

/** Who is calling: the client headers every request of ours carries (spec §7). */
export interface ClientInfo {
  app: ClientApp | null;
  version: string | null;
  language: Language;
}

declare module 'fastify' {
  interface FastifyRequest {
    client: ClientInfo;
  }
}

function header(request: FastifyRequest, name: string): string | null {
  const value = request.headers[name];
  const first = Array.isArray(value) ? value[0] : value;
  return first?.trim() || null;
}

const spokenLanguages: ReadonlySet<string> = new Set(languageSchema.options);

function isSpoken(language: string | undefined): language is Language {
  return language !== undefined && spokenLanguages.has(language);
}

/**
 * The first language of an Accept-Language header that the app speaks, else Spanish. Runs on every
 * request: a set lookup, not a schema parse (a failed zod parse builds an error object, and most
 * requests carry no header or a language we do not speak).
 */
export function pickLanguage(acceptLanguage: string | null): Language {
  if (!acceptLanguage) return 'es';
  for (const part of acceptLanguage.split(',')) {
    const primary = part.split(';')[0]?.trim().split('-')[0]?.toLowerCase();
    if (isSpoken(primary)) return primary;
  }
  return 'es';
}

export function readClientInfo(request: FastifyRequest): ClientInfo {
  const app = header(request, CLIENT_APP_HEADER);
  return {
    app: clientApps.find((known) => known === app) ?? null,
    version: header(request, CLIENT_VERSION_HEADER)?.slice(0, 50) ?? null,
    language: pickLanguage(header(request, LANGUAGE_HEADER)),
  };
}

export function registerClientInfo(app: FastifyInstance): void {
  // Read from the headers when a route asks (registration, app logs), not by a hook on every request.
  app.decorateRequest('client', {
    getter(this: FastifyRequest): ClientInfo {
      return readClientInfo(this);
    },
  });
}

/**
 * Fastify's trustProxy from our setting. A list of proxy IPs/CIDRs goes as is. Fastify 5 ignores a
 * bare hop count (it cannot tell a proxy from a client), so a count becomes "trust the nearest N
 * peers": right only when the server is reachable through the proxy alone (e.g. it listens on
 * 127.0.0.1 behind it); the X-Forwarded-For entries a client writes itself are never used.
 */
export function trustProxyOption(setting: false | number | string[] | undefined): false | string[] | ((address: string, hop: number) => boolean) {
  if (typeof setting === 'number') return setting > 0 ? (_address, hop) => hop < setting : false;
  return setting && setting.length > 0 ? setting : false;
}
