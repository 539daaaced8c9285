/**
 * npm run autopilot:kill9 — the autopilot survives being killed while its robot runs (issue 8 checks).
 *
 * A real server (the compiled bundle `npm start` runs, fresh SQLite, runs lost after RUN_LEASE_MS = 2 s),
 * the stand-in portal and a real NSS store as in e2e/global-setup.ts, a user signed up through the API,
 * and a real agent process (node --import tsx main/agent.ts) linked with LinkDevice over its bridge
 * socket. Schedules of 'Descargar justificantes' fall due now on that machine, some one-off, some
 * repeating. KILLS times: the agent starts, and once one slot's run is running on the server (a run of
 * this start, not one a killed agent left behind) it is killed with SIGKILL: mostly at a random moment of
 * the run, and every AFTER_RUN_EVERY-th time just after the run ended, while the autopilot goes to move or
 * delete the schedule. Then a last clean start lets every task finish, and the script checks:
 *  - no slot has two runs that did not end as 299, and no two runs of a slot overlapped in time;
 *  - no run was charged twice, and no 299 run was charged;
 *  - every repeating schedule still exists, moved exactly past its run (nextRunDate from the slot it ran);
 *  - every one-off whose run succeeded is gone, and no other schedule is lost;
 *  - the agent's autopilot.sqlite passes PRAGMA integrity_check (opened read-only).
 * It prints the figures (kills, runs, 299 retries, seconds) and exits 1 naming what failed.
 *
 *   npm run autopilot:kill9             # KILLS=20 by default
 *   KILLS=5 npm run autopilot:kill9
 */
import Database from 'better-sqlite3';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WebSocket } from 'ws';
import { devicesPaths, type DeviceLink } from '#shared/api/devices.ts';
import { flowsPaths, type ScheduledFlow, type ScheduleRequest } from '#shared/api/flows.ts';
import type { AgentMessage, BridgeEnvelope } from '#shared/bridge/envelope.ts';
import { nextRunDate, type ScheduleInterval } from '#shared/schedule/index.ts';
import { E2E_CERTIFICATES } from '../e2e/certificates.ts';
import { agentBridgeOf, startCompiledServer, startProcess, stop, waitFor } from '../e2e/processes.ts';
import { createNssDatabase, nssToolsAvailable } from '../main/certificates/testing/nss-database.ts';
import { hashMachineId } from '../main/machine/machine-id.ts';
import { startStandinPortal } from '../standins/portal/portal.ts';
import { portalOptions } from '../standins/portal/test-certificates.ts';
import { buildServerCopy } from './build-server.ts';

const FLOW = 'descargar-justificantes';
const KILLS = Number(process.env.KILLS ?? 20);
const RUN_LEASE_MS = 2_000;
const AUTOPILOT_RETRY_MS = 500;
/** After its run is seen running, the agent is killed up to this much later (the run takes a few seconds)... */
const KILL_JITTER_MS = 1_500;
/** ...except every AFTER_RUN_EVERY-th kill, which waits for the run to end and lands as the slot is being closed. */
const AFTER_RUN_EVERY = 4;
const ELENA = E2E_CERTIFICATES[0]!;
/** The stand-in has six justificantes for ELENA in 2026: each run downloads them (a few seconds of work). */
const INPUTS = { certificado: ELENA.certificate.fingerprint, desde: '2026-01-01', hasta: '2026-12-31', nif: '' };
/** What falls due now on the machine: one-off and repeating, each its own slot. */
const PLAN: { repeat: false | { every: number; interval: ScheduleInterval } }[] = [
  { repeat: false },
  { repeat: { every: 1, interval: 'days' } },
  { repeat: false },
  { repeat: { every: 2, interval: 'hours' } },
  { repeat: false },
  { repeat: { every: 1, interval: 'months' } },
  { repeat: false },
  { repeat: { every: 3, interval: 'days' } },
];

interface RunRow {
  id: string;
  schedule_id: string | null;
  idempotency_key: string | null;
  state: string;
  result: string | null;
  launch_status: number | null;
  cost: number;
  created_at: string;
  finished_at: string | null;
}

interface ScheduleRow {
  id: string;
  scheduled_date: string;
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function readOnly<T>(file: string, work: (db: Database.Database) => T): T {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    return work(db);
  } finally {
    db.close();
  }
}

async function main(): Promise<number> {
  if (!Number.isInteger(KILLS) || KILLS < 1) throw new Error(`KILLS must be a whole number > 0, not ${process.env.KILLS}`);
  if (!nssToolsAvailable()) throw new Error('certutil/pk12util are missing (libnss3-tools): the agent needs a real NSS store for the robot.');
  const began = performance.now();
  const dataDir = await mkdtemp(join(tmpdir(), 'autoasesor-kill9-'));
  const serverBuild = await buildServerCopy();
  const server = await startCompiledServer(serverBuild.entry, { dataDir, env: { RUN_LEASE_MS: String(RUN_LEASE_MS) } });
  const { baseUrl } = server;
  const portal = await startStandinPortal(portalOptions());
  const agents: ReturnType<typeof startProcess>[] = [];
  try {
    const store = await createNssDatabase(dataDir);
    await store.importAllWithKeys(E2E_CERTIFICATES.map((entry) => entry.certificate));
    const agentData = join(dataDir, 'agent');
    const agentEnv = {
      AGENT_PORT: '0',
      AGENT_TOKEN: '',
      AGENT_ALLOWED_ORIGINS: baseUrl,
      AUTOASESOR_AGENT_DATA: agentData,
      AUTOASESOR_NSS_DB: store.database,
      AUTOASESOR_ROBOT_SETTINGS: JSON.stringify({ [FLOW]: { baseUrl: portal.url, ignoreHTTPSErrors: true } }),
      AUTOPILOT_RETRY_MS: String(AUTOPILOT_RETRY_MS),
    };
    const startAgent = () => {
      const agent = startProcess('node', ['--import', 'tsx', 'main/agent.ts'], agentEnv);
      agents.push(agent);
      return agent;
    };

    // The advisor, and this PC linked to their account: the token comes from the API, the agent keeps it (LinkDevice).
    const email = `kill9.${randomUUID().slice(0, 8)}@asesoria-pruebas.es`;
    const signUp = await fetch(`${baseUrl}/api/users`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'Marta Ruiz', email, password: 'Segura123!' }) });
    if (signUp.status !== 201) throw new Error(`Sign-up answered ${signUp.status}: ${await signUp.text()}`);
    const headers = { cookie: signUp.headers.getSetCookie().map((line) => line.split(';')[0]).join('; '), 'content-type': 'application/json' };
    const linked = await fetch(`${baseUrl}${devicesPaths.link}`, { method: 'POST', headers, body: JSON.stringify({ machineHashCode: hashMachineId(`kill9-${randomUUID()}`), machineName: 'PC Oficina robots' }) });
    if (!linked.ok) throw new Error(`Link answered ${linked.status}: ${await linked.text()}`);
    const { machine, deviceToken } = (await linked.json()) as DeviceLink;
    const linking = startAgent();
    await bridgeCommand(linking, 'LinkDevice', { serverUrl: baseUrl, deviceToken });
    await stop(linking.child);

    // The schedules, all due now.
    const schedules: ScheduledFlow[] = [];
    for (const { repeat } of PLAN) {
      const request: ScheduleRequest = { scheduledDate: new Date().toISOString(), flowInputs: INPUTS, machine: machine._id, ...(repeat ? { repeat: true, ...repeat } : {}) };
      const created = await fetch(`${baseUrl}${flowsPaths.scheduleCreate.replace(':flowId', FLOW)}`, { method: 'POST', headers, body: JSON.stringify(request) });
      if (created.status !== 201) throw new Error(`Scheduling answered ${created.status}: ${await created.text()}`);
      schedules.push((await created.json()) as ScheduledFlow);
    }

    const databaseFile = join(dataDir, 'autoasesor.sqlite');
    const runs = () => readOnly(databaseFile, (db) => db.prepare(`select id, schedule_id, idempotency_key, state, result, launch_status, cost, created_at, finished_at from flow_runs where flow_id = ? order by created_at`).all(FLOW) as RunRow[]);
    const runningIds = () => runs().filter((run) => run.state === 'running').map((run) => run.id);

    // KILLS times: start, wait for a run of this start, kill -9 at a random moment of it.
    const leftBehind = new Set<string>();
    const killMoments: number[] = [];
    let killedAfterRun = 0;
    for (let kill = 1; kill <= KILLS; kill += 1) {
      const agent = startAgent();
      const runId = await waitFor(`a slot's run of agent start ${kill}`, async () => runningIds().find((id) => !leftBehind.has(id)), 90_000, agent.output);
      const seenAt = performance.now();
      if (kill % AFTER_RUN_EVERY === 0) {
        // The run ends; the agent is killed as it goes to close the slot (move or delete the schedule).
        await waitFor(`run ${runId} to end`, async () => (runs().find((run) => run.id === runId)?.state === 'finished' ? true : undefined), 60_000, agent.output);
        killedAfterRun += 1;
      } else await sleep(Math.random() * KILL_JITTER_MS);
      const exited = new Promise((resolve) => agent.child.once('exit', resolve));
      agent.child.kill('SIGKILL');
      await exited;
      killMoments.push(performance.now() - seenAt);
      for (const id of runningIds()) leftBehind.add(id);
      process.stdout.write(`kill ${kill}/${KILLS}: run ${runId.slice(0, 8)} (${runs().length} runs so far)\n`);
    }

    // A last clean start lets every task finish: one-offs gone, repeating ones moved on.
    const finishing = performance.now();
    const last = startAgent();
    const serverSchedules = () => readOnly(databaseFile, (db) => db.prepare('select id, scheduled_date from flow_schedules').all() as ScheduleRow[]);
    const settled = () => {
      const now = serverSchedules();
      const current = new Map(now.map((row) => [row.id, row.scheduled_date]));
      const allDone = schedules.every((schedule) => {
        const date = current.get(schedule._id);
        return schedule.repeat ? date !== undefined && new Date(date).getTime() !== new Date(schedule.scheduledDate).getTime() : date === undefined;
      });
      return allDone && runs().every((run) => run.state === 'finished') ? true : undefined;
    };
    await waitFor('every task to finish after the last clean start', async () => settled(), 240_000, last.output);
    const finishSeconds = performance.now() - finishing;
    // Let the agent write down the last slot before it stops cleanly.
    await sleep(2_000);
    await stop(last.child);

    // The checks.
    const failures: string[] = [];
    const allRuns = runs();
    const charges = readOnly(databaseFile, (db) => db.prepare('select run_id, count(*) as n from credit_ledger group by run_id').all() as { run_id: string; n: number }[]);
    const chargesOf = new Map(charges.map((row) => [row.run_id, row.n]));
    const slots = new Map<string, RunRow[]>();
    for (const run of allRuns) {
      if (!run.schedule_id || !run.idempotency_key) {
        failures.push(`run ${run.id} was not launched for a slot (no schedule or key)`);
        continue;
      }
      // `${scheduleId}:${date}` plus `:n` for the n-th attempt after a 299; the date ends in Z.
      const slot = run.idempotency_key.replace(/:\d+$/, '');
      slots.set(slot, [...(slots.get(slot) ?? []), run]);
      if ((chargesOf.get(run.id) ?? 0) > 1) failures.push(`run ${run.id} was charged ${chargesOf.get(run.id)} times`);
      if (run.launch_status === 299 && (run.cost !== 0 || chargesOf.has(run.id))) failures.push(`run ${run.id} ended 299 but was charged`);
    }
    for (const [slot, attempts] of slots) {
      const kept = attempts.filter((run) => run.launch_status !== 299);
      if (kept.length !== 1) failures.push(`slot ${slot} has ${kept.length} runs that did not end as 299 (expected exactly 1)`);
      const ordered = [...attempts].sort((a, b) => a.created_at.localeCompare(b.created_at));
      for (let i = 1; i < ordered.length; i += 1) {
        const before = ordered[i - 1]!;
        if (!before.finished_at || before.finished_at > ordered[i]!.created_at) failures.push(`slot ${slot}: run ${ordered[i]!.id} began before run ${before.id} had ended`);
      }
    }
    const remaining = new Map(serverSchedules().map((row) => [row.id, row.scheduled_date]));
    for (const schedule of schedules) {
      const slot = `${schedule._id}:${new Date(schedule.scheduledDate).toISOString()}`;
      const ran = (slots.get(slot) ?? []).find((run) => run.launch_status !== 299);
      const succeeded = ran?.result === 'Success';
      if (!ran) failures.push(`schedule ${schedule._id} never ran its slot`);
      else if (!succeeded) failures.push(`schedule ${schedule._id}'s run ended ${ran.result} (${ran.launch_status})`);
      const now = remaining.get(schedule._id);
      if (schedule.repeat) {
        if (now === undefined) failures.push(`repeating schedule ${schedule._id} was lost`);
        else if (ran?.finished_at) {
          const expected = nextRunDate(new Date(schedule.scheduledDate), schedule.every, schedule.interval, new Date(ran.finished_at)).toISOString();
          if (new Date(now).toISOString() !== expected) failures.push(`repeating schedule ${schedule._id} is at ${now}, expected ${expected} (the next date after its run)`);
        }
      } else if (succeeded && now !== undefined) failures.push(`one-off schedule ${schedule._id} ran but is still there`);
      else if (!succeeded && now === undefined) failures.push(`one-off schedule ${schedule._id} is gone without a successful run`);
    }
    for (const [id] of remaining) if (!schedules.some((schedule) => schedule._id === id)) failures.push(`an unknown schedule ${id} appeared`);

    const cacheFile = join(agentData, 'autopilot.sqlite');
    const cache = readOnly(cacheFile, (db) => ({
      integrity: (db.pragma('integrity_check') as { integrity_check: string }[]).map((row) => row.integrity_check).join(', '),
      tasks: db.prepare('select schedule_id, scheduled_date, done, claimed_by from tasks').all() as { schedule_id: string | null; scheduled_date: string; done: number; claimed_by: string | null }[],
    }));
    if (cache.integrity !== 'ok') failures.push(`PRAGMA integrity_check of ${cacheFile}: ${cache.integrity}`);
    for (const task of cache.tasks) {
      if (task.claimed_by) failures.push(`the task cache still holds a claim on ${task.schedule_id}`);
      const now = task.schedule_id ? remaining.get(task.schedule_id) : undefined;
      if (now !== undefined && !task.done && new Date(now).getTime() !== new Date(task.scheduled_date).getTime()) failures.push(`the task cache has ${task.schedule_id} at ${task.scheduled_date}, the server at ${now}`);
    }

    const aborted = allRuns.filter((run) => run.launch_status === 299).length;
    const moments = [...killMoments].sort((a, b) => a - b);
    console.log('== Autopilot kill -9');
    console.log(`kills: ${KILLS} (${KILLS - killedAfterRun} mid-run, ${killedAfterRun} just after the run ended, before the slot was closed; SIGKILL ${moments[0]?.toFixed(0)}-${moments.at(-1)?.toFixed(0)} ms after the run was seen running), then 1 clean start`);
    console.log(`schedules: ${schedules.length} (${schedules.filter((s) => !s.repeat).length} one-off, ${schedules.filter((s) => s.repeat).length} repeating)`);
    console.log(`runs: ${allRuns.length} (${allRuns.length - aborted} kept, ${aborted} ended 299 and were retried), slots: ${slots.size}`);
    console.log(`task cache: integrity_check ${cache.integrity}, ${cache.tasks.length} tasks`);
    console.log(`seconds: ${seconds(performance.now() - began)} in all; the clean start settled every task in ${seconds(finishSeconds)}`);
    if (failures.length > 0) {
      console.log(`FAILED (${failures.length}):`);
      for (const failure of failures) console.log(`  - ${failure}`);
      return 1;
    }
    console.log('OK: no slot ran twice, none overlapped, nothing charged twice, no schedule lost, the cache is sound');
    return 0;
  } finally {
    for (const agent of agents) agent.child.kill('SIGKILL');
    await Promise.all([stop(server.child), portal.close()]);
    await Promise.all([rm(dataDir, { recursive: true, force: true }), rm(serverBuild.dir, { recursive: true, force: true })]);
  }
}

/** Waits for the agent's bridge line, sends one command over its socket, and expects it to succeed. */
async function bridgeCommand(agent: ReturnType<typeof startProcess>, command: string, args: unknown): Promise<unknown> {
  const bridge = await agentBridgeOf(agent, 'the agent bridge');
  const socket = new WebSocket(`${bridge.url}/?token=${bridge.token}`);
  try {
    await new Promise((resolve, reject) => {
      socket.once('open', resolve);
      socket.once('error', reject);
    });
    const envelope = await new Promise<BridgeEnvelope<unknown>>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${command}: no answer in 15 s`)), 15_000);
      socket.on('message', (data) => {
        const message = JSON.parse(data.toString()) as AgentMessage;
        if (message.kind !== 'response' || message.id !== 1) return;
        clearTimeout(timer);
        resolve(message.envelope);
      });
      socket.send(JSON.stringify({ id: 1, command, args }));
    });
    if (!envelope.ok) throw new Error(`${command} failed: ${envelope.error.code} ${envelope.error.message}`);
    return envelope.data;
  } finally {
    socket.close();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? (error.stack ?? error.message) : error);
    process.exit(1);
  },
);
