/**
 * An autopilot on a throwaway folder, with the in-memory schedule server, a fake device link, a clock
 * the test sets, and loop ticks and refresh timers fired by hand. close() stops every autopilot it
 * made and removes the folder.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAutopilot } from '../index.ts';
import type { AutopilotOptions, AutopilotService } from '../types.ts';
import { fakeLink, fakeScheduleServer, manualCron, manualTimers } from './fake-schedule-server.ts';

export interface HarnessOptions {
  host?: AutopilotOptions['host'];
  at: string;
  linked?: boolean;
  retryAfterAbortMs?: number;
}

export function autopilotHarness(options: HarnessOptions) {
  const server = fakeScheduleServer();
  const link = fakeLink(server.client, options.linked ?? true);
  const cron = manualCron();
  const timers = manualTimers();
  const folder = mkdtempSync(join(tmpdir(), 'autopilot-'));
  const logs: string[] = [];
  let now = new Date(options.at);
  const made: AutopilotService[] = [];

  const make = (extra: Partial<AutopilotOptions> = {}): AutopilotService => {
    const autopilot = createAutopilot({
      dataFolder: folder,
      link,
      host: options.host ?? 'agent',
      now: () => now,
      log: (message) => logs.push(message),
      retryAfterAbortMs: options.retryAfterAbortMs ?? 60_000,
      followEveryMs: 1,
      cron: cron.cron,
      every: timers.every,
      ...extra,
    });
    made.push(autopilot);
    return autopilot;
  };

  return {
    server,
    link,
    cron,
    timers,
    folder,
    logs,
    autopilot: make(),
    make,
    /** Sets the clock (an ISO instant) or moves it on by `ms`. */
    at(instant: string | number) {
      now = typeof instant === 'number' ? new Date(now.getTime() + instant) : new Date(instant);
    },
    now: () => now,
    async close() {
      await Promise.all(made.map((autopilot) => autopilot.stop()));
      rmSync(folder, { recursive: true, force: true });
    },
  };
}
