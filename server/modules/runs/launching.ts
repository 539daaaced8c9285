import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { HttpError } from '../../http/errors.ts';
import { machineTarget } from '../devices/machine-runs.ts';
import { recordRunCreated } from '../flowlogs/counts.ts';
import { MACRO_DEFINITION_INPUT, MACRO_VERSION_INPUT } from '#shared/macros/to-flow.ts';
import { isMacroFlow, refuseServerInputs, type FlowDirectory } from '../flows/directory.ts';
import { flowNotFound } from '../flows/errors.ts';
import { machineCertificate } from '../machines/certificates.ts';
import { findGroupUpload } from '../storage/service.ts';
import type { UploadInspections } from '../storage/inspections.ts';
import type { RunChanges } from './changes.ts';
import { costOf, estimateUnits } from './cost.ts';
import { checkCertificates, checkInputs, checkWorkbooks } from './inputs.ts';
import type { LaunchInput } from './launcher.ts';
import type { RunQueue } from './queue.ts';
import { creditRefusal, inputsRefusalMessage, recordRefusedLaunch, type NewRunRow } from './refusals.ts';
import { firmLoad, lockFirm, nextQueueRank, tooManyQueued } from './reservations.ts';
import { findRunById, findRunByKey, type RunRow } from './run-state.ts';
import { isUsableEmailConfig } from '../mail/account-queries.ts';
import { pendingMachineUpdate } from '../notifications/pending-updates.ts';

export interface LaunchDeps {
  db: Kysely<Database>;
  now: () => Date;
  /** The built-in flows and the firm's macros (flows/directory.ts). */
  flows: FlowDirectory;
  /** What uploads hold, inspected when they were uploaded (the estimate reads their rows and FIE entries). */
  inspections: UploadInspections;
  queue: RunQueue;
  /** Runs of one firm waiting before its launches get 429 (RunsOptions.queuedPerFirm). */
  queuedPerFirm: number;
  changes: RunChanges;
}

/**
 * Launching a run (spec §3 Execution request): the flow and the target machine, the inputs checked,
 * the cost estimated from them, then, in one transaction per firm, the queue's room and the credit
 * check against what the firm's unfinished runs hold, and the run inserted with its reservation. A
 * server run goes to the queue; a machine's run waits for that machine. Refusals a caller cannot see
 * (a schedule's launch) are kept in the history.
 *
 * Answers the run this launch started, or the one an earlier request with the same idempotency key started.
 */
export async function launchRun(deps: LaunchDeps, input: LaunchInput): Promise<RunRow> {
  const { db } = deps;
  // A macro the user may no longer see (deleted, unshared) is as gone as a retired robot.
  const flow = await deps.flows.flowFor(input.groupId, input.flowId, input.userId);
  if (!flow) throw flowNotFound();
  refuseServerInputs(input.inputs);
  const earlier = await findRunByKey(db, input.userId, input.idempotencyKey);
  if (earlier) return earlier;
  const { definition } = flow;
  // Desktop flows run on a machine the caller sees; server flows take none.
  const machine = await machineTarget(db, input, definition.runsOn, input.machineId);
  const remote = machine !== null && input.localLaunch !== true;
  // The history's 'scheduled' side holds scheduled runs and remote launches alike (flow_run_counts too).
  const scheduled = input.scheduleId !== undefined || remote;

  const now = deps.now();
  const row = (inputs: unknown): NewRunRow => ({
    group_id: input.groupId,
    user_id: input.userId,
    flow_id: definition.id,
    flow_name: definition.name,
    execution_token: randomUUID(),
    scheduled: scheduled ? 1 : 0,
    schedule_id: input.scheduleId ?? null,
    machine_id: machine?.id ?? null,
    machine_name: machine?.savedAs ?? null,
    remote: remote ? 1 : 0,
    send_output_to_server: machine === null || remote ? 1 : 0,
    usage_ratio: definition.usageRatio,
    inputs: JSON.stringify(inputs),
    accept_extra_usage: input.acceptExtraUsage === true ? 1 : 0,
    stopped_by_user: 0,
    successful_iterations: 0,
    total_iterations: 0,
    usage_units: 0,
    cost: 0,
    created_at: now.toISOString(),
  });

  const checked = await checkInputs(definition, input.inputs, (id) => findGroupUpload(db, input.groupId, id), (configId) => isUsableEmailConfig(db, input.groupId, configId)).then(async (inputs) => {
    await checkWorkbooks(definition, inputs, async (upload) => {
      const inspection = await deps.inspections.of(upload);
      return 'sheet' in inspection ? inspection.sheet : null;
    });
    // A certificate the machine synced as expired: refused now, not by the portal later.
    if (machine !== null) {
      await checkCertificates(definition, inputs, now, (fingerprint) => machineCertificate(db, machine.id, fingerprint));
    }
    return inputs;
  }).catch(async (error: unknown) => {
    // A schedule's inputs that are no longer valid: nobody is there to be answered, so the history says why.
    if (input.scheduleId !== undefined && error instanceof HttpError && error.statusCode === 400) {
      await recordRefusedLaunch(db, { ...row(input.inputs), id: randomUUID() }, { result: 'WrongInput', launchStatus: 400, message: inputsRefusalMessage(error) }, now);
    }
    throw error;
  });
  if (isMacroFlow(flow)) {
    // The player runs the version current at this launch (a scheduled run too), and the history says which.
    checked.stored[MACRO_DEFINITION_INPUT] = flow.macro;
    checked.stored[MACRO_VERSION_INPUT] = flow.version;
  }
  const estimatedCost = costOf(estimateUnits(definition, await deps.inspections.counts(Object.values(checked.uploads).flat())), definition.usageRatio);
  const base = row(checked.stored);

  // One decision per firm at a time: the queue's room, the balance net of what its unfinished runs
  // hold, then the run with its reservation and its place in the queue.
  const runId = randomUUID();
  let decision: { refusal: HttpError } | { rank: number | null } | { pending: string };
  try {
    decision = await db.transaction().execute(async (trx) => {
      await lockFirm(trx, input.groupId);
      // One DEHÚ update per machine at a time: a second 'Actualizar' while one waits answers that one (issue 43).
      // Remote launches only: a schedule's slot keeps its own run, and a desktop's local launch runs there and then.
      const pending = remote && machine !== null && input.scheduleId === undefined ? await pendingMachineUpdate(trx, input.groupId, definition.id, machine.id) : null;
      if (pending !== null) return { pending: pending.runId };
      const load = await firmLoad(trx, input.groupId);
      if (load.queued >= deps.queuedPerFirm) throw tooManyQueued(deps.queuedPerFirm);
      const refusal = await creditRefusal(trx, input, estimatedCost, now, load.reserved);
      if (refusal) return { refusal };
      const rank = machine === null ? await nextQueueRank(trx, input.groupId) : null;
      await trx
        .insertInto('flow_runs')
        .values({ ...base, id: runId, idempotency_key: input.idempotencyKey, state: 'queued', reserved_cost: estimatedCost, queue_rank: rank })
        .execute();
      await recordRunCreated(trx, input.groupId, scheduled);
      return { rank };
    });
  } catch (error) {
    // Two requests with one key at the same instant: the unique index lets one in; the other answers with it.
    const winner = await findRunByKey(db, input.userId, input.idempotencyKey);
    if (winner) return winner;
    throw error;
  }
  if ('refusal' in decision) {
    // In the history as NotEnoughSlans; without a key, the same request can start after a top-up (or with 'Continuar').
    await recordRefusedLaunch(db, { ...base, id: randomUUID() }, { result: 'NotEnoughSlans', launchStatus: 402, message: decision.refusal.message }, now);
    throw decision.refusal;
  }
  if ('pending' in decision) return findRunById(db, decision.pending);
  // A machine's run waits for that machine (its long poll is woken here); the rest go to the server's queue.
  if (machine) deps.changes.machineRunQueued(machine.id);
  else await deps.queue.enqueue({ runId, groupId: input.groupId, rank: decision.rank ?? 0 });
  return findRunById(db, runId);
}

