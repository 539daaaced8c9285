import { describe, expect, it } from 'vitest';
import { CloseWindow } from './CloseWindow.ts';
import { fakeContext, fakeWindow } from './test-context.ts';

describe('CloseWindow', () => {
  it('closes the desktop window', async () => {
    const window = fakeWindow();
    await expect(CloseWindow({}, fakeContext({ window }))).resolves.toEqual({ closing: true });
    expect(window.calls).toEqual(['close']);
  });

  it('is unavailable without a window', async () => {
    await expect(CloseWindow({}, fakeContext())).rejects.toMatchObject({ code: 'UNAVAILABLE' });
  });
});
