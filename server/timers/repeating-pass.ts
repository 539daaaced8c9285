/**
 * A background pass run every `intervalMs` (a sweep, a queue, a due-time check), one at a time: a tick
 * that finds the previous pass still running is skipped. The timers never keep the process alive, a
 * pass's failure goes to `onError` and the next tick tries again, and stop() waits for a pass under way.
 */
export class RepeatingPass {
  private timer: NodeJS.Timeout | undefined;
  private first: NodeJS.Timeout | undefined;
  private running: Promise<unknown> | null = null;
  private stopped = false;

  constructor(
    private readonly pass: () => Promise<unknown>,
    private readonly onError: (error: unknown) => void,
  ) {}

  /** Every `intervalMs`; with `firstAfterMs`, also once that soon after start. */
  start(intervalMs: number, firstAfterMs?: number): void {
    const tick = () => {
      if (this.running || this.stopped) return;
      this.running = this.pass()
        .catch(this.onError)
        .finally(() => (this.running = null));
    };
    if (firstAfterMs !== undefined) {
      this.first = setTimeout(tick, firstAfterMs);
      this.first.unref();
    }
    this.timer = setInterval(tick, intervalMs);
    this.timer.unref();
  }

  /** No more ticks; resolves once a pass under way has ended. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.first);
    clearInterval(this.timer);
    await this.running;
  }
}
