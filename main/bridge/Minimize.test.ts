import { describe, expect, it } from 'vitest';
import { Minimize } from './Minimize.ts';
import { DESKTOP_ONLY_MESSAGE } from './context.ts';
import { fakeContext, fakeWindow } from './test-context.ts';

describe('Minimize', () => {
  it('minimizes the desktop window', async () => {
    const window = fakeWindow();
    await expect(Minimize({}, fakeContext({ window }))).resolves.toEqual({ minimized: true });
    expect(window.calls).toEqual(['minimize']);
  });

  it('is unavailable without a window (headless agent)', async () => {
    await expect(Minimize({}, fakeContext())).rejects.toMatchObject({ code: 'UNAVAILABLE', message: DESKTOP_ONLY_MESSAGE });
  });
});
