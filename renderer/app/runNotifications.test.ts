import { describe, expect, it } from 'vitest';
import {
  RUNNING_LINES_KEPT, runFinished, runForgotten, runLeftScreen, runNotificationDismissed, runNotificationsSlice, runProgressed, runStarted, selectShownRun,
} from './runNotifications.ts';
import type { FinishedRun, RunningRun } from './runNotifications.ts';

const reduce = runNotificationsSlice.reducer;
type State = ReturnType<typeof reduce>;
const shown = (state: State) => selectShownRun({ runNotifications: state });

const going = (runId: string, overrides: Partial<RunningRun> = {}): Omit<RunningRun, 'dismissed'> => ({
  runId, flowId: 'f', flowName: `Robot ${runId}`, successfulIterations: 0, totalIterations: 10, consoleLog: [], onScreen: false, ...overrides,
});
const finished = (runId: string): FinishedRun => ({
  runId, flowId: 'f', flowName: `Robot ${runId}`, status: 200, cost: 1, consoleLog: [], finishedAt: '2025-03-01T10:00:00.000Z',
});

function after(...actions: Parameters<typeof reduce>[1][]): State {
  return actions.reduce(reduce, reduce(undefined, { type: 'init' }));
}

describe('runNotifications', () => {
  it('shows nothing while the launcher shows its run; the run once the launcher is left', () => {
    expect(shown(after(runStarted(going('a', { onScreen: true }))))).toBeNull();
    expect(shown(after(runStarted(going('a', { onScreen: true })), runLeftScreen('a')))).toMatchObject({ kind: 'running', run: { runId: 'a' }, othersRunning: 0 });
  });

  it('a poll updates the figures and keeps the last lines only', () => {
    const lines = Array.from({ length: 50 }, (_, index) => `línea ${index}`);
    const state = after(runStarted(going('a')), runProgressed({ runId: 'a', successfulIterations: 7, totalIterations: 10, consoleLog: lines }));
    expect(state.running[0]).toMatchObject({ successfulIterations: 7, totalIterations: 10 });
    expect(state.running[0]?.consoleLog).toEqual(lines.slice(-RUNNING_LINES_KEPT));
    // A run no longer followed is not brought back by a late answer.
    expect(after(runStarted(going('a')), runForgotten('a'), runProgressed({ runId: 'a', successfulIterations: 1, totalIterations: 2, consoleLog: [] })).running).toEqual([]);
  });

  it('the latest launched run off screen shows, with how many more go on off screen', () => {
    const state = after(runStarted(going('a')), runStarted(going('b')), runStarted(going('c', { onScreen: true })));
    expect(shown(state)).toMatchObject({ kind: 'running', run: { runId: 'b' }, othersRunning: 1 });
  });

  it('a finished run takes the notification for its time, then the runs still going show again', () => {
    let state = after(runStarted(going('a')), runStarted(going('b')), runFinished(finished('b')));
    expect(state.running.map((run) => run.runId)).toEqual(['a']);
    expect(shown(state)).toMatchObject({ kind: 'finished', run: { runId: 'b' }, othersRunning: 1 });
    state = reduce(state, runNotificationDismissed('b'));
    expect(shown(state)).toMatchObject({ kind: 'running', run: { runId: 'a' }, othersRunning: 0 });
  });

  it('closing a run in progress hides the in-progress notification until a run ends or another is left off screen', () => {
    let state = after(runStarted(going('a')), runStarted(going('b')), runNotificationDismissed('b'));
    expect(shown(state)).toBeNull();
    state = reduce(state, runFinished(finished('a')));
    expect(shown(state)).toMatchObject({ kind: 'finished', run: { runId: 'a' } });
    state = reduce(state, runNotificationDismissed('a'));
    expect(shown(state)).toBeNull();
    state = reduce(reduce(state, runStarted(going('c', { onScreen: true }))), runLeftScreen('c'));
    expect(shown(state)).toMatchObject({ kind: 'running', run: { runId: 'c' }, othersRunning: 1 });
  });

  it('the same launch answered twice (a retry with its key) is one run', () => {
    expect(after(runStarted(going('a')), runStarted(going('a', { successfulIterations: 3 }))).running).toHaveLength(1);
  });
});
