import { act, render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { MemoryRouter, useLocation, useNavigate } from 'react-router-dom';
import type { Location, NavigateFunction } from 'react-router-dom';
import { AppProviders } from '../app/AppProviders.tsx';
import { AppRoutes } from '../app/router.tsx';
import { Toasts } from '../app/shell/Toasts.tsx';
import { createAppStore } from '../app/store.ts';
import type { RootState } from '../app/store.ts';
import { noBridge } from '../bridge/client.ts';
import type { BridgeClient } from '../bridge/client.ts';
import type { UserData } from '#shared/domain/user.ts';

export interface TestAppOptions {
  path?: string;
  preloadedState?: Partial<RootState>;
  bridge?: BridgeClient;
  embedded?: boolean;
  /** Also render the shell's toasts, for screens that report through useToast(). */
  toasts?: boolean;
}

/** One element with the app's providers inside a MemoryRouter. */
export function renderWithApp(ui: ReactElement, { path = '/', preloadedState, bridge = noBridge, embedded = false, toasts = false }: TestAppOptions = {}) {
  const store = createAppStore(preloadedState);
  const view = render(
    <AppProviders store={store} bridge={bridge} embedded={embedded}>
      <MemoryRouter initialEntries={[path]}>
        {ui}
        {toasts && <Toasts />}
      </MemoryRouter>
    </AppProviders>,
  );
  return { store, ...view };
}

/** What tests read and drive of the in-memory router: where it is, and a navigation (inside act). */
export interface TestRouter {
  state: { location: Location };
  navigate: (to: string) => Promise<void>;
}

/** Keeps `router` in step with the MemoryRouter it sits in. */
function RouterProbe({ router }: { router: { location?: Location; navigate?: NavigateFunction } }) {
  router.location = useLocation();
  router.navigate = useNavigate();
  return null;
}

/** The whole app (route table, guard, shell) at `path`, in memory. */
export function renderRoutes({ path = '/', preloadedState, bridge = noBridge, embedded = false }: TestAppOptions = {}) {
  const store = createAppStore(preloadedState);
  const probe: { location?: Location; navigate?: NavigateFunction } = {};
  const view = render(
    <AppProviders store={store} bridge={bridge} embedded={embedded}>
      <MemoryRouter initialEntries={[path]}>
        <AppRoutes />
        <RouterProbe router={probe} />
      </MemoryRouter>
    </AppProviders>,
  );
  const router: TestRouter = {
    state: {
      get location() {
        if (!probe.location) throw new Error('The router has not rendered yet');
        return probe.location;
      },
    },
    navigate: (to) => act(async () => void (await probe.navigate?.(to))),
  };
  return { store, router, ...view };
}

export function testUser(overrides: Partial<UserData> = {}, config: Partial<UserData['group']['config']> = {}): UserData {
  return {
    uid: 'u1', email: 'ana@asesoria.es', name: 'Ana', language: 'es', emailValidated: true,
    group: { id: 'g1', name: 'Asesoría Pérez', config: { allowed_routes: [], hidden_routes: [], ...config } },
    config: {}, usedSlans: 0, role: 'owner', supportAgent: false, ...overrides,
  };
}

export function signedInState(user: UserData = testUser()): Partial<RootState> {
  return { session: { status: 'authenticated', user, redirectTarget: null } };
}

export const jsonResponse = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/** A fetch mock answering by "METHOD path"; unknown routes get a 404 in the API error shape. */
export function mockApi(routes: Record<string, (body: unknown) => Response | Promise<Response>>) {
  const calls: { key: string; body: unknown }[] = [];
  const fetchMock = async (input: RequestInfo | URL, init?: RequestInit) => {
    const key = `${init?.method ?? 'GET'} ${String(input)}`;
    const body: unknown = typeof init?.body === 'string' ? JSON.parse(init.body) : undefined;
    calls.push({ key, body });
    const handler = routes[key];
    return handler ? handler(body) : jsonResponse(404, { statusCode: 404, code: 'NOT_FOUND', message: 'No encontrado' });
  };
  return { fetchMock, calls };
}
