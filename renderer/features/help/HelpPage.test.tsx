import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import HelpPage from './HelpPage.tsx';

afterEach(cleanup);

describe('HelpPage', () => {
  it('explains how to reach support and is honest about tickets', () => {
    render(<MemoryRouter><HelpPage /></MemoryRouter>);
    expect(screen.getByRole('heading', { level: 1, name: 'Ayuda' })).toBeTruthy();
    const support = screen.getByRole('article', { name: 'Cómo contactar con soporte' });
    expect(support.textContent).toContain('administrador de tu asesoría');
    expect(support.textContent).toContain('aún no está disponible');
  });

  it('describes each area with its availability, linking the available ones', () => {
    render(<MemoryRouter><HelpPage /></MemoryRouter>);
    expect(screen.getByRole('link', { name: 'Pagos' }).getAttribute('href')).toBe('/payments');
    const fie = screen.getByText('Procesador FIE').closest('div');
    expect(fie?.textContent).toContain('Aún no disponible');
    expect(fie?.textContent).toContain('ficheros FIE de SILTRA');
    expect(screen.queryByRole('link', { name: 'Procesador FIE' })).toBeNull();
  });
});
