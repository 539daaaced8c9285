import { afterEach, describe, expect, it, vi } from 'vitest';
import { RepeatingPass } from './repeating-pass.ts';

afterEach(() => vi.useRealTimers());

describe('RepeatingPass', () => {
  it('runs one pass at a time, reports a failure and goes on, and stop() waits for the pass under way', async () => {
    vi.useFakeTimers();
    const errors: unknown[] = [];
    let release: (() => void) | undefined;
    let calls = 0;
    const repeating = new RepeatingPass(async () => {
      calls += 1;
      if (calls === 1) throw new Error('primera');
      await new Promise<void>((resolve) => (release = resolve));
    }, (error) => errors.push(error));
    repeating.start(1_000);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(errors).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(calls).toBe(2);
    // The second pass is still running: these ticks are skipped.
    await vi.advanceTimersByTimeAsync(3_000);
    expect(calls).toBe(2);
    let stopped = false;
    const stopping = repeating.stop().then(() => (stopped = true));
    await vi.advanceTimersByTimeAsync(0);
    expect(stopped).toBe(false);
    release?.();
    await stopping;
    await vi.advanceTimersByTimeAsync(5_000);
    expect(calls).toBe(2);
  });

  it('runs a first pass soon after start when asked, then every interval', async () => {
    vi.useFakeTimers();
    let calls = 0;
    const repeating = new RepeatingPass(async () => void (calls += 1), () => undefined);
    repeating.start(60_000, 1_000);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(calls).toBe(1);
    await vi.advanceTimersByTimeAsync(59_000);
    expect(calls).toBe(2);
    await repeating.stop();
  });
});
