import { combineReducers, configureStore } from '@reduxjs/toolkit';
import { baseApi } from '../api/baseApi.ts';
import { runNotificationsSlice } from './runNotifications.ts';
import { sessionSlice } from './session.ts';
import { toastsSlice } from './toasts.ts';
import { uiSlice } from './ui.ts';

const rootReducer = combineReducers({
  [baseApi.reducerPath]: baseApi.reducer,
  session: sessionSlice.reducer,
  toasts: toastsSlice.reducer,
  ui: uiSlice.reducer,
  runNotifications: runNotificationsSlice.reducer,
});

export type RootState = ReturnType<typeof rootReducer>;

/** A fresh store; main.tsx makes the app's one, tests make their own. */
export function createAppStore(preloadedState?: Partial<RootState>) {
  return configureStore({
    reducer: rootReducer,
    preloadedState,
    middleware: (getDefault) => getDefault().concat(baseApi.middleware),
  });
}

export type AppStore = ReturnType<typeof createAppStore>;
export type AppDispatch = AppStore['dispatch'];
