import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import fastJson from 'fast-json-stringify';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest, type FastifySchema, type FastifySerializerCompiler, type RouteOptions } from 'fastify';
import { z } from 'zod/mini';
import { apiErrorSchema } from '#shared/api/errors.ts';
import packageJson from '../../package.json' with { type: 'json' };

/** The reader page; the document is at API_DOCS_PATH/json (and /yaml). */
export const API_DOCS_PATH = '/api/docs';

/**
 * The reader's pages and files (every answer under API_DOCS_PATH): Swagger UI's scripts and styles are
 * its own files, with no inline script; React sets inline styles. Never framed, like the web app.
 */
const READER_CSP = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; object-src 'none'; base-uri 'self'; frame-ancestors 'none'";

type ZodSchema = z.core.$ZodType;
type JsonSchema = Record<string, unknown>;

/** What a route says about itself in the API document. Its schemas are the contract's (shared/api). */
export interface RouteDoc {
  /** The module the route belongs to (its folder under server/modules). */
  tag: string;
  summary: string;
  description?: string;
  /** The schemas the handler passes to parseInput. */
  params?: ZodSchema;
  querystring?: ZodSchema;
  body?: ZodSchema;
  /** Answers a shared/api schema describes, by status; null: an answer with no body (204). */
  response?: Record<number, ZodSchema | null>;
}

/** An answer with no body (204): @fastify/swagger leaves the content out of a response whose type is 'null'. */
const noContent = (): JsonSchema => ({ type: 'null', description: 'No content' });

/**
 * A route's `schema`: its summary, tag and the zod schemas of its parts, for the API document only.
 * Fastify neither validates nor serializes with them (registerApiDocs): parseInput stays the validator,
 * with its Spanish messages. They become JSON Schema when the document is first asked for, not at start.
 */
export function routeSchema(doc: RouteDoc): FastifySchema {
  const { tag, summary, description, params, querystring, body, response } = doc;
  return {
    summary,
    tags: [tag],
    ...(description !== undefined && { description }),
    ...(params && { params }),
    ...(querystring && { querystring }),
    ...(body && { body }),
    // Fastify reads every response entry as an object: an answer without a body is JSON Schema's 'null'.
    ...(response && { response: Object.fromEntries(Object.entries(response).map(([status, schema]) => [status, schema ?? noContent()])) }),
  };
}

function isZodSchema(value: unknown): value is ZodSchema {
  return typeof value === 'object' && value !== null && '_zod' in value;
}

/**
 * Replaces zod's local `#/$defs/...` references (recursive schemas such as z.json()) by their
 * definition, once: a reference met again inside its own definition becomes {} (any value). Inside the
 * OpenAPI document a `#/$defs` reference would point at the document's root, where there are none.
 */
function inlineDefs(node: unknown, defs: Record<string, unknown>, open: ReadonlySet<string> = new Set()): unknown {
  if (Array.isArray(node)) return node.map((item) => inlineDefs(item, defs, open));
  if (typeof node !== 'object' || node === null) return node;
  const { $ref, $defs: _defs, $schema: _schema, ...rest } = node as JsonSchema;
  const out: JsonSchema = {};
  if (typeof $ref === 'string' && $ref.startsWith('#/$defs/')) {
    const name = $ref.slice('#/$defs/'.length);
    const definition = defs[name];
    if (definition !== undefined && !open.has(name)) Object.assign(out, inlineDefs(definition, defs, new Set(open).add(name)));
  } else if ($ref !== undefined) {
    out.$ref = $ref;
  }
  for (const [key, value] of Object.entries(rest)) out[key] = inlineDefs(value, defs, open);
  return out;
}

const converted = { input: new WeakMap<ZodSchema, JsonSchema>(), output: new WeakMap<ZodSchema, JsonSchema>() };

/** A contract schema as JSON Schema (draft 2020-12, OpenAPI 3.1's): what a caller sends (input) or gets (output). */
export function jsonSchemaOf(schema: ZodSchema, io: 'input' | 'output'): JsonSchema {
  const known = converted[io].get(schema);
  if (known) return known;
  // Transforms and refinements have no JSON Schema form: they are left out ('any'), the types around them stay.
  const json = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as JsonSchema;
  const result = inlineDefs(json, (json.$defs ?? {}) as Record<string, unknown>) as JsonSchema;
  converted[io].set(schema, result);
  return result;
}

/** @fastify/swagger's transform: the zod schemas of a route (routeSchema) as JSON Schema. */
function documentRoute({ schema, url }: { schema: FastifySchema; url: string }): { schema: FastifySchema; url: string } {
  if (!schema) return { schema, url };
  const parts: Record<string, unknown> = { ...schema };
  for (const part of ['params', 'querystring', 'body'] as const) {
    const value = schema[part];
    if (isZodSchema(value)) parts[part] = jsonSchemaOf(value, 'input');
  }
  const response: Record<string, unknown> = {};
  if (schema.response && typeof schema.response === 'object') {
    for (const [status, value] of Object.entries(schema.response)) response[status] = isZodSchema(value) ? jsonSchemaOf(value, 'output') : value;
  }
  // Every route may answer an error, always in the same shape.
  response.default = { ...jsonSchemaOf(apiErrorSchema, 'output'), description: 'An error: ApiError, with a Spanish message (and the invalid fields in issues)' };
  parts.response = response;
  return { schema: parts as FastifySchema, url };
}

/**
 * For a route whose answers are large and regular (a page of the history): fast-json-stringify writes
 * them from the contract's schema instead of JSON.stringify, in about a third of the time, and an
 * answer can then hold nothing the contract does not name. Every other route answers with JSON.stringify.
 */
export const fastSerializerCompiler: FastifySerializerCompiler<unknown> = ({ schema }) => {
  // Compiled at the first answer, not when the route is added: ~20-50 ms less of every start.
  let serialize: ((data: unknown) => string) | undefined;
  return (data) => {
    serialize ??= fastJson(isZodSchema(schema) ? jsonSchemaOf(schema, 'output') : (schema as JsonSchema));
    return serialize(data);
  };
};

/** Headers of the reader's own answer that the server's answer sets for itself. */
const OWN_HEADERS = new Set(['connection', 'content-length', 'date', 'keep-alive', 'transfer-encoding']);

/**
 * The reader: @fastify/swagger and @fastify/swagger-ui on a Fastify instance of their own, given the
 * app's routes to describe. Made at the first request under API_DOCS_PATH, so a start neither loads
 * them (with yaml, a JSON Schema resolver and their static file server) nor registers their routes.
 */
async function buildReader(routes: readonly RouteOptions[]): Promise<FastifyInstance> {
  const [{ default: fastifySwagger }, { default: fastifySwaggerUi }] = await Promise.all([import('@fastify/swagger'), import('@fastify/swagger-ui')]);
  // The reader's files, in its folder in node_modules: the compiled server bundles the plugin's code
  // (scripts/build-server.ts), where its own __dirname would be dist/server.
  const uiFiles = join(dirname(createRequire(import.meta.url).resolve('@fastify/swagger-ui')), 'static');
  const reader = Fastify({ logger: false });
  reader.setValidatorCompiler(() => () => true);
  reader.setSerializerCompiler(() => (data) => JSON.stringify(data));
  await reader.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'AutoAsesor API',
        version: packageJson.version,
        description:
          'Signed-in calls carry the session cookies that POST /api/auth/login sets; device calls (/api/device/...) carry `Authorization: Device <token>`. ' +
          'Any call may answer an ApiError (the `default` response), with a Spanish message.',
      },
    },
    transform: documentRoute,
  });
  // The same routes, as the document sees them (their handlers are the app's, never called here).
  for (const { method, url, schema, config } of routes) reader.route({ method, url, ...(schema && { schema }), ...(config && { config }), handler: async () => undefined });
  await reader.register(fastifySwaggerUi, {
    routePrefix: API_DOCS_PATH,
    baseDir: uiFiles,
    logo: { type: 'image/svg+xml', content: await readFile(join(uiFiles, 'logo.svg')) },
    staticCSP: READER_CSP,
    theme: { title: 'AutoAsesor API' },
    // Swagger UI would otherwise send the document's address to validator.swagger.io for a badge.
    uiConfig: { validatorUrl: null },
  });
  await reader.ready();
  return reader;
}

/**
 * The API described (issue 20): an OpenAPI 3.1 document built from every route's schema (routeSchema)
 * at API_DOCS_PATH/json, and a reader page (Swagger UI) at API_DOCS_PATH. Register it before the
 * routes: it sees the routes added after it. Route schemas only describe: requests are validated by
 * parseInput in the handlers and answers are written with JSON.stringify, as without schemas.
 * Every request under API_DOCS_PATH is answered by the reader (buildReader), made at the first one;
 * the app's own hooks (security headers, no-store) apply to its answers as to any other.
 */
export async function registerApiDocs(app: FastifyInstance): Promise<void> {
  app.setValidatorCompiler(() => () => true);
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));
  const routes: RouteOptions[] = [];
  app.addHook('onRoute', (route) => {
    // HEAD routes Fastify adds for GETs are not described (as @fastify/swagger does by default).
    if (route.method === 'HEAD' || route.url === API_DOCS_PATH || route.url.startsWith(`${API_DOCS_PATH}/`)) return;
    routes.push(route);
  });
  let reader: Promise<FastifyInstance> | undefined;
  const answer = async (request: FastifyRequest, reply: FastifyReply) => {
    reader ??= buildReader(routes).catch((error: unknown) => {
      reader = undefined;
      throw error;
    });
    // Asked as a GET, a HEAD too: Fastify's HEAD route then sends the GET's headers without its body.
    const response = await (await reader).inject({ method: 'GET', url: request.url, headers: request.headers });
    // Not the reader's: the app's own 404, as for any unknown address.
    if (response.statusCode === 404) return reply.callNotFound();
    for (const [name, value] of Object.entries(response.headers)) if (value !== undefined && !OWN_HEADERS.has(name)) reply.header(name, value);
    reply.code(response.statusCode);
    return response.rawPayload.length > 0 ? reply.send(response.rawPayload) : reply.send();
  };
  // The page, its index (which Fastify's route table then prints as a folder of its own) and every file under it.
  for (const url of [API_DOCS_PATH, `${API_DOCS_PATH}/`, `${API_DOCS_PATH}/*`]) app.get(url, answer);
}
