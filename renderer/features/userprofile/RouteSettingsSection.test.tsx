import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { OWNER_ONLY_SETTINGS_MESSAGE } from '#shared/api/groups.ts';
import type { RouteSettings } from '#shared/api/groups.ts';
import { jsonResponse, mockApi, renderWithApp, signedInState, testUser } from '../../test/renderApp.tsx';
import { RouteSettingsSection } from './RouteSettingsSection.tsx';

afterEach(() => vi.unstubAllGlobals());

const GET = 'GET /api/groups/route-settings';
const PUT = 'PUT /api/groups/route-settings';
const stored: RouteSettings = { hidden_routes: ['/scraper'], allowed_routes: [], defaultRoute: '/home' };

function renderSection(role: 'owner' | 'member', routes: Parameters<typeof mockApi>[0] = {}) {
  const api = mockApi({ [GET]: () => jsonResponse(200, stored), ...routes });
  vi.stubGlobal('fetch', api.fetchMock);
  const user = testUser({ role }, { hidden_routes: ['/scraper'] });
  const view = renderWithApp(<RouteSettingsSection />, { preloadedState: signedInState(user), toasts: true });
  return { api, ...view };
}

describe('RouteSettingsSection as the owner', () => {
  it('shows the stored settings with the screens by their menu names', async () => {
    renderSection('owner');
    const hideScraper = await screen.findByRole('checkbox', { name: 'Ocultar Extractor web' });
    expect((hideScraper as HTMLInputElement).checked).toBe(true);
    expect((screen.getByRole('checkbox', { name: 'Ocultar Roboteka' }) as HTMLInputElement).checked).toBe(false);
    expect(screen.getByRole('switch', { name: 'Gestor documental' }).getAttribute('aria-checked')).toBe('false');
    expect(screen.getByRole('switch', { name: 'Frumecar' }).getAttribute('aria-checked')).toBe('false');
    const start = screen.getByRole('combobox', { name: 'Pantalla de inicio' }) as HTMLSelectElement;
    expect(start.value).toBe('/home');
    expect(within(start).getByRole('option', { name: 'Inicio' })).toBeTruthy();
    // The document manager can be the start screen only once it is turned on.
    expect((within(start).getByRole('option', { name: 'Gestor documental' }) as HTMLOptionElement).disabled).toBe(true);
    expect(screen.queryByText('Solo el propietario puede cambiarlo.')).toBeNull();
  });

  it('saves what changed and updates the session so the menu follows', async () => {
    const saved: RouteSettings = { hidden_routes: ['/roboteka', '/scraper'], allowed_routes: ['/documanager'], defaultRoute: '/documanager' };
    const { api, store } = renderSection('owner', { [PUT]: () => jsonResponse(200, saved) });
    const save = await screen.findByRole('button', { name: 'Guardar pantallas' });
    expect((save as HTMLButtonElement).disabled).toBe(true);

    fireEvent.click(screen.getByRole('checkbox', { name: 'Ocultar Roboteka' }));
    fireEvent.click(screen.getByRole('switch', { name: 'Gestor documental' }));
    fireEvent.change(screen.getByRole('combobox', { name: 'Pantalla de inicio' }), { target: { value: '/documanager' } });
    fireEvent.click(save);

    expect(await screen.findByText('Configuración de pantallas guardada')).toBeTruthy();
    // In the contract's order, whatever order they were clicked in.
    expect(api.calls.find((call) => call.key === PUT)?.body).toEqual(saved);
    const config = store.getState().session.user?.group.config;
    expect(config?.hidden_routes).toEqual(['/roboteka', '/scraper']);
    expect(config?.allowed_routes).toEqual(['/documanager']);
    expect(config?.defaultRoute).toBe('/documanager');
  });

  it('does not save a start screen that is hidden', async () => {
    const { api } = renderSection('owner');
    fireEvent.change(await screen.findByRole('combobox', { name: 'Pantalla de inicio' }), { target: { value: '/roboteka' } });
    fireEvent.click(screen.getByRole('checkbox', { name: 'Ocultar Roboteka' }));
    expect((await screen.findByRole('alert')).textContent).toBe('La pantalla de inicio elegida está oculta o desactivada: elige otra.');
    expect((screen.getByRole('button', { name: 'Guardar pantallas' }) as HTMLButtonElement).disabled).toBe(true);
    expect(api.calls.some((call) => call.key === PUT)).toBe(false);
  });

  it('shows the server’s reason when the save is refused and keeps the session as it was', async () => {
    const { store } = renderSection('owner', { [PUT]: () => jsonResponse(403, { statusCode: 403, code: 'FORBIDDEN', message: OWNER_ONLY_SETTINGS_MESSAGE }) });
    fireEvent.click(await screen.findByRole('checkbox', { name: 'Ocultar Roboteka' }));
    fireEvent.click(screen.getByRole('button', { name: 'Guardar pantallas' }));
    expect(await screen.findByText(OWNER_ONLY_SETTINGS_MESSAGE)).toBeTruthy();
    expect(store.getState().session.user?.group.config.hidden_routes).toEqual(['/scraper']);
  });
});

describe('RouteSettingsSection as a member', () => {
  it('shows the settings read-only and says only the owner can change them', async () => {
    const { api } = renderSection('member');
    expect(await screen.findByText('Solo el propietario puede cambiarlo.')).toBeTruthy();
    const hideScraper = screen.getByRole('checkbox', { name: 'Ocultar Extractor web' }) as HTMLInputElement;
    expect(hideScraper.checked).toBe(true);
    expect(hideScraper.disabled).toBe(true);
    expect((screen.getByRole('switch', { name: 'Gestor documental' }) as HTMLButtonElement).disabled).toBe(true);
    expect((screen.getByRole('combobox', { name: 'Pantalla de inicio' }) as HTMLSelectElement).disabled).toBe(true);
    expect(screen.queryByRole('button', { name: 'Guardar pantallas' })).toBeNull();
    await waitFor(() => expect(api.calls.map((call) => call.key)).toEqual([GET]));
  });

  it('offers a retry when the settings cannot be loaded', async () => {
    let failures = 1;
    renderSection('member', { [GET]: () => (failures-- > 0 ? jsonResponse(500, { statusCode: 500, code: 'INTERNAL', message: 'Error' }) : jsonResponse(200, stored)) });
    expect(await screen.findByText('No se ha podido cargar la configuración de pantallas.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Reintentar' }));
    expect(await screen.findByText('Solo el propietario puede cambiarlo.')).toBeTruthy();
  });
});
