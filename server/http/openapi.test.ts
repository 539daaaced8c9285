import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import packageJson from '../../package.json' with { type: 'json' };
import { registerUser, startTestServer, type TestServer } from '../test/harness.ts';
import { routesFromTree } from '../test/route-table.ts';
import { API_DOCS_PATH } from './openapi.ts';

interface Operation {
  summary?: string;
  tags?: string[];
  parameters?: Array<{ in: string; name: string }>;
  requestBody?: unknown;
}
interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string };
  paths: Record<string, Record<string, Operation>>;
}

/**
 * POST/PUT/PATCH routes that read no JSON body, so have none to describe. Uploads are multipart
 * (the route's description says so). A new route that reads a body and does not declare it fails below.
 */
const WITHOUT_BODY = new Set([
  'POST /api/auth/logout',
  'POST /api/auth/newtoken',
  'POST /api/browserflow/execution/state/{token}/stop',
  'POST /api/storage/uploads',
  'POST /api/fie/upload',
  // Altas: multipart uploads, and calls whose only input is the path or the cookie.
  'PUT /api/users/formToFlow',
  'POST /api/form-to-flow-form/{id}/files',
  'PUT /api/form-to-flow-user/sendemail/{id}',
  'POST /api/form-to-flow-form/logout',
  // DEHÚ: a notification's document, multipart.
  'POST /api/notifications/robot/{id}/documents',
  // The new date travels in the query string.
  'PUT /api/browserflow/schedule/{id}',
  // Billing: calls whose only input is the path or the cookie; Stripe's webhook is raw signed bytes.
  'POST /api/subscriptions/setup-intent',
  'PUT /api/subscriptions/payment-methods/{id}/default',
  'POST /api/subscriptions/cancel',
  'POST /api/subscriptions/resume',
  'POST /api/stripe/webhook',
  // Support: an agent's emailed answer, raw RFC 822.
  'POST /api/support/inbound',
  // Document creator: a starter's copy takes only the starter in the path.
  'POST /api/documentcreator/starters/{key}',
  // Sharing: a copy's only input is the object in the path.
  'POST /api/share/clone/{kind}/{id}',
  // Online forms: publishing and closing take only the form in the path.
  'POST /api/documentcreator/forms/{id}/publish',
  'POST /api/documentcreator/forms/{id}/close',
]);

/** '/a/:x|:y/b' -> ['/a/:x/b', '/a/:y/b']. */
function variants(url: string): string[] {
  const match = /:\w+(?:\|:\w+)+/.exec(url);
  if (!match) return [url];
  return match[0].split('|').flatMap((segment) => variants(url.slice(0, match.index) + segment + url.slice(match.index + match[0].length)));
}

let server: TestServer;
let document: OpenApiDocument;
beforeAll(async () => {
  server = await startTestServer();
  const response = await server.app.inject({ method: 'GET', url: `${API_DOCS_PATH}/json` });
  expect(response.statusCode).toBe(200);
  document = response.json<OpenApiDocument>();
});
afterAll(async () => server.close());

describe('the API document', () => {
  it('is OpenAPI 3.1 with the API paths, and no reference out of the document', () => {
    expect(document.openapi).toMatch(/^3\.1\.\d+$/);
    expect(document.info).toMatchObject({ title: 'AutoAsesor API', version: packageJson.version });
    expect(document.paths['/api/health']?.get?.summary).toBeTruthy();
    expect(document.paths['/api/auth/login']?.post?.requestBody).toBeTruthy();
    expect(document.paths['/api/flowlog/{id}']?.get?.parameters).toEqual(expect.arrayContaining([expect.objectContaining({ in: 'path', name: 'id' })]));
    // zod's `#/$defs/...` (z.json()) would point at the document's root.
    expect(JSON.stringify(document)).not.toContain('#/$defs');
  });

  it('describes every /api route: a summary, its module as tag, its path parameters and its body', () => {
    const routes = routesFromTree(server.app.printRoutes({ commonPrefix: false })).filter(
      ({ url }) => url.startsWith('/api/') && url !== API_DOCS_PATH && !url.startsWith(`${API_DOCS_PATH}/`),
    );
    expect(routes.length).toBeGreaterThanOrEqual(59);
    const problems: string[] = [];
    for (const { method, url } of routes) {
      // Routes whose parameters differ at one place share a node, printed ':flowId|:id' with all their methods.
      const candidates = variants(url).map((variant) => variant.replace(/:(\w+)/g, '{$1}'));
      const path = candidates.find((candidate) => document.paths[candidate]?.[method.toLowerCase()]) ?? candidates.join(' | ');
      const name = `${method} ${path}`;
      const operation = document.paths[path]?.[method.toLowerCase()];
      if (!operation) {
        problems.push(`${name}: not in the document`);
        continue;
      }
      if (!operation.summary) problems.push(`${name}: no summary (give the route a schema with routeSchema)`);
      if (operation.tags?.length !== 1) problems.push(`${name}: no tag`);
      for (const [, param] of path.matchAll(/\{(\w+)\}/g)) {
        if (!operation.parameters?.some((parameter) => parameter.in === 'path' && parameter.name === param)) problems.push(`${name}: path parameter ${param} not described`);
      }
      if (['POST', 'PUT', 'PATCH'].includes(method) && !operation.requestBody && !WITHOUT_BODY.has(name)) problems.push(`${name}: body not described`);
    }
    expect(problems).toEqual([]);
  });

  it('is read at /api/docs: the page and every script and style it loads answer 200', async () => {
    let url = new URL(`http://localhost${API_DOCS_PATH}`);
    let page = await server.app.inject({ method: 'GET', url: url.pathname, headers: { accept: 'text/html' } });
    // Some versions of the reader answer with a redirect to its page.
    if (page.statusCode >= 300 && page.statusCode < 400) {
      url = new URL(String(page.headers.location), url);
      page = await server.app.inject({ method: 'GET', url: url.pathname, headers: { accept: 'text/html' } });
    }
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    const base = url;
    const assets = [...page.body.matchAll(/<(?:script|link)\b[^>]*\b(?:src|href)="([^"]+)"/g)].map((match) => new URL(match[1] ?? '', base).pathname);
    expect(assets.length).toBeGreaterThan(0);
    for (const asset of assets) {
      const response = await server.app.inject({ method: 'GET', url: asset });
      expect([asset, response.statusCode]).toEqual([asset, 200]);
    }
    // Its CSP lets it run its own scripts (it has no inline one) and still forbids framing.
    expect(page.body).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    expect(page.headers['content-security-policy']).toContain("frame-ancestors 'none'");
  });
});

describe('route schemas only describe', () => {
  it('parseInput still answers invalid input, with its Spanish messages', async () => {
    const response = await server.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: 'no-es-un-email', password: '' } });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'VALIDATION', message: 'Revisa los datos enviados' });
    expect(response.json<{ issues: Array<{ path: string }> }>().issues.map((issue) => issue.path).sort()).toEqual(['email', 'password']);
  });

  it('a bad query on a signed-in route is the 400 of parseInput too', async () => {
    const jar = await registerUser(server.app, 'openapi@asesoria.es');
    const response = await jar.get('/api/flowlog?limit=mucho');
    expect(response.statusCode).toBe(400);
    expect(response.json<{ issues: Array<{ path: string }> }>().issues.map((issue) => issue.path)).toEqual(['limit']);
  });
});
