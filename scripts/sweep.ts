/**
 * Bad-input sweep: `npm run sweep [-- --small]`. Builds the API on a temp SQLite file, reads its route
 * table (so routes that later issues add are swept too) and sends every route a battery of hostile
 * inputs, signed out and signed in: wrong types, missing fields, huge strings, deep nesting, bad
 * JSON, wrong content types, unicode junk, bad params and queries. Prints the figures we hold at 0:
 *  - 5xx answers (a crash or an unhandled case);
 *  - writes on rejected input: any commit to the database (PRAGMA data_version, the tables' row
 *    counts name which) or a file left in the storage folder while a request was answered
 *    400/413/415/422, i.e. its input was refused.
 * Malformed multipart bodies (no boundary, a part never closed, a body cut short, a part of headers
 * only, a huge part header) reach every multipart route the sweep's user may call.
 * Exit 1 when either is not 0. Other 4xx answers (401, 404, 429…) are counted and listed, not failed:
 * a failed sign-in may rightly record the attempt.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { buildApp } from '../server/app.ts';
import type { ServerConfig } from '../server/server-config.ts';
import { LEDGER_AGAINST_USAGE_SQL } from './ledger-sql.ts';
import { routesFromTree, type Route } from '../server/test/route-table.ts';

/** One hostile request, before the route's method and path are filled in. */
interface Case {
  name: string;
  path?: (route: Route) => string;
  headers?: Record<string, string>;
  payload?: string | Buffer;
}

export interface SweepFigures {
  routes: Route[];
  /** False when the sweep could not register its user: then only the signed-out pass ran. */
  signedIn: boolean;
  /** The other credentials the multipart routes were swept with (a device's token, a company's session). */
  credentials: Array<'device' | 'company'>;
  requests: number;
  byStatus: Record<string, number>;
  serverErrors: Finding[];
  writesOnRejected: Finding[];
  writesOnOther4xx: Finding[];
  /** Firms whose used slans differ from the sum of their credit ledger (held at 0), after the sweep. */
  ledger: { firms: number; mismatches: { groupId: string; usedSlans: number; ledger: number }[] };
  ms: number;
}

interface Finding {
  who: 'signed-out' | 'signed-in' | 'device' | 'company';
  method: string;
  url: string;
  case: string;
  status: number;
  tables?: string[];
}

const REJECTED = new Set([400, 413, 415, 422]);
const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const PASSWORD = 'Barrido.Seguro-2026!';

const FIELDS = ['email', 'password', 'name', 'token', 'message', 'context', 'currentPassword', 'newPassword', 'level', 'url', 'stack', 'language'];
const JUNK = '\u0000\u202e\ud800💥\uffff<script>alert(1)</script>\'";--\\';

function nested(depth: number, open: string, close: string, leaf = '1'): string {
  return `${open.repeat(depth)}${leaf}${close.repeat(depth)}`;
}

/** Parameter values for `:name` segments, each a case of its own. */
const PARAM_VALUES: Array<[string, string]> = [
  ['param junk', encodeURIComponent(JUNK.replace('\ud800', ''))],
  ['param lone surrogate bytes', '%ED%A0%80'],
  ['param long', 'a'.repeat(5_000)],
  ['param traversal', '..%2F..%2Fetc%2Fpasswd'],
  ['param bad percent-encoding', '%E0%A4%A'],
  ['param NUL', '%00'],
];

const QUERIES = ['?a=1&a=2&a[b]=3', '?__proto__[admin]=1&constructor[prototype][x]=1', '?q=%ZZ%', `?q=${'x'.repeat(8_000)}`];

function fillParams(url: string, value: string): string {
  return url.replace(/:[A-Za-z0-9_]+/g, value);
}

const PART = (boundary: string, headers = '') => `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.csv"\r\nContent-Type: text/csv\r\n${headers}\r\nNIF\r\n12345678Z\r\n`;

/** Malformed multipart/form-data bodies: busboy's errors, which must answer 400 (issue 39 point 8). */
const MALFORMED_MULTIPART: Case[] = [
  { name: 'multipart without boundary', headers: { 'content-type': 'multipart/form-data' }, payload: `${PART('x')}--x--\r\n` },
  { name: 'multipart part never closed', headers: { 'content-type': 'multipart/form-data; boundary=x' }, payload: PART('x') },
  { name: 'multipart body cut short', headers: { 'content-type': 'multipart/form-data; boundary=x' }, payload: '--x\r\nContent-Disposition: form-data; name="file"; filename="a.csv"\r\n\r\nNIF\r\n1234' },
  { name: 'multipart part of headers only', headers: { 'content-type': 'multipart/form-data; boundary=x' }, payload: '--x\r\nContent-Disposition: form-data; name="file"; filename="a.csv"\r\n' },
  { name: 'multipart huge part header', headers: { 'content-type': 'multipart/form-data; boundary=x' }, payload: `${PART('x', `X-Relleno: ${'a'.repeat(200_000)}\r\n`)}--x--\r\n` },
  { name: 'multipart boundary too long', headers: { 'content-type': `multipart/form-data; boundary=${'b'.repeat(300)}` }, payload: `${PART('b'.repeat(300))}--${'b'.repeat(300)}--\r\n` },
];

/** Files under the storage folder (a refused request may leave none). */
async function storedFileCount(dir: string): Promise<number> {
  if (!existsSync(dir)) return 0;
  return (await readdir(dir, { recursive: true, withFileTypes: true })).filter((entry) => entry.isFile()).length;
}

function json(value: unknown): Pick<Case, 'headers' | 'payload'> {
  return { headers: { 'content-type': 'application/json' }, payload: JSON.stringify(value) };
}

/** The battery; `small` keeps one or two of each kind for the unit test. */
export function cases(small: boolean): Case[] {
  const typeJunk: unknown[] = small ? [123, [], null] : [123, -1.5e308, true, [], ['a'], {}, { $gt: '' }, null, JUNK, ''];
  const wrongTypes: Case[] = typeJunk.map((value) => ({ name: `every field = ${JSON.stringify(value)}`, ...json(Object.fromEntries(FIELDS.map((field) => [field, value]))) }));
  const perField: Case[] = small
    ? []
    : FIELDS.flatMap((field) => [
        { name: `${field} huge`, ...json({ [field]: 'a'.repeat(200_000) }) },
        { name: `${field} unicode junk`, ...json({ [field]: JUNK }) },
        { name: `${field} object`, ...json({ [field]: { [field]: [JUNK] } }) },
      ]);
  const all: Case[] = [
    { name: 'no body, no content-type' },
    { name: 'empty JSON body', headers: { 'content-type': 'application/json' }, payload: '' },
    ...(['null', '[]', '"texto"', '42', 'true', '{}'] as const).map((text) => ({ name: `JSON ${text}`, headers: { 'content-type': 'application/json' }, payload: text })),
    ...['{', '{"a":}', "{'a':1}", '{"a":1} trailing', '\u0000', '{"a":1,"a":2}', '{"__proto__":{"admin":true}}'].map((text) => ({ name: `bad JSON ${JSON.stringify(text)}`, headers: { 'content-type': 'application/json' }, payload: text })),
    { name: 'text/plain', headers: { 'content-type': 'text/plain' }, payload: 'email=a@b.es' },
    { name: 'form', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'email=a%40b.es&password=x' },
    { name: 'multipart junk', headers: { 'content-type': 'multipart/form-data; boundary=x' }, payload: '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--x--' },
    ...MALFORMED_MULTIPART,
    { name: 'json with bad charset', headers: { 'content-type': 'application/json; charset=utf-7' }, payload: '{}' },
    { name: 'invalid UTF-8 JSON', headers: { 'content-type': 'application/json' }, payload: Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]) },
    { name: 'deep arrays', headers: { 'content-type': 'application/json' }, payload: nested(small ? 500 : 5_000, '[', ']') },
    { name: 'deep objects', headers: { 'content-type': 'application/json' }, payload: nested(small ? 500 : 2_000, '{"a":', '}') },
    { name: 'deep in a field', ...json({ message: 'x', context: JSON.parse(nested(small ? 100 : 1_000, '{"a":', '}')) as unknown }) },
    { name: 'body over 1 MB', headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ message: 'a'.repeat(1_100_000) }) },
    { name: 'huge string field', ...json({ message: 'a'.repeat(small ? 100_000 : 900_000), email: 'a'.repeat(100_000) }) },
    { name: 'many keys', ...json(Object.fromEntries(Array.from({ length: small ? 1_000 : 20_000 }, (_, i) => [`k${i}`, i]))) },
    { name: 'missing fields', ...json({ email: 'barrido@asesoria.es' }) },
    ...wrongTypes,
    ...perField,
  ];
  const params = PARAM_VALUES.slice(0, small ? 2 : undefined).map(([name, value]): Case => ({ name, path: (route) => fillParams(route.url, value) }));
  const queries = QUERIES.slice(0, small ? 2 : undefined).map((query): Case => ({ name: `query ${query.slice(0, 30)}`, path: (route) => `${fillParams(route.url, 'barrido%40asesoria.es')}${query}` }));
  return [...all, ...params, ...queries];
}

function fingerprint(reader: SqliteDatabase.Database): { version: number; counts: Map<string, number> } {
  const version = reader.pragma('data_version', { simple: true }) as number;
  const tables = reader.prepare("select name from sqlite_master where type = 'table' and name not like 'sqlite_%'").pluck().all() as string[];
  return { version, counts: new Map(tables.map((table) => [table, (reader.prepare(`select count(*) from "${table}"`).pluck().get() as number) ?? 0])) };
}

let clients = 0;

/** Each request comes from its own address, so per-IP rate limits answer 429 less and the input is reached. */
/** Every firm's used slans beside the sum of its ledger lines (ledger-sql.ts). */
function ledgerAgainstUsage(reader: SqliteDatabase.Database): SweepFigures['ledger'] {
  if (reader.prepare("select name from sqlite_master where type = 'table' and name in ('subscriptions', 'credit_ledger')").all().length < 2) return { firms: 0, mismatches: [] };
  const rows = reader
    .prepare(LEDGER_AGAINST_USAGE_SQL)
    .all() as { groupId: string; usedSlans: number; ledger: number }[];
  return { firms: rows.length, mismatches: rows.filter((row) => Math.abs(Number(row.usedSlans) - Number(row.ledger)) > 1e-6) };
}

function nextAddress(): string {
  clients++;
  return `10.${(clients >> 16) & 255}.${(clients >> 8) & 255}.${clients & 255}`;
}

class Session {
  cookies = new Map<string, string>();
  constructor(private readonly app: FastifyInstance) {}
  async inject(options: InjectOptions) {
    const cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    const response = await this.app.inject({ remoteAddress: nextAddress(), ...options, headers: { ...options.headers, ...(cookie && { cookie }) } });
    for (const set of response.cookies) {
      if (set.value === '' || set.maxAge === 0) this.cookies.delete(set.name);
      else this.cookies.set(set.name, set.value);
    }
    return response;
  }
}

interface CredentialPass {
  who: 'device' | 'company';
  session: Session;
  headers: Record<string, string>;
  routes: (url: string) => boolean;
  url: (route: Route) => string;
}

const FORM_SLUG = 'barrido';

/**
 * A linked device (its token) and a company signed in on the firm's public form: set up through the
 * API as the user; a step that fails is named and its pass left out.
 */
async function credentialPasses(app: FastifyInstance, user: Session, mailLines: readonly string[], log?: (line: string) => void): Promise<CredentialPass[]> {
  const passes: CredentialPass[] = [];
  const link = await user.inject({ method: 'POST', url: '/api/machines/link', payload: { machineHashCode: 'a'.repeat(64), machineName: 'PC del barrido' } });
  const deviceToken = link.statusCode < 300 ? (link.json() as { deviceToken?: string }).deviceToken : undefined;
  if (deviceToken) {
    // A device's first call marks its machine online (a write): made here, not counted against a case.
    await user.inject({ method: 'GET', url: '/api/device/me', headers: { authorization: `Device ${deviceToken}` } });
    passes.push({
      who: 'device',
      session: new Session(app),
      headers: { authorization: `Device ${deviceToken}` },
      routes: (url) => url.startsWith('/api/device/') || url.includes('/robot/'),
      // A well-formed id and the query a document upload takes: the body is what is swept.
      url: (route) => `${fillParams(route.url, '6f1c0a9e-1b2c-4d5e-8f90-1234567890ab')}?kind=documento&name=barrido.pdf`,
    });
  } else log?.(`aviso: no se pudo vincular un equipo (${link.statusCode}); sin pasada de dispositivo`);

  const boundary = 'barrido-ajustes';
  const fields = { title: 'Barrido', url: FORM_SLUG };
  const settings = await user.inject({
    method: 'PUT',
    url: '/api/users/formToFlow',
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
    payload: `${Object.entries(fields).map(([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`).join('')}--${boundary}--\r\n`,
  });
  const email = 'empresa-barrido@cliente.es';
  const company = await user.inject({ method: 'POST', url: '/api/form-to-flow-user/client', payload: { name: 'Empresa del barrido', email, cccList: [{ label: 'Centro', key: '28123456742' }] } });
  const companyId = company.statusCode === 201 ? (company.json() as { _id?: string })._id : undefined;
  // A company is sent its credentials once it has a group of workers.
  const group = { text: 'Camarero/a', fieldsValues: { Jornada: 'parcial', 'Tipo Contrato*': '200', 'Coeficiente Parcialidad': '500', 'Grupo Cotización': '07', 'Convenio Colectivo': '46000805011981', 'CN Ocupación': '5120' } };
  if (companyId) await user.inject({ method: 'POST', url: `/api/form-to-flow-client-group/${companyId}/groups`, payload: { '3f1c0a9e-1b2c-4d5e-8f90-1234567890ab': group } });
  const sent = companyId ? await user.inject({ method: 'PUT', url: `/api/form-to-flow-user/sendemail/${companyId}`, payload: {} }) : undefined;
  const mailed = mailLines.at(-1);
  const password = mailed ? /Contraseña: (\S+)/.exec((JSON.parse(mailed) as { mail?: { text?: string } }).mail?.text ?? '')?.[1] : undefined;
  const companySession = new Session(app);
  const signIn = password ? await companySession.inject({ method: 'POST', url: '/api/form-to-flow-form/auth', payload: { url: `/form/flows/${FORM_SLUG}`, email, password } }) : undefined;
  if (signIn?.statusCode === 200) {
    passes.push({ who: 'company', session: companySession, headers: {}, routes: (url) => url.startsWith('/api/form-to-flow-form/'), url: (route) => fillParams(route.url, FORM_SLUG) });
  } else {
    log?.(`aviso: no se pudo iniciar la sesión de una empresa (ajustes ${settings.statusCode}, empresa ${company.statusCode}, envío ${sent?.statusCode ?? '-'}, acceso ${signIn?.statusCode ?? '-'}); sin pasada de empresa`);
  }
  return passes;
}

export interface SweepOptions {
  small?: boolean;
  log?: (line: string) => void;
  /** The app under test (the real one by default; the sweep's own test passes a broken one). */
  build?: (config: ServerConfig) => Promise<FastifyInstance>;
}

export async function runSweep(options: SweepOptions = {}): Promise<SweepFigures> {
  const started = Date.now();
  const dir = await mkdtemp(join(tmpdir(), 'autoasesor-sweep-'));
  const file = join(dir, 'sweep.sqlite');
  const storageDir = join(dir, 'storage');
  const mailLines: string[] = [];
  const app = await (options.build ?? buildApp)({
    database: { kind: 'sqlite', file },
    storageDir,
    webRoot: join(dir, 'no-web-build'),
    publicUrl: 'http://app.test',
    cookieSecure: false,
    allowedOrigins: [],
    // The device pass marks its machine online once, in its set-up; a later touch would be a write on whatever case came next.
    deviceTouchEveryMs: 24 * 60 * 60_000,
    // Only the mailed form credentials are kept (the company pass signs in with them).
    logStream: { write: (line) => void (line.includes('form_credentials') && mailLines.push(line)) },
  });
  const reader = new SqliteDatabase(file, { readonly: true });
  const figures: SweepFigures = { routes: routesFromTree(app.printRoutes({ commonPrefix: false })), signedIn: true, credentials: [], requests: 0, byStatus: {}, serverErrors: [], writesOnRejected: [], writesOnOther4xx: [], ledger: { firms: 0, mismatches: [] }, ms: 0 };
  try {
    const user = new Session(app);
    const email = 'barrido@asesoria.es';
    const registered = await user.inject({ method: 'POST', url: '/api/users', payload: { name: 'Barrido', email, password: PASSWORD } });
    if (registered.statusCode !== 201) {
      figures.signedIn = false;
      options.log?.(`aviso: no se pudo registrar el usuario del barrido (${registered.statusCode}); solo se barre sin sesión`);
    }
    const signIn = async () => {
      if ((await user.inject({ method: 'GET', url: '/api/users/me' })).statusCode === 200) return;
      // A case may have signed the user out (logout) or rotated the session: sign in again.
      const login = await user.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password: PASSWORD } });
      if (login.statusCode !== 200) options.log?.(`aviso: no se pudo volver a iniciar sesión (${login.statusCode})`);
    };

    /** Sends one case to one route as `who`, and records what it finds. */
    const probe = async (who: Finding['who'], session: Session, route: Route, item: Case, url: string, headers: Record<string, string> = {}) => {
      const before = fingerprint(reader);
      const filesBefore = await storedFileCount(storageDir);
      const response = await session.inject({
        method: route.method as InjectOptions['method'],
        url,
        headers: { ...headers, ...item.headers },
        ...(item.payload !== undefined && { payload: item.payload }),
      });
      const after = fingerprint(reader);
      const filesAfter = await storedFileCount(storageDir);
      figures.requests++;
      const status = response.statusCode;
      figures.byStatus[status] = (figures.byStatus[status] ?? 0) + 1;
      const finding: Finding = { who, method: route.method, url: route.url, case: item.name, status };
      if (status >= 500) {
        figures.serverErrors.push(finding);
        options.log?.(`5xx ${status} ${who} ${route.method} ${route.url} «${item.name}»: ${response.body.slice(0, 200)}`);
      }
      if (status >= 400 && status < 500 && (after.version !== before.version || filesAfter > filesBefore)) {
        const tables = [...after.counts].filter(([table, count]) => before.counts.get(table) !== count).map(([table]) => table);
        if (filesAfter > filesBefore) tables.push(`(disco: ${filesAfter - filesBefore} archivos)`);
        (REJECTED.has(status) ? figures.writesOnRejected : figures.writesOnOther4xx).push({ ...finding, tables });
      }
    };

    // The multipart routes that take another credential than a user's session — a linked device's token
    // (DEHÚ documents), a company's session on the public altas form — get the malformed multipart
    // bodies with it, so the parser is reached. First, while the firm's state is as set up.
    if (figures.signedIn) {
      for (const pass of await credentialPasses(app, user, mailLines, options.log)) {
        figures.credentials.push(pass.who);
        for (const route of figures.routes.filter((each) => BODY_METHODS.has(each.method) && pass.routes(each.url))) {
          for (const item of [...MALFORMED_MULTIPART, ...cases(true).filter((each) => each.name === 'multipart junk')]) await probe(pass.who, pass.session, route, item, pass.url(route), pass.headers);
        }
      }
    }

    const battery = cases(options.small ?? false);
    for (const route of figures.routes) {
      for (const who of figures.signedIn ? (['signed-out', 'signed-in'] as const) : (['signed-out'] as const)) {
        for (const item of battery) {
          if (!item.path && item.payload !== undefined && !BODY_METHODS.has(route.method)) continue;
          if (who === 'signed-in') await signIn();
          const session = who === 'signed-in' ? user : new Session(app);
          await probe(who, session, route, item, item.path?.(route) ?? fillParams(route.url, 'barrido%40asesoria.es'));
        }
      }
    }
    figures.ledger = ledgerAgainstUsage(reader);
  } finally {
    reader.close();
    await app.close();
    await rm(dir, { recursive: true, force: true });
  }
  figures.ms = Date.now() - started;
  return figures;
}

function describe(finding: Finding): string {
  return `  ${finding.status} ${finding.who} ${finding.method} ${finding.url} «${finding.case}»${finding.tables ? ` tablas: ${finding.tables.join(', ') || '(solo cambios)'}` : ''}`;
}

async function main() {
  const figures = await runSweep({ small: process.argv.includes('--small'), log: (line) => console.error(line) });
  console.log(`Rutas barridas: ${figures.routes.length} (${figures.routes.map((route) => `${route.method} ${route.url}`).join(', ')})`);
  if (!figures.signedIn) console.log('AVISO: sin usuario registrado, solo se barrió sin sesión');
  console.log(`Credenciales además de la sesión (multipart): ${figures.credentials.join(', ') || 'ninguna'}`);
  console.log(`Peticiones: ${figures.requests} en ${(figures.ms / 1000).toFixed(1)} s · por estado: ${JSON.stringify(figures.byStatus)}`);
  console.log(`5xx: ${figures.serverErrors.length}`);
  for (const finding of figures.serverErrors) console.log(describe(finding));
  console.log(`Escrituras con la entrada rechazada (400/413/415/422): ${figures.writesOnRejected.length}`);
  for (const finding of figures.writesOnRejected) console.log(describe(finding));
  console.log(`Escrituras en otras respuestas 4xx (informativo): ${figures.writesOnOther4xx.length}`);
  for (const finding of figures.writesOnOther4xx.slice(0, 20)) console.log(describe(finding));
  console.log(`Libro de créditos frente a slans usados: ${figures.ledger.firms} empresas, ${figures.ledger.mismatches.length} descuadres`);
  for (const mismatch of figures.ledger.mismatches) console.log(`  ${mismatch.groupId}: usados ${mismatch.usedSlans}, libro ${mismatch.ledger}`);
  if (figures.serverErrors.length > 0 || figures.writesOnRejected.length > 0 || figures.ledger.mismatches.length > 0 || !figures.signedIn) process.exitCode = 1;
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
