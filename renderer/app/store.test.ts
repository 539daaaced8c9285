import { afterEach, describe, expect, it, vi } from 'vitest';

/**
 * store.ts and the plain session calls, in a module graph of the test's own: RTK Query (baseApi.ts)
 * is not loaded yet, the way the sign-in screen runs before a screen's chunk brings it. (Test files
 * share modules in this project, and an earlier one may have loaded RTK Query.)
 */
async function freshApp() {
  vi.resetModules();
  const { createAppStore } = await import('./store.ts');
  const { restoreSession } = await import('../api/session.ts');
  return { createAppStore, restoreSession, accountApi: async () => (await import('../api/account.ts')).accountApi };
}

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const user = {
  uid: 'u1', email: 'ana@asesoria.es', name: 'Ana', language: 'es', emailValidated: true,
  group: { id: 'g1', name: 'Asesoría Pérez', config: { allowed_routes: [], hidden_routes: [] } },
  config: {}, usedSlans: 0, role: 'owner', supportAgent: false,
};

afterEach(() => vi.unstubAllGlobals());

describe('the app store', () => {
  it('restores the session without RTK Query, which joins the store when it loads', async () => {
    vi.stubGlobal('fetch', vi.fn(async (input: RequestInfo | URL) => (String(input) === '/api/auth/session' ? json(200, { userData: user }) : json(200, { items: [] }))));
    const { createAppStore, restoreSession, accountApi: loadAccountApi } = await freshApp();
    const store = createAppStore();
    await store.dispatch(restoreSession());
    expect(store.getState().session).toMatchObject({ status: 'authenticated', user: { email: 'ana@asesoria.es' } });
    expect(store.getState().api).toBeUndefined();

    const accountApi = await loadAccountApi();
    expect(store.getState().api).toBeDefined();
    const notes = await store.dispatch(accountApi.endpoints.activeNotes.initiate());
    expect(notes.data).toEqual([]);
    // Cached in this store's api state: its middleware and reducer are both in place.
    expect(Object.values(store.getState().api?.queries ?? {}).map((query) => query?.status)).toEqual(['fulfilled']);
  });

  it('answers an expired session with one refresh, shared by RTK Query calls (the restore renews on the server)', async () => {
    let fresh = false;
    const calls: string[] = [];
    vi.stubGlobal('fetch', vi.fn(async (input: RequestInfo | URL) => {
      const url = String(input);
      calls.push(url);
      // The restore's endpoint renews an expired access cookie itself, and never answers 401.
      if (url === '/api/auth/session') return json(200, { userData: user });
      if (url === '/api/auth/newtoken') {
        await new Promise((resolve) => setTimeout(resolve, 10));
        fresh = true;
        return json(200, { ok: true });
      }
      if (!fresh) return json(401, { statusCode: 401, code: 'UNAUTHENTICATED', message: 'Inicia sesión' });
      return url === '/api/users/me' ? json(200, { userData: user }) : json(200, { items: [] });
    }));
    const { createAppStore, restoreSession, accountApi: loadAccountApi } = await freshApp();
    const accountApi = await loadAccountApi();
    const store = createAppStore();

    const [, notes] = await Promise.all([store.dispatch(restoreSession()), store.dispatch(accountApi.endpoints.activeNotes.initiate())]);

    expect(calls.filter((url) => url === '/api/auth/newtoken')).toHaveLength(1);
    expect(store.getState().session.status).toBe('authenticated');
    expect(notes.data).toEqual([]);
  });

  it('restores a signed-out visitor from a 200 with no user, with the server reason when there is one', async () => {
    const fetchMock = vi.fn(async (input: RequestInfo | URL) => (String(input) === '/api/auth/session'
      ? json(200, { userData: null, logoutReason: 'Tu sesión ha caducado' })
      : json(401, { statusCode: 401, code: 'UNAUTHENTICATED', message: 'Inicia sesión' })));
    vi.stubGlobal('fetch', fetchMock);
    const { createAppStore, restoreSession } = await freshApp();
    const store = createAppStore();
    await store.dispatch(restoreSession());
    expect(store.getState().session.status).toBe('anonymous');
    expect(store.getState().toasts.items.map((toast) => toast.message)).toEqual(['Tu sesión ha caducado']);
    // One call, no 401 and no refresh: nothing for the browser to log as a failed request.
    expect(fetchMock.mock.calls.map(([input]) => String(input))).toEqual(['/api/auth/session']);
  });
});
