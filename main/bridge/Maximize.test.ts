import { describe, expect, it } from 'vitest';
import { Maximize } from './Maximize.ts';
import { fakeContext, fakeWindow } from './test-context.ts';

describe('Maximize', () => {
  it('toggles between maximized and restored', async () => {
    const ctx = fakeContext({ window: fakeWindow() });
    await expect(Maximize({}, ctx)).resolves.toEqual({ maximized: true });
    await expect(Maximize({}, ctx)).resolves.toEqual({ maximized: false });
  });

  it('is unavailable without a window', async () => {
    await expect(Maximize({}, fakeContext())).rejects.toMatchObject({ code: 'UNAVAILABLE' });
  });
});
