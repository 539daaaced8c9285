import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import AltasBajasPage from './AltasBajasPage.tsx';

afterEach(cleanup);

describe('AltasBajasPage', () => {
  it('shows the area name with the dashboard title, an honest notice and the two empty lists', () => {
    render(<AltasBajasPage />);
    expect(screen.getByRole('heading', { level: 1, name: 'Altas y bajas' })).toBeTruthy();
    expect(screen.getByText('Altas | Historial y Pendientes')).toBeTruthy();
    expect(screen.getByRole('region', { name: 'Próximamente' }).textContent).toContain('Esta sección aún no está disponible en esta versión.');
    expect(screen.getByRole('region', { name: 'Pendientes' }).textContent).toContain('No hay altas pendientes.');
    expect(screen.getByRole('region', { name: 'Historial' }).textContent).toContain('Todavía no hay altas en el historial.');
  });

  it('opens the company configuration, shows its empty state and goes back', () => {
    render(<AltasBajasPage />);
    fireEvent.click(screen.getByRole('button', { name: 'Configuración de empresas y grupos' }));
    expect(screen.getByRole('heading', { level: 1, name: 'Configuración de empresas y grupos' })).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Todavía no tienes ninguna empresa registrada.' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Volver' }));
    expect(screen.getByRole('heading', { level: 1, name: 'Altas y bajas' })).toBeTruthy();
  });
});
