import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import { jsonResponse, mockApi, renderWithApp, signedInState } from '../../test/renderApp.tsx';
import HelpPage from './HelpPage.tsx';

afterEach(() => vi.unstubAllGlobals());

const withSupport = (email = 'ayuda@mi-asesoria.es') => {
  vi.stubGlobal('fetch', mockApi({ 'GET /api/support': () => jsonResponse(200, { email }) }).fetchMock);
};

describe('HelpPage', () => {
  it('gives the configured support address as a mailto link and is honest about tickets', async () => {
    withSupport();
    renderWithApp(<HelpPage />, { preloadedState: signedInState() });
    expect(screen.getByRole('heading', { level: 1, name: 'Ayuda' })).toBeTruthy();
    const link = await screen.findByRole('link', { name: 'ayuda@mi-asesoria.es' });
    expect(link.getAttribute('href')).toBe('mailto:ayuda@mi-asesoria.es');
    const support = screen.getByRole('article', { name: 'Cómo contactar con soporte' });
    expect(support.textContent).toContain('Escríbenos a');
    expect(support.textContent).toContain('aún no está disponible');
  });

  it('says so when the address cannot be loaded, instead of a dead end', async () => {
    vi.stubGlobal('fetch', mockApi({ 'GET /api/support': () => jsonResponse(500, { statusCode: 500, code: 'INTERNAL', message: 'x' }) }).fetchMock);
    renderWithApp(<HelpPage />, { preloadedState: signedInState() });
    expect((await screen.findByRole('alert')).textContent).toContain('administrador de tu asesoría');
    expect(screen.queryByRole('link', { name: /@/ })).toBeNull();
  });

  it('describes each area with its availability, linking the available ones', () => {
    withSupport();
    renderWithApp(<HelpPage />, { preloadedState: signedInState() });
    expect(screen.getByRole('link', { name: 'Pagos' }).getAttribute('href')).toBe('/payments');
    // Areas of this version link to their screen; the ones still to come say so, unlinked.
    expect(screen.getByRole('link', { name: 'Procesador FIE' }).getAttribute('href')).toBe('/fie');
    expect(screen.getByRole('link', { name: 'Altas y bajas' }).getAttribute('href')).toBe('/altasybajas');
    expect(screen.getByRole('link', { name: 'Notificaciones DEHÚ' }).getAttribute('href')).toBe('/notifications');
    const recorder = screen.getByText('Grabador de tareas').closest('div');
    expect(recorder?.textContent).toContain('Aún no disponible');
    expect(recorder?.textContent).toContain('grabar una tarea');
    expect(screen.queryByRole('link', { name: 'Grabador de tareas' })).toBeNull();
  });
});
