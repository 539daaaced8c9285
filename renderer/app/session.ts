import { createSlice } from '@reduxjs/toolkit';
import type { PayloadAction } from '@reduxjs/toolkit';
import type { UserData } from '#shared/domain/user.ts';

/**
 * unknown: nobody asked the server yet; restoring: GET /api/auth/session in flight;
 * authenticated / anonymous: the answer.
 */
export type SessionStatus = 'unknown' | 'restoring' | 'authenticated' | 'anonymous';

export interface SessionState {
  status: SessionStatus;
  user: UserData | null;
  /** Where an unauthenticated visitor wanted to go; used once after login. */
  redirectTarget: string | null;
}

const initialState: SessionState = { status: 'unknown', user: null, redirectTarget: null };

export const sessionSlice = createSlice({
  name: 'session',
  initialState,
  reducers: {
    restoreStarted(state) {
      state.status = 'restoring';
    },
    signedIn(state, action: PayloadAction<UserData>) {
      state.status = 'authenticated';
      state.user = action.payload;
    },
    userUpdated(state, action: PayloadAction<UserData>) {
      state.user = action.payload;
    },
    /** Logout, a failed restore or a failed refresh: the session is gone. */
    signedOut(state) {
      state.status = 'anonymous';
      state.user = null;
    },
    targetSaved(state, action: PayloadAction<string>) {
      state.redirectTarget = action.payload;
    },
    targetConsumed(state) {
      state.redirectTarget = null;
    },
  },
});

export const { restoreStarted, signedIn, userUpdated, signedOut, targetSaved, targetConsumed } = sessionSlice.actions;
