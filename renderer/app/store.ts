import { combineSlices, configureStore, createAction, createDynamicMiddleware } from '@reduxjs/toolkit';
import type { Middleware, Reducer, UnknownAction } from '@reduxjs/toolkit';
import type { CombinedState, EndpointDefinitions } from '@reduxjs/toolkit/query';
import { runNotificationsSlice } from './runNotifications.ts';
import { sessionSlice } from './session.ts';
import { toastsSlice } from './toasts.ts';
import { uiSlice } from './ui.ts';

/**
 * What the store takes of RTK Query's api (api/baseApi.ts): its state slot, reducer and middleware.
 * Named here rather than imported, so that the store and the api it waits for do not import each other.
 */
export interface LazyApi {
  reducerPath: 'api';
  reducer: Reducer<CombinedState<EndpointDefinitions, string, 'api'>, UnknownAction>;
  middleware: Middleware;
}
type Api = LazyApi;

/*
 * The session slice is the one source of truth about who is signed in, from the first screen on.
 * RTK Query (baseApi and every feature's endpoints) joins later: a first visit to /auth signs in
 * with plain calls (api/session.ts) and never downloads it. When baseApi.ts is first loaded it calls
 * apiLoaded(), and every store adds the api's reducer and middleware before any screen uses them.
 */
const rootReducer = combineSlices(sessionSlice, toastsSlice, uiSlice, runNotificationsSlice).withLazyLoadedSlices<{
  [K in Api['reducerPath']]: ReturnType<Api['reducer']>;
}>();

export type RootState = ReturnType<typeof rootReducer>;

/** Runs the reducer once after the api joins, so state.api exists before any query reads it. */
const apiConnected = createAction('app/apiConnected');

let loadedApi: Api | null = null;
/** Stores made before the api was loaded, each waiting to add its middleware. */
const storesWaitingForApi = new Set<(api: Api) => void>();

/** baseApi.ts calls this once, as it loads. */
export function apiLoaded(api: Api): void {
  if (loadedApi) return;
  loadedApi = api;
  rootReducer.inject(api);
  for (const connect of storesWaitingForApi) connect(api);
  storesWaitingForApi.clear();
}

/** A fresh store; main.tsx makes the app's one, tests make their own. */
export function createAppStore(preloadedState?: Partial<RootState>) {
  const apiMiddleware = createDynamicMiddleware();
  const store = configureStore({
    reducer: rootReducer,
    preloadedState,
    middleware: (getDefault) => getDefault().concat(apiMiddleware.middleware),
  });
  const connect = (api: Api) => {
    apiMiddleware.addMiddleware(api.middleware);
    store.dispatch(apiConnected());
  };
  if (loadedApi) connect(loadedApi);
  else storesWaitingForApi.add(connect);
  return store;
}

export type AppStore = ReturnType<typeof createAppStore>;
export type AppDispatch = AppStore['dispatch'];
