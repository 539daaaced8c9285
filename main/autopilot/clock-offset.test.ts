import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { autopilotClockFromEnv, CLOCK_FILE_READ_MS } from './clock-offset.ts';

describe('autopilotClockFromEnv', () => {
  let folder: string;
  let file: string;
  let real = 1_000_000;
  const realNow = () => real;
  beforeEach(async () => {
    folder = await mkdtemp(join(tmpdir(), 'clock-'));
    file = join(folder, 'offset');
  });
  afterEach(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  it('is the wall clock without the variable, and in production whatever it says', async () => {
    await writeFile(file, '600000');
    expect(autopilotClockFromEnv({}, realNow)().getTime()).toBe(real);
    expect(autopilotClockFromEnv({ AUTOPILOT_CLOCK_OFFSET_FILE: file, NODE_ENV: 'production' }, realNow)().getTime()).toBe(real);
  });

  it("adds the file's milliseconds, and sees a new value once its reading is older than the read interval", async () => {
    const clock = autopilotClockFromEnv({ AUTOPILOT_CLOCK_OFFSET_FILE: file }, realNow);
    expect(clock().getTime()).toBe(real);
    await writeFile(file, '600000\n');
    expect(clock().getTime()).toBe(real);
    real += CLOCK_FILE_READ_MS;
    expect(clock().getTime()).toBe(real + 600_000);
    await writeFile(file, 'diez minutos');
    real += CLOCK_FILE_READ_MS;
    expect(clock().getTime()).toBe(real);
  });
});
