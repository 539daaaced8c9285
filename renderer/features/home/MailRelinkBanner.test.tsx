/** Home's mail banner: only for an account the provider refused, naming it, with the way to the wizard. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import type { MailAccount } from '#shared/api/mail.ts';
import { jsonResponse, mockApi, renderWithApp, signedInState } from '../../test/renderApp.tsx';
import HomePage from './HomePage.tsx';

afterEach(() => {
  vi.unstubAllGlobals();
});

const account = (overrides: Partial<MailAccount>): MailAccount => ({
  _id: 'acc-1', provider: 'google', email: 'despacho@asesoria.es', status: 'linked', problem: null, mine: true,
  linkedBy: { name: 'Ana', email: 'ana@asesoria.es' }, linkedAt: '2026-11-01T09:00:00.000Z', lastUsedAt: null, ...overrides,
});
const refused = (email: string, id: string) => account({ _id: id, email, status: 'needs_relink', problem: 'El proveedor ha retirado el permiso.' });

function renderHome(accounts: MailAccount[]) {
  const api = mockApi({ 'GET /api/mail/accounts': () => jsonResponse(200, { items: accounts }) });
  vi.stubGlobal('fetch', api.fetchMock);
  renderWithApp(<HomePage />, { path: '/home', preloadedState: signedInState() });
  return api.calls;
}

describe('Home mail re-link banner', () => {
  it('names the account that needs linking again and links to the email configuration', async () => {
    renderHome([account({}), refused('nominas@asesoria.es', 'acc-2')]);
    const banner = (await screen.findByText('La cuenta de correo nominas@asesoria.es necesita volver a conectarse')).closest('[role="status"]');
    expect(banner?.querySelector('svg')).not.toBeNull();
    expect(screen.getByRole('link', { name: 'Configurar correo' }).getAttribute('href')).toBe('/email');
  });

  it('lists several in one line', async () => {
    renderHome([refused('a@asesoria.es', 'acc-2'), refused('b@asesoria.es', 'acc-3')]);
    expect(await screen.findByText('Las cuentas de correo a@asesoria.es, b@asesoria.es necesitan volver a conectarse')).toBeTruthy();
  });

  it('shows nothing when every account is linked', async () => {
    const calls = renderHome([account({})]);
    await waitFor(() => expect(calls.some((call) => call.key === 'GET /api/mail/accounts')).toBe(true));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByRole('link', { name: 'Configurar correo' })).toBeNull();
  });
});
