import { sql, type Kysely, type Transaction } from 'kysely';
import { deriveSubscription } from '#shared/billing/index.ts';
import type { Database } from '../../db/schema.ts';
import { HttpError } from '../../http/errors.ts';
import { findSubscriptionRecord } from '../subscriptions/service.ts';
import { costOf } from './cost.ts';

/**
 * What one firm may hold of the robot platform at once, so that no firm can starve another: runs
 * waiting (a launch past it is refused with 429) and runs executing on the servers (past it, its
 * next run waits while other firms' runs go first).
 */
export interface FirmLimits {
  /** Runs of one firm queued or waiting for a machine (RUN_FIRM_QUEUE). */
  queuedPerFirm: number;
  /** Server runs of one firm executing at once, over every server process (RUN_FIRM_CONCURRENCY). */
  runningPerFirm: number;
}

export function tooManyQueued(limit: number): HttpError {
  return new HttpError(
    429,
    'TOO_MANY_QUEUED_RUNS',
    `Tu empresa ya tiene ${limit.toLocaleString('es-ES')} robots esperando turno. Espera a que terminen algunos antes de lanzar más.`,
  );
}

/**
 * Takes the firm's row lock for the rest of the transaction: launches of one firm are decided one
 * after another (PostgreSQL row lock; SQLite runs one write transaction at a time anyway), so two
 * launches at the same instant cannot both spend the same slans.
 */
export async function lockFirm(trx: Transaction<Database>, groupId: string): Promise<void> {
  await trx.updateTable('groups').set((eb) => ({ name: eb.ref('name') })).where('id', '=', groupId).execute();
}

/** The firm's unfinished runs: how many wait, and the slans they hold reserved. */
export async function firmLoad(db: Kysely<Database>, groupId: string): Promise<{ queued: number; reserved: number }> {
  const row = await db
    .selectFrom('flow_runs')
    .select((eb) => [
      eb.fn.coalesce(eb.fn.sum<number>('reserved_cost'), sql<number>`0`).as('reserved'),
      eb.fn.sum<number>(eb.case().when('state', '=', 'queued').then(1).else(0).end()).as('queued'),
    ])
    .where('group_id', '=', groupId)
    .where('state', 'in', ['queued', 'running'])
    .executeTakeFirst();
  return { queued: Number(row?.queued ?? 0), reserved: Number(row?.reserved ?? 0) };
}

/**
 * The rank of a firm's new run in the server's queue (start-time fair queueing): one past the firm's
 * last waiting run, or, when it has none waiting, the rank at the queue's head, so a firm that
 * arrives behind another's thousand runs is served next and then in turn with it. Runs are taken
 * lowest rank first, oldest first among equals.
 */
export async function nextQueueRank(trx: Transaction<Database>, groupId: string): Promise<number> {
  const waiting = (eb: Kysely<Database>) => eb.selectFrom('flow_runs').where('state', '=', 'queued').where('queue_rank', 'is not', null);
  const own = await waiting(trx)
    .select((eb) => eb.fn.max('queue_rank').as('rank'))
    .where('group_id', '=', groupId)
    .executeTakeFirst();
  if (own?.rank !== null && own?.rank !== undefined) return Number(own.rank) + 1;
  const head = await waiting(trx)
    .select((eb) => eb.fn.min('queue_rank').as('rank'))
    .executeTakeFirst();
  return head?.rank === null || head?.rank === undefined ? 0 : Number(head.rank);
}

/** Server runs of the firm executing now (on any server process). */
export async function firmRunning(db: Kysely<Database>, groupId: string): Promise<number> {
  const row = await db
    .selectFrom('flow_runs')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('group_id', '=', groupId)
    .where('state', '=', 'running')
    .where('machine_name', 'is', null)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** Whether the firm's plan bills usage past its balance (an active paid plan with an extra-usage price; never a trial). */
export async function allowsExtraUsage(db: Kysely<Database>, groupId: string, now: Date): Promise<boolean> {
  // deriveSubscription prices extra usage only for such a plan (the 402's canContinue reads the same).
  return (deriveSubscription(await findSubscriptionRecord(db, groupId), now).extraSlanPrice ?? null) !== null;
}

/**
 * The units a closing run is charged: what it used, within what the firm can pay unless its plan
 * bills extra usage — its own reservation, or more while the balance left after the other queued
 * and running runs' reservations covers it. So a robot (or a device's report) that claims more than
 * was announced can never overdraw a trial, nor eat what other runs hold.
 */
export async function chargeableUnits(db: Kysely<Database>, run: { groupId: string; usageRatio: number; reservedCost: number }, usedUnits: number, now: Date): Promise<number> {
  if (usedUnits <= 0 || costOf(usedUnits, run.usageRatio) <= run.reservedCost) return Math.max(0, usedUnits);
  if (await allowsExtraUsage(db, run.groupId, now)) return usedUnits;
  if (run.usageRatio <= 0) return 0;
  const balance = deriveSubscription(await findSubscriptionRecord(db, run.groupId), now).balance;
  // The firm's load still counts this run (it is being closed): its own reservation is set apart.
  const othersReserved = Math.max(0, (await firmLoad(db, run.groupId)).reserved - run.reservedCost);
  const payable = Math.max(run.reservedCost, balance - othersReserved);
  return Math.min(usedUnits, Math.floor((payable / run.usageRatio) * 1e6) / 1e6);
}
