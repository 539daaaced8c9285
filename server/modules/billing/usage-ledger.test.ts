/** API suites on a server from startTestServer (through startBillingWorld), so they run on PostgreSQL too. */
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import * as XLSX from 'xlsx';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { LedgerEntry, UsageReport } from '#shared/api/billing.ts';
import type { SubscriptionUsage } from '#shared/domain/subscription.ts';
import { registerUser, type CookieJar } from '../../test/harness.ts';
import { TEST_FLOW_ID } from '../flows/test-flows/index.ts';
import { finishedState, launch, upload } from '../runs/test-support.ts';
import { formatMadridDate, formatMadridTime } from '#shared/time/index.ts';
import { CURSOR_INVALID_MESSAGE } from './ledger.ts';
import { startBillingWorld, subscribe, subscriptionRow, type BillingWorld } from './sync-test-support.ts';

let world: BillingWorld;
beforeEach(async () => {
  world = await startBillingWorld({ runs: true });
});
afterEach(async () => world.close());

/** A run of the test robot over a list of two NIFs: 2 rows × 2 slans = 4 slans. */
async function runTwoRows(jar: CookieJar, extra: Record<string, unknown> = {}) {
  const [book] = await upload(jar, [{ name: 'lista.csv', data: 'NIF;Nombre\n12345678Z;Ana\nX1234567L;Luis\n' }]);
  return launch(jar, TEST_FLOW_ID, { mode: 'ok', workbook: [{ uploadId: book?.id, name: 'lista.csv' }] }, extra);
}

/** The export's rows, as a spreadsheet reads them (cells with their types and formats). */
async function exportedSheet(jar: CookieJar): Promise<{ rows: unknown[][]; sheet: XLSX.WorkSheet }> {
  const exported = await jar.get('/api/usage-report/export');
  expect(exported.statusCode).toBe(200);
  const book = XLSX.read(exported.rawPayload, { type: 'buffer', cellNF: true });
  const sheet = book.Sheets[book.SheetNames[0] ?? ''] as XLSX.WorkSheet;
  return { rows: XLSX.utils.sheet_to_json<unknown[]>(sheet, { header: 1, defval: null }), sheet };
}

async function allEntries(jar: CookieJar, query = ''): Promise<LedgerEntry[]> {
  const entries: LedgerEntry[] = [];
  let cursor: string | null = null;
  do {
    const suffix: string = cursor === null ? '' : `${query ? '&' : '?'}cursor=${encodeURIComponent(cursor)}`;
    const response = await jar.get(`/api/usage-report${query}${suffix}`);
    expect(response.statusCode, response.body).toBe(200);
    const page = response.json() as UsageReport;
    expect(page.items.length).toBeLessThanOrEqual(50);
    entries.push(...page.items);
    cursor = page.nextCursor;
  } while (cursor !== null);
  return entries;
}

describe('usage past the limit', () => {
  it('keeps fractional used slans, on PostgreSQL as on SQLite (a cost is units × ratio; the integer column of 0001 rounded it)', async () => {
    const { groupId } = await subscribe(world, 'fraccion@asesoria.es');
    // The charge's own expression (runs/closing.ts), twice.
    for (const cost of [0.4, 0.35]) {
      await world.db.updateTable('subscriptions').set((eb) => ({ used_slans: eb('used_slans', '+', sql<number>`cast(${cost} as double precision)`) })).where('group_id', '=', groupId).execute();
    }
    expect(Number((await subscriptionRow(world, groupId)).used_slans)).toBeCloseTo(0.75, 10);
  });

  it('is reported to Stripe\'s meter once per run, and the ledger adds up to the period\'s usage', async () => {
    // Básico with 6 slans a period: the second 4-slan run goes 2 past the limit.
    await world.db.updateTable('plans').set({ usage_limit: 6 }).where('ref', '=', 'basic').execute();
    const { jar, groupId, customerId } = await subscribe(world, 'metro@asesoria.es', { trialUsed: 300 });

    const first = await runTwoRows(jar);
    expect(first.statusCode, first.body).toBe(202);
    await finishedState(jar, first.json().executionToken);
    expect(world.server.countRows('billing_usage_reports')).toBe(0);
    // One run: the export's total says it in the singular.
    expect((await exportedSheet(jar)).rows.at(-1)?.[3]).toBe('1 ejecución');
    expect((await runTwoRows(jar)).statusCode).toBe(402);
    const second = await runTwoRows(jar, { acceptExtraUsage: true });
    expect(second.statusCode, second.body).toBe(202);
    await finishedState(jar, second.json().executionToken);

    const report = await world.db.selectFrom('billing_usage_reports').selectAll().executeTakeFirstOrThrow();
    expect(report).toMatchObject({ group_id: groupId, slans: 2, milli_slans: 2000, state: 'pending' });

    // Two reporters (two server processes) at once, then more passes: one meter event for the run.
    const [a, b] = [world.reporter(), world.reporter()];
    await Promise.all([a.run(), b.run()]);
    await a.run();
    await b.run();
    const sent = world.standin.meterEvents().filter((event) => event.identifier === `run-${report.run_id}`);
    expect(sent).toHaveLength(1);
    expect(world.standin.meterEvents()).toHaveLength(1);
    expect(sent[0]).toMatchObject({ eventName: 'autoasesor_extra_slans', customer: customerId, value: 2000, duplicate: false });
    expect(await world.db.selectFrom('billing_usage_reports').select(['state', 'attempts', 'last_error']).executeTakeFirstOrThrow()).toEqual({ state: 'sent', attempts: 1, last_error: null });

    // The full view and the ledger tell the same story.
    const usage = (await jar.get('/api/subscriptions/usage')).json() as SubscriptionUsage;
    expect(usage).toMatchObject({ usedSlans: 8, excededSlans: 2, extraPrice: 2 * 0.03 });
    const ledger = (await jar.get('/api/usage-report')).json() as UsageReport;
    const row = await subscriptionRow(world, groupId);
    expect(ledger.period).toEqual({ from: row.current_period_start, to: row.current_period_end });
    expect(ledger.totals).toEqual({ charged: 8, credited: 6, runs: 2, extraSlans: 2, extraPrice: 2 * 0.03 });
    expect(ledger.totals.charged).toBe(row.used_slans);
    expect(ledger.items.map((entry) => [entry.kind, entry.slans, entry.extraSlans])).toEqual([['charge', -4, 2], ['charge', -4, 0], ['credit', 6, 0]]);
    expect(ledger.items[0]).toMatchObject({ runId: report.run_id, robot: 'Robot de pruebas', user: { name: 'Ana Pérez', email: 'metro@asesoria.es' }, units: 2, unitName: 'filas', description: null });
    expect(ledger.items[2]?.description).toMatch(/^Plan Básico: periodo del \d\d\/\d\d\/\d{4} al \d\d\/\d\d\/\d{4}$/);
    // The line past the limit bills its 2 slans at the 0,03 € its report was sent at; the others bill no money.
    expect(ledger.items.map((entry) => entry.extraPrice)).toEqual([0.06, null, null]);

    // The export: the € column where a line bills money (empty where it bills none), the plural, and the total in euros.
    const { rows, sheet } = await exportedSheet(jar);
    expect(rows.slice(1, -1).map((cells) => [cells[2], cells[9], cells[10]])).toEqual([['Cargo', 2, 0.06], ['Cargo', 0, null], ['Abono', 0, null]]);
    expect(rows.at(-1)?.slice(0, 4)).toEqual(['Total', null, null, '2 ejecuciones']);
    expect(rows.at(-1)?.[10]).toBe(0.06);
    expect(sheet['K2']).toMatchObject({ t: 'n', v: 0.06, z: '#,##0.00\\ "€"' });
  });

  it('is still refused on a trial (402): nothing to report', async () => {
    const jar = await registerUser(world.server.app, 'prueba@asesoria.es');
    await world.db.updateTable('subscriptions').set({ used_slans: 499 }).where('group_id', '=', (await world.db.selectFrom('users').select('group_id').where('email', '=', 'prueba@asesoria.es').executeTakeFirstOrThrow()).group_id).execute();
    expect((await runTwoRows(jar, { acceptExtraUsage: true })).statusCode).toBe(402);
    await world.reporter().run();
    expect(world.server.countRows('billing_usage_reports')).toBe(0);
    expect(world.standin.meterEvents()).toHaveLength(0);
  });
});

describe('the credit ledger', () => {
  it('pages newest first with an opaque cursor, shows another firm nothing, and exports the same rows', async () => {
    const { jar, groupId } = await subscribe(world, 'libro@asesoria.es');
    const row = await subscriptionRow(world, groupId);
    const start = Date.parse(row.current_period_start ?? '');
    // 120 credits in the period, as many periods' grants would be, to page through.
    await world.db
      .insertInto('credit_grants')
      .values(Array.from({ length: 120 }, (_, index) => ({ id: randomUUID(), group_id: groupId, plan_name: 'Básico', slans: 1, reason: 'period' as const, period_start: new Date(start + (index + 1) * 60_000).toISOString(), period_end: row.current_period_end, created_at: row.current_period_end })))
      .execute();

    const entries = await allEntries(jar);
    expect(entries).toHaveLength(121);
    expect(new Set(entries.map((entry) => entry.id)).size).toBe(121);
    expect(entries.map((entry) => entry.at)).toEqual(entries.map((entry) => entry.at).sort().reverse());
    const first = (await jar.get('/api/usage-report')).json() as UsageReport;
    expect(first.totals.credited).toBe(2000 + 120);
    expect((await jar.get('/api/usage-report?cursor=no-vale')).json()).toMatchObject({ message: CURSOR_INVALID_MESSAGE });
    expect((await jar.get('/api/usage-report?from=2026-12-01T00:00:00Z&to=2026-11-01T00:00:00Z')).statusCode).toBe(400);

    // Another firm, over all time: none of the first firm's entries.
    const other = await registerUser(world.server.app, 'otra@asesoria.es');
    const theirs = await allEntries(other, '?from=2000-01-01T00:00:00Z&to=2100-01-01T00:00:00Z');
    expect(theirs.map((entry) => [entry.kind, entry.slans])).toEqual([['credit', 500]]);
    expect(theirs[0]?.description).toMatch(/^Prueba: periodo del \d\d\/\d\d\/\d{4} al \d\d\/\d\d\/\d{4}$/);
    // Its default period is the trial's, from its start.
    expect(((await other.get('/api/usage-report')).json() as UsageReport).items).toHaveLength(1);
    expect(theirs.some((entry) => entries.some((mine) => mine.id === entry.id))).toBe(false);

    // The export: the same entries, then a totals row.
    const exported = await jar.get('/api/usage-report/export');
    expect(exported.statusCode).toBe(200);
    expect(exported.headers['content-disposition']).toMatch(/^attachment; filename="consumo-\d{4}-\d\d-\d\d-\d{4}-\d\d-\d\d\.xlsx"$/);
    const book = XLSX.read(exported.rawPayload, { type: 'buffer', cellNF: true });
    const sheet = book.Sheets[book.SheetNames[0] ?? ''] as XLSX.WorkSheet;
    const rows = XLSX.utils.sheet_to_json<unknown[]>(sheet, { header: 1 });
    expect(rows[0]).toEqual(['Fecha', 'Hora', 'Tipo', 'Concepto', 'Usuario', 'Email', 'Unidades', 'Unidad', 'Slans', 'Por encima del plan', 'Importe (€)', 'Ejecución']);
    const body = rows.slice(1, -1);
    expect(body).toHaveLength(entries.length);
    expect(body.map((cells) => [cells[2], cells[3], cells[8]])).toEqual(entries.map((entry) => [entry.kind === 'charge' ? 'Cargo' : 'Abono', entry.kind === 'charge' ? entry.robot : entry.description, entry.slans]));
    // The date is a date cell (dd/mm/yyyy, the Madrid day of the entry), the time beside it as text.
    const newest = entries[0];
    const dated = XLSX.read(exported.rawPayload, { type: 'buffer', cellDates: true }).Sheets[book.SheetNames[0] ?? ''] as XLSX.WorkSheet;
    expect(sheet['A2']).toMatchObject({ t: 'n', z: 'dd/mm/yyyy', w: formatMadridDate(new Date(newest?.at ?? '')) });
    const day = (dated['A2'] as XLSX.CellObject).v as Date;
    expect(`${String(day.getDate()).padStart(2, '0')}/${String(day.getMonth() + 1).padStart(2, '0')}/${day.getFullYear()}`).toBe(formatMadridDate(new Date(newest?.at ?? '')));
    expect(sheet['B2']).toMatchObject({ t: 's', v: formatMadridTime(new Date(newest?.at ?? '')) });
    expect(rows.at(-1)?.[0]).toBe('Total');
    expect(rows.at(-1)?.[3]).toBe('0 ejecuciones');
    expect(rows.at(-1)?.[8]).toBe(2120);
  });
});
