import { afterEach, describe, expect, it, vi } from 'vitest';
import { createAppStore } from '../app/store.ts';
import { signedInState, testUser } from '../test/renderApp.tsx';
import { accountApi } from './account.ts';

afterEach(() => vi.unstubAllGlobals());

describe('baseApi requests', () => {
  it('carry the client app, its version and the user language, with cookies', async () => {
    const fetchMock = vi.fn(async () => new Response(JSON.stringify({ items: [] }), { status: 200 }));
    vi.stubGlobal('fetch', fetchMock);
    const store = createAppStore(signedInState(testUser({ language: 'ca' })));
    await store.dispatch(accountApi.endpoints.activeNotes.initiate());

    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/notes/active');
    expect(init.credentials).toBe('include');
    expect(init.headers).toMatchObject({ 'x-client-app': 'web', 'x-client-version': expect.any(String), 'accept-language': 'ca' });
  });

  it('rejects a response that breaks the contract instead of passing it on', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => new Response(JSON.stringify({ items: [{ id: 1 }] }), { status: 200 })));
    const store = createAppStore(signedInState());
    const result = await store.dispatch(accountApi.endpoints.activeNotes.initiate());
    expect(result.isError).toBe(true);
  });
});
