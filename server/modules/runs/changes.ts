import { EventEmitter } from 'node:events';

const machineRunsKey = (machineId: string) => `machine:${machineId}`;

/**
 * Changes to runs made in this process, for whoever waits on them here: a run's long poll (a log
 * line, progress, the end) and a machine's long poll for its queued runs. Changes made by another
 * process are not heard: waiters poll the database as well.
 */
export class RunChanges {
  private readonly emitter = new EventEmitter().setMaxListeners(0);

  /** Wakes whoever waits on the run in this process. */
  runChanged(runId: string): void {
    this.emitter.emit(runId);
  }

  /** Resolves at the run's next change in this process, or after `ms`. */
  nextChange(runId: string, ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.emitter.off(runId, done);
        resolve();
      };
      const timer = setTimeout(done, Math.max(0, ms));
      this.emitter.on(runId, done);
    });
  }

  /** Wakes the long poll of the machine a run was just queued for. */
  machineRunQueued(machineId: string): void {
    this.emitter.emit(machineRunsKey(machineId));
  }

  /** Calls `listener` whenever this process queues a run for the machine; returns the unsubscribe. */
  onMachineRunQueued(machineId: string, listener: () => void): () => void {
    this.emitter.on(machineRunsKey(machineId), listener);
    return () => this.emitter.off(machineRunsKey(machineId), listener);
  }
}
