import { createSlice } from '@reduxjs/toolkit';
import type { PayloadAction } from '@reduxjs/toolkit';

/** A run started from the launcher that has just finished, as the floating notification shows it. */
export interface FinishedRun {
  runId: string;
  flowId: string;
  flowName: string;
  /** The launch status of spec §4 (200, 242, 500, 504, 202 stopped...). */
  status: number;
  /** Slans charged. */
  cost: number;
  /** What the robot wrote for the user; the notification opens itself when there is any. */
  consoleLog: string[];
  finishedAt: string;
}

interface RunNotificationsState {
  latest: FinishedRun | null;
}

const initialState: RunNotificationsState = { latest: null };

/** Spec §4 Run notification: only the latest finished run is shown. */
export const runNotificationsSlice = createSlice({
  name: 'runNotifications',
  initialState,
  reducers: {
    runFinished(state, action: PayloadAction<FinishedRun>) {
      state.latest = action.payload;
    },
    runNotificationDismissed(state, action: PayloadAction<string>) {
      // Only the run that was shown: a newer one that finished meanwhile stays.
      if (state.latest?.runId === action.payload) state.latest = null;
    },
  },
});

export const { runFinished, runNotificationDismissed } = runNotificationsSlice.actions;
