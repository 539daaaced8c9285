import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen } from '@testing-library/react';
import { renderWithApp, signedInState } from '../../test/renderApp.tsx';
import { runFinished, runLeftScreen, runProgressed, runStarted } from '../runNotifications.ts';
import type { FinishedRun, RunningRun } from '../runNotifications.ts';
import { RUN_NOTIFICATION_LEAVE_MS, RUN_NOTIFICATION_MS, RunNotification } from './RunNotification.tsx';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

const run = (overrides: Partial<FinishedRun> = {}): FinishedRun => ({
  runId: 'run-1', flowId: 'validar-identificadores', flowName: 'Validar identificadores', status: 200, cost: 3,
  consoleLog: [], finishedAt: '2025-03-01T10:00:00.000Z', ...overrides,
});

function show(finished: FinishedRun) {
  const view = renderWithApp(<RunNotification />, { preloadedState: signedInState() });
  act(() => {
    view.store.dispatch(runFinished(finished));
  });
  return view;
}

const region = () => screen.queryByRole('complementary', { name: 'Último robot ejecutado' });
const elapse = (ms: number) => act(() => {
  vi.advanceTimersByTime(ms);
});

describe('RunNotification', () => {
  it('shows the latest run with its result and cost for 6 s, then shifts off', () => {
    const { store } = show(run());
    expect(region()).toBeTruthy();
    expect(screen.getByText('Validar identificadores: Finalizado')).toBeTruthy();
    expect(screen.getByText('Coste: 3 slans')).toBeTruthy();
    elapse(RUN_NOTIFICATION_MS - 10);
    expect(region()).toBeTruthy();
    elapse(10);
    expect(region()?.className).toContain('run-notification--leaving');
    elapse(RUN_NOTIFICATION_LEAVE_MS);
    expect(region()).toBeNull();
    expect(store.getState().runNotifications.latest).toBeNull();
  });

  it('names the outcome of a run that did not finish well', () => {
    show(run({ status: 504 }));
    expect(screen.getByText('Validar identificadores: Tiempo límite superado')).toBeTruthy();
  });

  it('opens by itself when the robot wrote lines for the user', () => {
    show(run({ consoleLog: ['3 filas con errores', 'Resultado guardado'] }));
    const toggle = screen.getByRole('button', { name: /Validar identificadores: Finalizado/ });
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    expect(screen.getByRole('list', { name: 'Mensajes del robot' }).textContent).toContain('3 filas con errores');
  });

  it('a click opens it and holds the timer; another closes it and the time left runs out', () => {
    show(run({ consoleLog: [] }));
    const toggle = screen.getByRole('button', { name: /Validar identificadores: Finalizado/ });
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    elapse(2000);
    fireEvent.click(toggle);
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    elapse(60_000);
    expect(region()).toBeTruthy();
    fireEvent.click(toggle);
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    elapse(RUN_NOTIFICATION_MS - 2000 - 10);
    expect(region()?.className).not.toContain('run-notification--leaving');
    elapse(10);
    elapse(RUN_NOTIFICATION_LEAVE_MS);
    expect(region()).toBeNull();
  });

  it('closes from the keyboard: the close button, or Escape', () => {
    show(run());
    fireEvent.click(screen.getByRole('button', { name: 'Cerrar aviso' }));
    expect(region()).toBeNull();
    show(run({ runId: 'run-2' }));
    fireEvent.keyDown(screen.getByRole('button', { name: /Validar identificadores/ }), { key: 'Escape' });
    expect(region()).toBeNull();
  });

  it('a newer run replaces the one showing, with a fresh 6 s', () => {
    const { store } = show(run());
    elapse(5000);
    act(() => {
      store.dispatch(runFinished(run({ runId: 'run-2', flowName: 'FIE a incidencias A3' })));
    });
    expect(screen.getByText('FIE a incidencias A3: Finalizado')).toBeTruthy();
    elapse(5000);
    expect(region()).toBeTruthy();
  });
});

const going = (overrides: Partial<RunningRun> = {}): Omit<RunningRun, 'dismissed'> => ({
  runId: 'run-1', flowId: 'validar-identificadores', flowName: 'Validar identificadores', successfulIterations: 45_000,
  totalIterations: 1_000_000, consoleLog: [], onScreen: false, ...overrides,
});

function showRunning(started: Omit<RunningRun, 'dismissed'>) {
  const view = renderWithApp(<RunNotification />, { preloadedState: signedInState() });
  act(() => {
    view.store.dispatch(runStarted(started));
  });
  return view;
}

const inProgress = () => screen.queryByRole('complementary', { name: 'Robot en curso' });
const bar = () => screen.getByRole('progressbar', { name: 'Progreso de Validar identificadores' });

describe('RunNotification while a run goes on (issue 19)', () => {
  it('shows the run in progress with its bar and es-ES figures, updated as the polls answer, and does not go away by itself', () => {
    const { store } = showRunning(going());
    expect(inProgress()).toBeTruthy();
    expect(screen.getByText('Validar identificadores: En curso')).toBeTruthy();
    expect(screen.getByText('45.000 de 1.000.000 completadas')).toBeTruthy();
    expect(bar().getAttribute('value')).toBe('45000');
    expect(bar().getAttribute('max')).toBe('1000000');

    act(() => {
      store.dispatch(runProgressed({ runId: 'run-1', successfulIterations: 4_500, totalIterations: 1_000_000, consoleLog: ['Fila 4.500'] }));
    });
    expect(screen.getByText('4.500 de 1.000.000 completadas')).toBeTruthy();
    expect(bar().getAttribute('value')).toBe('4500');

    elapse(10 * RUN_NOTIFICATION_MS);
    expect(inProgress()?.className).not.toContain('run-notification--leaving');
    expect(screen.getByText('4.500 de 1.000.000 completadas')).toBeTruthy();
  });

  it('before the robot gives figures the bar is there, without a value', () => {
    showRunning(going({ successfulIterations: 0, totalIterations: 0 }));
    expect(screen.getByText('Sin cifras de progreso todavía')).toBeTruthy();
    expect(bar().hasAttribute('value')).toBe(false);
  });

  it('leaves a run to the launcher while the launcher shows it, and shows it once the launcher is left', () => {
    const { store } = showRunning(going({ onScreen: true }));
    expect(inProgress()).toBeNull();
    act(() => {
      store.dispatch(runLeftScreen('run-1'));
    });
    expect(screen.getByText('Validar identificadores: En curso')).toBeTruthy();
  });

  it('turns into the finished notification when the run ends: the same element, its bar at the end figures, then the 6 s', () => {
    const { store } = showRunning(going());
    const element = inProgress();
    elapse(60_000);
    act(() => {
      store.dispatch(runFinished(run({ successfulIterations: 1_000_000, totalIterations: 1_000_000 })));
    });
    expect(region()).toBe(element);
    expect(screen.getByText('Validar identificadores: Finalizado')).toBeTruthy();
    expect(screen.getByText('Coste: 3 slans')).toBeTruthy();
    expect(bar().getAttribute('value')).toBe('1000000');
    elapse(RUN_NOTIFICATION_MS - 10);
    expect(region()?.className).not.toContain('run-notification--leaving');
    elapse(10);
    expect(region()?.className).toContain('run-notification--leaving');
    elapse(RUN_NOTIFICATION_LEAVE_MS);
    expect(region()).toBeNull();
    expect(store.getState().runNotifications).toEqual({ latest: null, running: [] });
  });

  it('when it ends with lines for the user it opens by itself, unless the pointer is over it', () => {
    const first = showRunning(going());
    act(() => {
      first.store.dispatch(runFinished(run({ consoleLog: ['3 filas con errores'] })));
    });
    expect(screen.getByRole('button', { name: /Finalizado/ }).getAttribute('aria-expanded')).toBe('true');
    first.unmount();

    const second = showRunning(going());
    fireEvent.pointerEnter(inProgress() as HTMLElement);
    act(() => {
      second.store.dispatch(runFinished(run({ consoleLog: ['3 filas con errores'] })));
    });
    expect(screen.getByRole('button', { name: /Finalizado/ }).getAttribute('aria-expanded')).toBe('false');
  });

  it('with several runs going it shows the latest launched and how many more', () => {
    const { store } = showRunning(going({ runId: 'run-1', flowName: 'FIE a incidencias A3' }));
    act(() => {
      store.dispatch(runStarted(going({ runId: 'run-2', flowName: 'Descargar justificantes' })));
      store.dispatch(runStarted(going({ runId: 'run-3', successfulIterations: 1_234, totalIterations: 20_000 })));
    });
    expect(screen.getByText('Validar identificadores: En curso')).toBeTruthy();
    expect(screen.getByText('1.234 de 20.000 completadas')).toBeTruthy();
    expect(screen.getByText('y 2 más en curso')).toBeTruthy();

    // The latest ends: its finished notification still says what goes on; after it, the next latest shows.
    act(() => {
      store.dispatch(runFinished(run({ runId: 'run-3' })));
    });
    expect(screen.getByText('Validar identificadores: Finalizado')).toBeTruthy();
    expect(screen.getByText('y 2 más en curso')).toBeTruthy();
    elapse(RUN_NOTIFICATION_MS);
    elapse(RUN_NOTIFICATION_LEAVE_MS);
    expect(screen.getByText('Descargar justificantes: En curso')).toBeTruthy();
    expect(screen.getByText('y 1 más en curso')).toBeTruthy();
  });

  it('closed while the run goes on (button or Escape), it stays closed until the run ends', () => {
    const { store } = showRunning(going());
    fireEvent.keyDown(screen.getByRole('button', { name: /En curso/ }), { key: 'Escape' });
    expect(inProgress()).toBeNull();
    act(() => {
      store.dispatch(runProgressed({ runId: 'run-1', successfulIterations: 50_000, totalIterations: 1_000_000, consoleLog: [] }));
    });
    expect(inProgress()).toBeNull();
    act(() => {
      store.dispatch(runFinished(run()));
    });
    expect(screen.getByText('Validar identificadores: Finalizado')).toBeTruthy();

    act(() => {
      store.dispatch(runStarted(going({ runId: 'run-2' })));
    });
    elapse(RUN_NOTIFICATION_MS);
    elapse(RUN_NOTIFICATION_LEAVE_MS);
    fireEvent.click(screen.getByRole('button', { name: 'Cerrar aviso' }));
    expect(inProgress()).toBeNull();
  });
});
