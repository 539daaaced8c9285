import { readFileSync } from 'node:fs';

/**
 * The agent's autopilot clock. Normally the wall clock. For tests and support outside production,
 * AUTOPILOT_CLOCK_OFFSET_FILE names a file holding a whole number of milliseconds that is added to it,
 * so a browser test can move the autopilot ten minutes on (spec §9: notifications re-check 10 min after
 * a run) without waiting for them. The file is read again at most every CLOCK_FILE_READ_MS; a missing or
 * unreadable file means no offset. Only the autopilot's sense of 'now' moves: leases, LEMA dates and
 * everything sent to the server keep the real time.
 */
export const CLOCK_FILE_READ_MS = 500;

export function autopilotClockFromEnv(env: NodeJS.ProcessEnv, realNow: () => number = Date.now): () => Date {
  const file = env.AUTOPILOT_CLOCK_OFFSET_FILE?.trim();
  if (!file || env.NODE_ENV === 'production') return () => new Date(realNow());
  let offsetMs = 0;
  let readAt = -Infinity;
  return () => {
    const now = realNow();
    if (now - readAt >= CLOCK_FILE_READ_MS) {
      readAt = now;
      offsetMs = readOffset(file);
    }
    return new Date(now + offsetMs);
  };
}

function readOffset(file: string): number {
  try {
    const value = Number(readFileSync(file, 'utf8').trim());
    return Number.isSafeInteger(value) ? value : 0;
  } catch {
    return 0;
  }
}
