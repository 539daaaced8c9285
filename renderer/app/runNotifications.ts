import { createSelector, createSlice } from '@reduxjs/toolkit';
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
  /** Rows or entries done of total when it ended, as its last state told (0 of 0 when it never said). */
  successfulIterations?: number;
  totalIterations?: number;
}

/** A run launched from the launcher that is still going, as the polls of its launch report it. */
export interface RunningRun {
  runId: string;
  flowId: string;
  flowName: string;
  successfulIterations: number;
  totalIterations: number;
  /** The last lines the robot wrote so far (at most RUNNING_LINES_KEPT). */
  consoleLog: string[];
  /** The launcher is showing it: the notification leaves it to the launcher until it is left. */
  onScreen: boolean;
  /** The user closed its in-progress notification: it shows again when it ends. */
  dismissed: boolean;
}

/** How many of a running run's last console lines the notification keeps. */
export const RUNNING_LINES_KEPT = 20;

interface RunNotificationsState {
  latest: FinishedRun | null;
  /** Runs still going, in the order they were launched (the last is the latest). */
  running: RunningRun[];
}

const initialState: RunNotificationsState = { latest: null, running: [] };

export type RunProgressUpdate = Pick<RunningRun, 'runId' | 'successfulIterations' | 'totalIterations' | 'consoleLog'>;

/**
 * Spec §4 Run notification: only the latest finished run is shown. Issue 19: while runs launched from
 * the launcher are going and the launcher no longer shows them, it shows the latest launched of them.
 */
export const runNotificationsSlice = createSlice({
  name: 'runNotifications',
  initialState,
  reducers: {
    /** A launch was accepted: its run is followed until it ends. */
    runStarted(state, action: PayloadAction<Omit<RunningRun, 'dismissed'>>) {
      const run = { ...action.payload, consoleLog: action.payload.consoleLog.slice(-RUNNING_LINES_KEPT), dismissed: false };
      state.running = [...state.running.filter((entry) => entry.runId !== run.runId), run];
    },
    /** A poll told how far the run is. */
    runProgressed(state, action: PayloadAction<RunProgressUpdate>) {
      const run = state.running.find((entry) => entry.runId === action.payload.runId);
      if (!run) return;
      run.successfulIterations = action.payload.successfulIterations;
      run.totalIterations = action.payload.totalIterations;
      run.consoleLog = action.payload.consoleLog.slice(-RUNNING_LINES_KEPT);
    },
    /** The launcher no longer shows the run (left, Repetir, another launch): the notification does. */
    runLeftScreen(state, action: PayloadAction<string>) {
      const run = state.running.find((entry) => entry.runId === action.payload);
      if (run) run.onScreen = false;
    },
    /** No longer followed without an Output (the server refused the poll, the robot did not start). */
    runForgotten(state, action: PayloadAction<string>) {
      state.running = state.running.filter((entry) => entry.runId !== action.payload);
    },
    runFinished(state, action: PayloadAction<FinishedRun>) {
      state.running = state.running.filter((entry) => entry.runId !== action.payload.runId);
      state.latest = action.payload;
    },
    runNotificationDismissed(state, action: PayloadAction<string>) {
      // Only the run that was shown: a newer one that finished meanwhile stays.
      if (state.latest?.runId === action.payload) {
        state.latest = null;
        return;
      }
      const run = state.running.find((entry) => entry.runId === action.payload);
      if (run) run.dismissed = true;
    },
  },
});

export const { runStarted, runProgressed, runLeftScreen, runForgotten, runFinished, runNotificationDismissed } = runNotificationsSlice.actions;

/** What the notification shows: a finished run (for its 6 s) or a run in progress; and how many more are going. */
export type ShownRun =
  | { kind: 'finished'; run: FinishedRun; othersRunning: number }
  | { kind: 'running'; run: RunningRun; othersRunning: number };

/**
 * The latest finished run while it is there; otherwise the latest launched run that is going and that
 * the launcher does not show (unless the user closed its notification). `othersRunning` counts the
 * other runs going that the launcher does not show either.
 */
export const selectShownRun = createSelector(
  [(state: { runNotifications: RunNotificationsState }) => state.runNotifications],
  ({ latest, running }): ShownRun | null => {
    const offScreen = running.filter((entry) => !entry.onScreen);
    if (latest) return { kind: 'finished', run: latest, othersRunning: offScreen.length };
    const newest = offScreen.at(-1);
    if (!newest || newest.dismissed) return null;
    return { kind: 'running', run: newest, othersRunning: offScreen.length - 1 };
  },
);
