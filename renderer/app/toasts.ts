import { createSlice } from '@reduxjs/toolkit';
import type { PayloadAction } from '@reduxjs/toolkit';

/** Toast lifetimes of spec §9. */
export const TOAST_DURATION_MS = {
  error: 3000,
  copy: 1500,
  emailSuccess: 4000,
  fie: 5000,
  default: 3000,
} as const;

export type ToastKind = 'error' | 'success' | 'info';

export interface Toast {
  id: number;
  kind: ToastKind;
  message: string;
  durationMs: number;
}

interface ToastsState {
  items: Toast[];
  nextId: number;
}

const initialState: ToastsState = { items: [], nextId: 1 };

export const toastsSlice = createSlice({
  name: 'toasts',
  initialState,
  reducers: {
    toastShown: {
      reducer(state, action: PayloadAction<Omit<Toast, 'id'>>) {
        // The same message again (a hint clicked twice, a retry failing again) replaces the one on
        // screen, with a fresh lifetime, instead of stacking copies of it.
        const { kind, message } = action.payload;
        state.items = state.items.filter((toast) => toast.kind !== kind || toast.message !== message);
        state.items.push({ ...action.payload, id: state.nextId });
        state.nextId += 1;
      },
      prepare(kind: ToastKind, message: string, durationMs?: number) {
        const fallback = kind === 'error' ? TOAST_DURATION_MS.error : TOAST_DURATION_MS.default;
        return { payload: { kind, message, durationMs: durationMs ?? fallback } };
      },
    },
    toastDismissed(state, action: PayloadAction<number>) {
      state.items = state.items.filter((toast) => toast.id !== action.payload);
    },
  },
});

export const { toastShown, toastDismissed } = toastsSlice.actions;
