// The floor of a run-history page (issue 42, point 4): a bare Fastify answering GET /api/flowlog with the
// four statements the server runs for it (the session, the group's count, the page, the page's outputs),
// prepared once with better-sqlite3 on the server's own database file, and the answer written with
// JSON.stringify. No plugin, hook, schema or query builder: what the server adds on top of this is its cost.
// It answers the default page only (no query string), with the same bytes as the server; the bench checks it.
// Started like the compiled server: node, one file, PORT, HOST and DATA_DIR from the environment.
import SqliteDatabase from 'better-sqlite3';
import Fastify from 'fastify';
import { createHash } from 'node:crypto';
import { join } from 'node:path';

const db = new SqliteDatabase(join(process.env.DATA_DIR ?? '.', 'autoasesor.sqlite'));
db.pragma('journal_mode = WAL');
db.pragma('busy_timeout = 5000');

// The SQL text Kysely compiles for SQLite (server/modules/auth/sessions.ts, flowlogs/counts.ts, flowlogs/service.ts).
const sessionStatement = db.prepare(
  'select "sessions"."id", "sessions"."user_id", "sessions"."family_id", "users"."group_id" from "sessions" inner join "users" on "users"."id" = "sessions"."user_id" ' +
    'where "sessions"."access_hash" = ? and "sessions"."revoked_at" is null and "users"."disabled_at" is null and "sessions"."access_expires_at" > ?',
);
const countStatement = db.prepare('select coalesce(sum(runs), 0) as "runs" from "flow_run_counts" where "group_id" = ?');
const pageStatement = db.prepare(
  'select "r"."id", "r"."flow_id", "r"."flow_name", "r"."result", "r"."state", "r"."stopped_by_user", "r"."created_at", "r"."finished_at", "r"."scheduled", ' +
    '"r"."schedule_id", "r"."machine_name", "r"."successful_iterations", "r"."total_iterations", "r"."usage_units", "r"."usage_ratio", "r"."cost", "r"."machine_id", ' +
    '"r"."remote", "r"."send_output_to_server", "r"."output_folder", "r"."output_file_names", "r"."execution_token", "u"."email", "u"."name" as "user_name", ' +
    '"f"."name" as "catalogue_name" from "flow_runs" as "r" inner join "users" as "u" on "u"."id" = "r"."user_id" ' +
    'left join "flows" as "f" on "f"."id" = "r"."flow_id" and "f"."active" = ? where "r"."group_id" = ? order by "r"."created_at" desc, "r"."id" desc limit ? offset ?',
);
const PAGE = 12;
const outputsStatement = db.prepare(
  `select "run_id", "name" from "stored_files" where "run_id" in (${Array.from({ length: PAGE }, () => '?').join(', ')}) and "kind" = ? order by "run_id", "created_at", "name"`,
);

/** The aa_session cookie's value, or undefined. */
function sessionCookie(header) {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const at = part.indexOf('=');
    if (part.slice(0, at).trim() === 'aa_session') return decodeURIComponent(part.slice(at + 1).trim());
  }
  return undefined;
}

/** A row as the history's contract names it (shared/api/flows.ts flowLogSchema), keys in its order. */
function flowLog(row, stored) {
  const usageUnits = Number(row.usage_units);
  return {
    _id: row.id,
    browserFlow: { _id: row.flow_id, name: row.catalogue_name ?? null },
    result: row.result,
    state: row.state,
    stoppedByUser: row.stopped_by_user === 1,
    createAt: row.created_at,
    finishedAt: row.finished_at,
    scheduled: row.scheduled === 1,
    browserFlowSchedule: row.schedule_id === null ? null : { _id: row.schedule_id, machine: row.machine_name === null ? null : { name: row.machine_name } },
    successfulIterations: row.successful_iterations,
    totalIterations: row.total_iterations,
    usageHistory: usageUnits > 0 ? [{ usageUnits, usageRatio: row.usage_ratio }] : [],
    outputFileNames: row.send_output_to_server === 0 ? JSON.parse(row.output_file_names ?? '[]') : stored,
    outputFolder: row.output_folder,
    user: { email: row.email, name: row.user_name },
    machine: row.machine_name === null ? null : { _id: row.machine_id, name: row.machine_name },
    remote: row.remote === 1,
    ...(row.state !== 'finished' && { executionToken: row.execution_token }),
  };
}

const app = Fastify({ logger: false });
app.get('/api/flowlog', async (request, reply) => {
  const token = sessionCookie(request.headers.cookie);
  const session = token ? sessionStatement.get(createHash('sha256').update(token).digest('hex'), new Date().toISOString()) : undefined;
  if (!session) return reply.code(401).send({ code: 'UNAUTHENTICATED' });
  const { runs } = countStatement.get(session.group_id);
  const rows = pageStatement.all(1, session.group_id, PAGE, 0);
  const ids = rows.map((row) => row.id);
  const byRun = new Map();
  if (ids.length === PAGE) {
    for (const file of outputsStatement.all(...ids, 'output')) {
      const names = byRun.get(file.run_id);
      if (names) names.push(file.name);
      else byRun.set(file.run_id, [file.name]);
    }
  }
  reply.header('content-type', 'application/json; charset=utf-8');
  return JSON.stringify({ total: runs, items: rows.map((row) => flowLog(row, byRun.get(row.id) ?? [])) });
});
await app.listen({ port: Number(process.env.PORT), host: process.env.HOST ?? '127.0.0.1' });
// A clean exit on the bench's stop, so `node --cpu-prof` writes its profile.
process.once('SIGTERM', () => void app.close().then(() => process.exit(0)));
