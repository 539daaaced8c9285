import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { NEWER_CACHE_MESSAGE, TaskCache, type IncomingTask } from './task-cache.ts';

const folders: string[] = [];
const opened: TaskCache[] = [];
afterEach(() => {
  for (const cache of opened.splice(0)) cache.close();
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

function cacheFile(): string {
  const folder = mkdtempSync(join(tmpdir(), 'autopilot-cache-'));
  folders.push(folder);
  return join(folder, 'autopilot.sqlite');
}
function open(file: string): TaskCache {
  const cache = TaskCache.open(file);
  opened.push(cache);
  return cache;
}

function task(id: string, scheduledDate: string, extra: Partial<IncomingTask> = {}): IncomingTask {
  return {
    id: `flow:${id}`,
    scheduleId: id,
    title: 'Descargar justificantes',
    description: 'En OFICINA-01',
    scheduledDate,
    repeat: null,
    info: [],
    items: [],
    ...extra,
  };
}

const NOW = new Date('2026-03-02T09:00:00.000Z'); // 10:00 in Madrid
const LEASE = 60_000;
const OWNER = `${process.pid}:prueba`;
const robots = ['robots'] as const;

describe('the task cache file', () => {
  it('is a WAL database with a versioned schema that passes integrity_check and keeps everything across a reopen', () => {
    const file = cacheFile();
    const cache = open(file);
    cache.syncApp('robots', [task('a', '2026-03-02T08:00:00+01:00', { repeat: { every: 2, interval: 'days' }, info: [{ text: 'Ana', icon: 'user', tooltip: null }], items: ['nominas.xlsx'] })], NOW);
    cache.setGeneralSwitch(false);
    cache.setAppEnabled('robots', false);
    cache.setCertificates('altas', [{ fingerprint: 'a'.repeat(64), commonName: 'ASESORIA LOPEZ SL' }]);
    cache.close();

    const raw = new Database(file, { readonly: true });
    expect(raw.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(raw.pragma('user_version', { simple: true })).toBe(1);
    raw.close();

    const again = open(file);
    expect(again.integrityCheck()).toBe('ok');
    expect(again.generalSwitch()).toBe(false);
    expect(again.appSettings('robots')).toEqual({ enabled: false, certificates: [] });
    expect(again.appSettings('altas')).toEqual({ enabled: false, certificates: [{ fingerprint: 'a'.repeat(64), commonName: 'ASESORIA LOPEZ SL' }] });
    expect(again.tasks()).toEqual([
      expect.objectContaining({
        id: 'flow:a',
        app: 'robots',
        scheduledDate: '2026-03-02T07:00:00.000Z',
        repeat: { every: 2, interval: 'days' },
        info: [{ text: 'Ana', icon: 'user', tooltip: null }],
        items: ['nominas.xlsx'],
        done: false,
        claimedBy: null,
      }),
    ]);
  });

  it('starts with the general switch and the robots app on, the certificate apps off', () => {
    const cache = open(cacheFile());
    expect(cache.generalSwitch()).toBe(true);
    expect(cache.appSettings('robots').enabled).toBe(true);
    expect(cache.appSettings('altas').enabled).toBe(false);
    expect(cache.appSettings('notificaciones').enabled).toBe(false);
  });

  it('refuses a file written by a newer version instead of guessing at it', () => {
    const file = cacheFile();
    open(file).close();
    const raw = new Database(file);
    raw.pragma('user_version = 7');
    raw.close();
    expect(() => TaskCache.open(file)).toThrow(NEWER_CACHE_MESSAGE);
  });
});

describe('syncing the robots app with the server', () => {
  it('takes new tasks and changed dates, drops tasks gone from the server, and leaves a claimed task alone', () => {
    const cache = open(cacheFile());
    cache.syncApp('robots', [task('a', '2026-03-02T08:00:00Z'), task('b', '2026-03-02T10:00:00Z'), task('c', '2026-03-03T10:00:00Z')], NOW);
    const claimed = cache.claimDue(NOW, OWNER, LEASE, robots);
    expect(claimed?.id).toBe('flow:a');

    const changed = cache.syncApp('robots', [task('a', '2026-03-05T08:00:00Z'), task('b', '2026-03-02T11:00:00Z'), task('d', '2026-03-04T10:00:00Z')], NOW);
    expect(changed).toBe(true);
    expect(cache.tasks().map((entry) => [entry.id, entry.scheduledDate])).toEqual([
      ['flow:a', '2026-03-02T08:00:00.000Z'], // claimed: its loop settles it
      ['flow:b', '2026-03-02T11:00:00.000Z'],
      ['flow:d', '2026-03-04T10:00:00.000Z'],
    ]);
    // Nothing new: nothing changed.
    expect(cache.syncApp('robots', [task('a', '2026-03-05T08:00:00Z'), task('b', '2026-03-02T11:00:00Z'), task('d', '2026-03-04T10:00:00Z')], NOW)).toBe(false);
  });

  it('keeps a done task, with its check, until its Madrid day ends, then forgets it', () => {
    const cache = open(cacheFile());
    cache.syncApp('robots', [task('a', '2026-03-02T08:00:00Z')], NOW);
    const claimed = cache.claimDue(NOW, OWNER, LEASE, robots);
    expect(claimed).not.toBeNull();
    expect(cache.markDone('flow:a', OWNER, NOW)).toBe(true);

    // The server deleted it; a sync the same evening keeps it.
    cache.syncApp('robots', [], new Date('2026-03-02T22:30:00Z')); // 23:30 in Madrid
    expect(cache.tasks()).toEqual([expect.objectContaining({ id: 'flow:a', done: true, doneAt: NOW.toISOString() })]);
    expect(cache.claimDue(new Date('2026-03-02T22:30:00Z'), OWNER, LEASE, robots)).toBeNull();

    cache.syncApp('robots', [], new Date('2026-03-02T23:00:30Z')); // 00:00:30 next day in Madrid
    expect(cache.tasks()).toEqual([]);
  });
});

describe('claiming a due task', () => {
  it('claims the soonest task whose time has come, a missed one from days ago included, and nothing in the future', () => {
    const cache = open(cacheFile());
    cache.syncApp('robots', [task('later', '2026-03-02T09:00:01Z'), task('today', '2026-03-02T08:59:00Z'), task('missed', '2026-02-27T08:00:00Z')], NOW);
    const first = cache.claimDue(NOW, OWNER, LEASE, robots);
    expect(first).toMatchObject({ id: 'flow:missed', claimedBy: OWNER, claimedUntil: NOW.getTime() + LEASE });
    cache.release('flow:missed', OWNER, null);
    cache.drop('flow:missed');
    expect(cache.claimDue(NOW, OWNER, LEASE, robots)?.id).toBe('flow:today');
    cache.drop('flow:today');
    expect(cache.claimDue(NOW, OWNER, LEASE, robots)).toBeNull();
  });

  it('claims nothing while any live claim exists, and takes over a claim whose lease ran out', () => {
    const cache = open(cacheFile());
    cache.syncApp('robots', [task('a', '2026-03-02T08:00:00Z'), task('b', '2026-03-02T08:30:00Z')], NOW);
    expect(cache.claimDue(NOW, 'otro:1', LEASE, robots)?.id).toBe('flow:a');
    expect(cache.claimDue(NOW, OWNER, LEASE, robots)).toBeNull();

    const afterLease = new Date(NOW.getTime() + LEASE + 1);
    expect(cache.claimDue(afterLease, OWNER, LEASE, robots)).toMatchObject({ id: 'flow:a', claimedBy: OWNER });
    // The first owner lost it: it cannot renew, release or settle it any more.
    expect(cache.renewClaim('flow:a', 'otro:1', afterLease, LEASE)).toBe(false);
    expect(cache.markDone('flow:a', 'otro:1', afterLease)).toBe(false);
    expect(cache.renewClaim('flow:a', OWNER, afterLease, LEASE)).toBe(true);
  });

  it('skips tasks that are done, being removed, of an app not active, or waiting for their retry time', () => {
    const cache = open(cacheFile());
    cache.syncApp('robots', [task('a', '2026-03-02T08:00:00Z')], NOW);
    expect(cache.claimDue(NOW, OWNER, LEASE, [])).toBeNull();
    expect(cache.claimDue(NOW, OWNER, LEASE, ['altas'])).toBeNull();

    expect(cache.markRemoving('flow:a', NOW)).toBe('marked');
    expect(cache.claimDue(NOW, OWNER, LEASE, robots)).toBeNull();
    cache.unmarkRemoving('flow:a');

    expect(cache.claimDue(NOW, OWNER, LEASE, robots)?.id).toBe('flow:a');
    expect(cache.markRemoving('flow:a', NOW)).toBe('running');
    cache.release('flow:a', OWNER, new Date(NOW.getTime() + 60_000));
    expect(cache.claimDue(new Date(NOW.getTime() + 59_999), OWNER, LEASE, robots)).toBeNull();
    expect(cache.claimDue(new Date(NOW.getTime() + 60_000), OWNER, LEASE, robots)?.id).toBe('flow:a');
    expect(cache.markRemoving('flow:zzz', NOW)).toBe('missing');
  });

  it('gives a task to one of two caches opened on the same file', () => {
    const file = cacheFile();
    const first = open(file);
    const second = open(file);
    first.syncApp('robots', [task('a', '2026-03-02T08:00:00Z')], NOW);
    const claims = [first.claimDue(NOW, 'uno:1', LEASE, robots), second.claimDue(NOW, 'dos:2', LEASE, robots)];
    expect(claims.filter((claim) => claim !== null)).toHaveLength(1);
  });

  it('gives a task to one process only when this one and a child process ask at the same instant, round after round', async () => {
    const file = cacheFile();
    const cache = open(file);
    const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(new URL('./testing/claim-in-child.ts', import.meta.url)), file], {
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    const messages: { round?: number; claimed?: string | null; ready?: boolean }[] = [];
    let wake: (() => void) | null = null;
    child.on('message', (message: (typeof messages)[number]) => {
      messages.push(message);
      wake?.();
    });
    const next = async () => {
      while (messages.length === 0) await new Promise<void>((resolve) => (wake = resolve));
      return messages.shift() ?? {};
    };
    try {
      expect(await next()).toEqual({ ready: true });
      const winners: string[] = [];
      for (let round = 0; round < 25; round += 1) {
        const id = `r${round}`;
        cache.syncApp('robots', [task(id, '2026-03-02T08:00:00Z')], NOW);
        const at = Date.now() + 40;
        child.send({ round, at, now: NOW.toISOString() });
        while (Date.now() < at) {
          // Spin to the agreed instant, as the child does.
        }
        const mine = cache.claimDue(NOW, OWNER, LEASE, robots);
        const theirs = await next();
        expect(theirs.round).toBe(round);
        const claimants = [mine?.id ?? null, theirs.claimed ?? null].filter((claim) => claim !== null);
        expect(claimants).toEqual([`flow:${id}`]);
        winners.push(mine ? 'parent' : 'child');
        cache.drop(`flow:${id}`);
      }
      // Not asserted: who wins depends on the scheduler; both only ever one at a time.
      expect(winners).toHaveLength(25);
    } finally {
      child.send('exit');
      await new Promise((resolve) => child.once('exit', resolve));
    }
    expect(cache.integrityCheck()).toBe('ok');
  }, 30_000);
});

describe('after a crash', () => {
  it('lets go at once of the claims of processes that no longer exist (close and reopen mid-task), and keeps live ones', () => {
    const file = cacheFile();
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
    const deadPid = Number(dead.stdout);
    const crashed = open(file);
    crashed.syncApp('robots', [task('a', '2026-03-02T08:00:00Z'), task('b', '2026-03-02T08:10:00Z')], NOW);
    expect(crashed.claimDue(NOW, `${deadPid}:muerto`, LEASE, robots)?.id).toBe('flow:a');
    crashed.setRunId('flow:a', `${deadPid}:muerto`, 'run-1');
    crashed.close();

    const reopened = open(file);
    expect(reopened.integrityCheck()).toBe('ok');
    const isAlive = (pid: number) => pid !== deadPid;
    expect(reopened.releaseDeadClaims(isAlive, NOW)).toBe(1);
    const again = reopened.claimDue(NOW, OWNER, LEASE, robots);
    expect(again).toMatchObject({ id: 'flow:a', runId: 'run-1', claimedBy: OWNER });
    // Our own live claim survives the next start.
    expect(reopened.releaseDeadClaims(isAlive, NOW)).toBe(0);
    expect(reopened.task('flow:a')?.claimedBy).toBe(OWNER);
  });
});
