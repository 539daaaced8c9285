import type { RobotContext, RobotResult } from '#shared/flows/robot.ts';

/** What a stopped run answers (the user pressed stop, or the time limit passed). */
export const STOPPED_MESSAGE = 'Robot detenido';

/** A stopped run delivers no file, so it is not charged. */
export function stoppedResult(): RobotResult {
  return { result: 'Fail', message: STOPPED_MESSAGE, usageUnits: 0, outputs: [] };
}

/** The data could not be used: nothing was produced and nothing is charged. */
export function wrongInput(message: string): RobotResult {
  return { result: 'WrongInput', message, usageUnits: 0, outputs: [] };
}

/**
 * Reports progress after each row or entry, but at most about 200 times per run: a 100,000-row
 * workbook would otherwise send 100,000 messages from the worker for a bar nobody can read that finely.
 * The last iteration is always reported, so the run ends with its true count.
 */
export function progressReporter(context: Pick<RobotContext, 'progress'>, total: number): (done: number) => void {
  const every = Math.max(1, Math.ceil(total / 200));
  return (done) => {
    if (done === total || done % every === 0) context.progress(done, total);
  };
}

/**
 * Log lines about single rows stop after a limit, so the history of a large file stays readable; the
 * output workbook has every one of them.
 */
export function cappedLog(context: Pick<RobotContext, 'log'>, limit: number): { warn(text: string): void; finish(noun: string): void } {
  let written = 0;
  return {
    warn(text) {
      written += 1;
      if (written <= limit) context.log('warn', text);
    },
    finish(noun) {
      if (written > limit) context.log('warn', `… y ${written - limit} ${noun} más (están todos en el archivo de resultado).`);
    },
  };
}
