import { describe, expect, it } from 'vitest';
import { CheckAppUpdate } from './CheckAppUpdate.ts';
import { fakeContext } from './test-context.ts';

const feed = (body: unknown, status = 200) => async () => new Response(JSON.stringify(body), { status });

describe('CheckAppUpdate', () => {
  it('reports no update when no feed is configured', async () => {
    await expect(CheckAppUpdate({}, fakeContext())).resolves.toEqual({
      currentVersion: '1.2.3',
      latestVersion: null,
      update: 'none',
      checkedAt: '2026-11-23T08:00:05.000Z',
    });
  });

  it.each([
    [{ latest: '1.2.3' }, 'none'],
    [{ latest: '1.10.0' }, 'optionalUpdate'],
    [{ latest: '2.0.0', minimum: '1.2.3' }, 'optionalUpdate'],
    [{ latest: '2.0.0', minimum: '1.3.0' }, 'forceUpdate'],
  ] as const)('feed %j gives %s for version 1.2.3', async (body, update) => {
    const ctx = fakeContext({ updateFeedUrl: 'https://updates.example/latest.json', fetch: feed(body) });
    await expect(CheckAppUpdate({}, ctx)).resolves.toMatchObject({ update, latestVersion: body.latest });
  });

  it('fails with a Spanish message when the feed cannot be reached', async () => {
    const ctx = fakeContext({ updateFeedUrl: 'https://updates.example/latest.json', fetch: feed({}, 503) });
    await expect(CheckAppUpdate({}, ctx)).rejects.toMatchObject({ code: 'UNAVAILABLE', message: expect.stringContaining('actualizaciones') });
  });

  it('rejects a malformed feed', async () => {
    const ctx = fakeContext({ updateFeedUrl: 'https://updates.example/latest.json', fetch: feed({ latest: 'pronto' }) });
    await expect(CheckAppUpdate({}, ctx)).rejects.toMatchObject({ code: 'FAILED' });
  });
});
