import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen } from '@testing-library/react';
import { renderWithApp, signedInState } from '../../test/renderApp.tsx';
import { runFinished } from '../runNotifications.ts';
import type { FinishedRun } from '../runNotifications.ts';
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
