import { sql, type Kysely } from 'kysely';
import { USAGE_REPORT_PAGE_SIZE, type LedgerEntry, type UsageReport, type UsageReportQuery } from '#shared/api/billing.ts';
import { measureUnitNames } from '#shared/flows/definition.ts';
import { formatMadridDate } from '#shared/time/index.ts';
import type { Database } from '../../db/schema.ts';
import { HttpError } from '../../http/errors.ts';

/**
 * The credit ledger of a period: the firm's charges (credit_ledger, one per charged run) and credits
 * (credit_grants, the trial's and each paid period's slans), newest first in keyset pages. Only the
 * firm's own rows are ever read.
 */

export const CURSOR_INVALID_MESSAGE = 'El cursor de la página no es válido';
export const PERIOD_INVALID_MESSAGE = 'La fecha de inicio debe ser anterior a la de fin';

export interface LedgerPeriod {
  from: string;
  to: string;
}

/** Where a page starts: after the entry at (at, id) in newest-first order. */
interface Position {
  at: string;
  id: string;
}

function encodeCursor(position: Position): string {
  return Buffer.from(JSON.stringify([position.at, position.id])).toString('base64url');
}

function decodeCursor(cursor: string): Position {
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (Array.isArray(value) && value.length === 2 && typeof value[0] === 'string' && typeof value[1] === 'string' && !Number.isNaN(Date.parse(value[0]))) return { at: value[0], id: value[1] };
  } catch {
    // Falls through to the refusal below.
  }
  throw new HttpError(400, 'INVALID_CURSOR', CURSOR_INVALID_MESSAGE);
}

/** The period asked for, else the subscription's current one (its start, or the trial's, to its end). */
export async function ledgerPeriod(db: Kysely<Database>, groupId: string, query: Pick<UsageReportQuery, 'from' | 'to'>): Promise<LedgerPeriod> {
  const sub = await db.selectFrom('subscriptions').select(['current_period_start', 'current_period_end', 'created_at']).where('group_id', '=', groupId).executeTakeFirst();
  const from = query.from ? new Date(query.from).toISOString() : (sub?.current_period_start ?? sub?.created_at ?? new Date(0).toISOString());
  const to = query.to ? new Date(query.to).toISOString() : (sub?.current_period_end ?? new Date().toISOString());
  if (from >= to) throw new HttpError(400, 'INVALID_PERIOD', PERIOD_INVALID_MESSAGE);
  return { from, to };
}

/** 'Plan Básico: periodo del 01/11/2026 al 30/11/2026'; the last day is the one before the next period starts. */
export function grantDescription(grant: { reason: string; plan_name: string; period_start: string; period_end: string }): string {
  const lastDay = new Date(Math.max(Date.parse(grant.period_start), Date.parse(grant.period_end) - 1));
  const span = `periodo del ${formatMadridDate(new Date(grant.period_start))} al ${formatMadridDate(lastDay)}`;
  return grant.reason === 'trial' ? `Prueba: ${span}` : `Plan ${grant.plan_name}: ${span}`;
}

/**
 * The cursor as a page's upper bound, where it is inside the period (as one this server wrote always
 * is); else null, and the period's end bounds the page. One bound only: SQLite reads a range from one,
 * and with the period's end beside the cursor it read every entry already sent before each page (the
 * export of 1,000,000 lines took 157 s). A cursor written by hand past the period ends nowhere else.
 */
function cursorInPeriod(period: LedgerPeriod, after: Position | null): Position | null {
  return after !== null && after.at < period.to ? after : null;
}

async function charges(db: Kysely<Database>, groupId: string, period: LedgerPeriod, after: Position | null, limit: number): Promise<LedgerEntry[]> {
  let query = db
    .selectFrom('credit_ledger as cl')
    .innerJoin('flow_runs as fr', 'fr.id', 'cl.run_id')
    .leftJoin('flows as f', 'f.id', 'fr.flow_id')
    .leftJoin('users as u', 'u.id', 'fr.user_id')
    // A report that failed never reached Stripe: no extra usage is billed for it.
    .leftJoin('billing_usage_reports as bur', (join) => join.onRef('bur.run_id', '=', 'cl.run_id').on('bur.state', '!=', 'failed'))
    .select(['cl.id', 'cl.created_at', 'cl.run_id', 'cl.amount', 'cl.usage_units', 'fr.flow_name', 'f.name as current_name', 'f.definition', 'u.name as user_name', 'u.email as user_email', 'bur.slans as extra', 'bur.extra_usage_price as extra_usage_price'])
    .where('cl.group_id', '=', groupId)
    .where('cl.created_at', '>=', period.from);
  const cursor = cursorInPeriod(period, after);
  query = cursor
    ? query.where('cl.created_at', '<=', cursor.at).where((eb) => eb.or([eb('cl.created_at', '<', cursor.at), eb('cl.id', '<', cursor.id)]))
    : query.where('cl.created_at', '<', period.to);
  const rows = await query.orderBy('cl.created_at', 'desc').orderBy('cl.id', 'desc').limit(limit).execute();
  // A page names few flows: each definition is read once.
  const measures = new Map<string, string>();
  return rows.map((row) => {
    const units = Number(row.usage_units);
    let unitName: string | null = null;
    if (row.definition !== null) {
      const measure = measures.get(row.definition) ?? unitOf(row.definition);
      measures.set(row.definition, measure);
      const names = measureUnitNames(measure);
      unitName = units === 1 ? names.singular : names.plural;
    }
    return {
      id: row.id,
      kind: 'charge',
      at: row.created_at,
      runId: row.run_id,
      robot: row.current_name ?? row.flow_name,
      user: row.user_name !== null && row.user_email !== null ? { name: row.user_name, email: row.user_email } : null,
      units,
      unitName,
      slans: -Number(row.amount),
      extraSlans: Number(row.extra ?? 0),
      extraPrice: lineEuros(row.extra, row.extra_usage_price),
      description: null,
    };
  });
}

/** A charge's extra slans at the € per slan its usage report was sent at, to the cent; null when it bills none. */
function lineEuros(extra: number | string | null, pricePerSlan: number | string | null): number | null {
  const slans = Number(extra ?? 0);
  if (slans <= 0 || pricePerSlan === null) return null;
  return Math.round(slans * Number(pricePerSlan) * 100) / 100;
}

/** A flow definition's usageMeasureUnit ('fila|filas' when it names none). */
function unitOf(definition: string): string {
  try {
    const parsed = JSON.parse(definition) as { usageMeasureUnit?: unknown };
    return typeof parsed.usageMeasureUnit === 'string' ? parsed.usageMeasureUnit : 'fila|filas';
  } catch {
    return 'fila|filas';
  }
}

async function credits(db: Kysely<Database>, groupId: string, period: LedgerPeriod, after: Position | null, limit: number): Promise<LedgerEntry[]> {
  let query = db
    .selectFrom('credit_grants')
    .select(['id', 'reason', 'plan_name', 'slans', 'period_start', 'period_end'])
    .where('group_id', '=', groupId)
    .where('period_start', '>=', period.from);
  const cursor = cursorInPeriod(period, after);
  query = cursor
    ? query.where('period_start', '<=', cursor.at).where((eb) => eb.or([eb('period_start', '<', cursor.at), eb('id', '<', cursor.id)]))
    : query.where('period_start', '<', period.to);
  const rows = await query.orderBy('period_start', 'desc').orderBy('id', 'desc').limit(limit).execute();
  return rows.map((row) => ({
    id: row.id,
    kind: 'credit',
    at: row.period_start,
    runId: null,
    robot: null,
    user: null,
    units: null,
    unitName: null,
    slans: Number(row.slans),
    extraSlans: 0,
    // A grant keeps no price (the plan's fee is on its invoice, not on this line): no € is made up for it.
    extraPrice: null,
    description: grantDescription(row),
  }));
}

/** Newest first; ties in time by id, so a page boundary never skips or repeats an entry. */
const newestFirst = (a: LedgerEntry, b: LedgerEntry): number => (a.at === b.at ? (a.id < b.id ? 1 : a.id > b.id ? -1 : 0) : a.at < b.at ? 1 : -1);

/** One page of entries after `cursor`, and the cursor of the next page (null on the last). */
export async function ledgerPage(db: Kysely<Database>, groupId: string, period: LedgerPeriod, cursor: string | undefined, size = USAGE_REPORT_PAGE_SIZE): Promise<{ items: LedgerEntry[]; nextCursor: string | null }> {
  const after = cursor === undefined ? null : decodeCursor(cursor);
  // Each side gives at most one more than a page; the merge keeps the newest `size`.
  const merged = [...(await charges(db, groupId, period, after, size + 1)), ...(await credits(db, groupId, period, after, size + 1))].sort(newestFirst);
  const items = merged.slice(0, size);
  const last = items.at(-1);
  return { items, nextCursor: merged.length > size && last ? encodeCursor({ at: last.at, id: last.id }) : null };
}

/** The period's totals, over every entry (not a page). */
export async function ledgerTotals(db: Kysely<Database>, groupId: string, period: LedgerPeriod): Promise<UsageReport['totals']> {
  const charged = await db
    .selectFrom('credit_ledger as cl')
    .leftJoin('billing_usage_reports as bur', (join) => join.onRef('bur.run_id', '=', 'cl.run_id').on('bur.state', '!=', 'failed'))
    // Each run's extra usage at the price of the plan it ran on, as Stripe's invoice prices it.
    .select((eb) => [eb.fn.sum<number>('cl.amount').as('charged'), eb.fn.countAll<number>().as('runs'), eb.fn.sum<number>('bur.slans').as('extra'), sql<number>`sum(bur.slans * bur.extra_usage_price)`.as('extra_price')])
    .where('cl.group_id', '=', groupId)
    .where('cl.created_at', '>=', period.from)
    .where('cl.created_at', '<', period.to)
    .executeTakeFirst();
  const credited = await db
    .selectFrom('credit_grants')
    .select((eb) => eb.fn.sum<number>('slans').as('slans'))
    .where('group_id', '=', groupId)
    .where('period_start', '>=', period.from)
    .where('period_start', '<', period.to)
    .executeTakeFirst();
  const extraSlans = Number(charged?.extra ?? 0);
  return {
    charged: Number(charged?.charged ?? 0),
    credited: Number(credited?.slans ?? 0),
    runs: Number(charged?.runs ?? 0),
    extraSlans,
    extraPrice: Math.round(Number(charged?.extra_price ?? 0) * 100) / 100,
  };
}

/** GET /api/usage-report: the page the query asks for, with the period's totals. */
export async function usageReport(db: Kysely<Database>, groupId: string, query: UsageReportQuery): Promise<UsageReport> {
  const period = await ledgerPeriod(db, groupId, query);
  const page = await ledgerPage(db, groupId, period, query.cursor);
  return { period, totals: await ledgerTotals(db, groupId, period), ...page };
}
