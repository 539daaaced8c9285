/**
 * The traffic of `npm run scaleout`: one autocannon instance per kind of request, each at its own
 * rate, all through the proxy, each request signed in as one of the seeded firms (a heavy few launch
 * half of the robots). Autocannon keeps each instance's latency histogram; the launches' answers are
 * kept to check afterwards that every accepted run ran.
 */
import autocannon from 'autocannon';
import { randomUUID } from 'node:crypto';

export interface SeededFirm {
  email: string;
  cookie: string;
  /** A small payroll workbook the firm uploaded, launched by its robots and schedules. */
  uploadId: string;
  /** The made-up office address the proxy forwards for it (per-IP limits). */
  address: string;
}

export interface LoadPlan {
  baseUrl: string;
  firms: readonly SeededFirm[];
  /** Firms that launch half of the robots between them. */
  heavyFirms: number;
  durationSeconds: number;
  launches: number;
  workbook: Buffer;
  fie: Buffer;
}

export interface KindFigures {
  kind: string;
  requests: number;
  /** Answers outside 2xx, by status, and connection errors or timeouts. */
  refused: Record<string, number>;
  errors: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

export interface LoadOutcome {
  kinds: KindFigures[];
  /** Runs the server accepted (202): each must end. */
  acceptedRuns: string[];
}

const FLOW = 'validar-identificadores';

function multipart(field: string, name: string, data: Buffer): { body: Buffer; contentType: string } {
  const boundary = `----scaleout${randomUUID()}`;
  const body = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${name}"\r\nContent-Type: application/octet-stream\r\n\r\n`),
    data,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { body, contentType: `multipart/form-data; boundary=${boundary}` };
}

interface Kind {
  kind: string;
  /** Requests per second over all connections (autocannon's least is 1). */
  rate: number;
  method: 'GET' | 'POST';
  path: string;
  /** Builds the body (and its content type) per request, or a fixed one. */
  body?: (firm: SeededFirm) => { body: string | Buffer; contentType: string };
  pickFirm?: () => SeededFirm;
  onAnswer?: (status: number, body: string) => void;
}

export async function driveLoad(plan: LoadPlan, log: (line: string) => void = () => undefined): Promise<LoadOutcome> {
  const { baseUrl, firms, durationSeconds } = plan;
  const heavy = firms.slice(0, plan.heavyFirms);
  const light = firms.slice(plan.heavyFirms);
  const anyFirm = () => firms[Math.floor(Math.random() * firms.length)] as SeededFirm;
  // Half of the launches come from the heavy firms, the rest from any other firm.
  const launchingFirm = () => (Math.random() < 0.5 && heavy.length > 0 ? heavy[Math.floor(Math.random() * heavy.length)] : light[Math.floor(Math.random() * light.length)]) as SeededFirm;
  const acceptedRuns: string[] = [];
  const upload = multipart('file', 'nomina.xlsx', plan.workbook);
  const fie = multipart('files', 'FIE_scaleout.txt', plan.fie);

  const kinds: Kind[] = [
    { kind: 'history page', rate: 12, method: 'GET', path: '/api/flowlog?start=0&limit=12' },
    { kind: 'DEHÚ list', rate: 4, method: 'GET', path: '/api/notifications?page=1' },
    { kind: '/api/health', rate: 4, method: 'GET', path: '/api/health' },
    {
      kind: 'sign-in',
      rate: 1,
      method: 'POST',
      path: '/api/auth/login',
      body: (firm) => ({ body: JSON.stringify({ email: firm.email, password: SCALEOUT_PASSWORD }), contentType: 'application/json' }),
    },
    { kind: 'upload', rate: 1, method: 'POST', path: '/api/storage/uploads', body: () => ({ body: upload.body, contentType: upload.contentType }) },
    { kind: 'FIE import', rate: 1, method: 'POST', path: '/api/fie/upload', body: () => ({ body: fie.body, contentType: fie.contentType }) },
    {
      kind: 'robot launch',
      rate: plan.launches / durationSeconds,
      method: 'POST',
      path: `/api/browserflow/execution/${FLOW}`,
      pickFirm: launchingFirm,
      body: (firm) => ({ body: JSON.stringify({ inputs: { workbook: [{ uploadId: firm.uploadId, name: 'nomina.xlsx' }] }, idempotencyKey: randomUUID() }), contentType: 'application/json' }),
      onAnswer: (status, body) => {
        if (status === 202) acceptedRuns.push((JSON.parse(body) as { runId: string }).runId);
      },
    },
  ];

  const results = await Promise.all(
    kinds.map(async (kind) => {
      const refused: Record<string, number> = {};
      const pick = kind.pickFirm ?? anyFirm;
      const result = await autocannon({
        url: baseUrl,
        // A connection per request in flight at the rate, at least two: slow answers must not hold the rate back.
        connections: Math.max(2, Math.ceil(kind.rate * 2)),
        overallRate: kind.rate,
        // Every kind runs for the whole duration: autocannon's `amount` with `overallRate` never ends
        // (its last connections wait for answers the rate no longer asks for), so the launches' count
        // is their rate times the duration.
        duration: durationSeconds,
        timeout: 60,
        requests: [
          {
            method: kind.method,
            path: kind.path,
            setupRequest: (request) => {
              const firm = pick();
              const made = kind.body?.(firm);
              return {
                ...request,
                headers: {
                  ...(kind.kind === 'sign-in' ? {} : { cookie: firm.cookie }),
                  origin: baseUrl,
                  'x-scaleout-client': firm.address,
                  ...(made && { 'content-type': made.contentType }),
                },
                ...(made && { body: made.body }),
              };
            },
            onResponse: (status, body) => {
              if (status < 200 || status >= 300) refused[status] = (refused[status] ?? 0) + 1;
              kind.onAnswer?.(status, body);
            },
          },
        ],
      });
      log(`${kind.kind}: done (${result.requests.total} requests)`);
      return {
        kind: kind.kind,
        requests: result.requests.total,
        refused,
        errors: result.errors + result.timeouts,
        p50Ms: result.latency.p50,
        p99Ms: result.latency.p99,
        maxMs: result.latency.max,
      } satisfies KindFigures;
    }),
  );
  return { kinds: results, acceptedRuns };
}

export const SCALEOUT_PASSWORD = 'Escala-Nube-2026';
