import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import FlowsPage from './FlowsPage.tsx';

afterEach(cleanup);

function CurrentPath() {
  return <output aria-label="ruta">{useLocation().pathname}</output>;
}

function renderAt(path: string) {
  render(
    <MemoryRouter initialEntries={[path]}>
      <Routes>
        <Route path="/flows/:id?" element={<><FlowsPage /><CurrentPath /></>} />
      </Routes>
    </MemoryRouter>,
  );
}

describe('FlowsPage', () => {
  it('with no flow selected shows the robot history, its filters and the empty table message', () => {
    renderAt('/flows');
    expect(screen.getByRole('heading', { level: 1, name: 'Robots' })).toBeTruthy();
    expect(screen.getByRole('heading', { level: 2, name: 'Historial de robots' })).toBeTruthy();
    for (const label of ['Todos', 'Manuales', 'Programados y remotos']) expect(screen.getByRole('radio', { name: label })).toBeTruthy();
    expect(screen.getByRole('table', { name: 'Historial de robots' })).toBeTruthy();
    expect(screen.getByRole('cell', { name: 'No se han encontrado registros' })).toBeTruthy();
    for (const header of ['Robot y tipo de lanzamiento', 'Fecha y hora', 'Resultado', 'Coste']) {
      expect(screen.getByRole('columnheader', { name: header })).toBeTruthy();
    }
  });

  it('says honestly that the robot list is not available yet', () => {
    renderAt('/flows');
    expect(screen.getByText(/La lista de robots y el historial de ejecuciones aún no están disponibles en esta versión\./)).toBeTruthy();
  });

  it('switches the history filter', () => {
    renderAt('/flows');
    fireEvent.click(screen.getByRole('radio', { name: 'Manuales' }));
    expect(screen.getByRole('radio', { name: 'Manuales' }).getAttribute('aria-checked')).toBe('true');
    expect(screen.getByRole('cell', { name: 'No se han encontrado registros' })).toBeTruthy();
  });

  it('clears an id that matches no flow', () => {
    renderAt('/flows/robot-que-no-existe');
    expect(screen.getByRole('status', { name: 'ruta' }).textContent).toBe('/flows');
    expect(screen.getByRole('heading', { level: 2, name: 'Historial de robots' })).toBeTruthy();
  });
});
