import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import type { ExpiringCertificate } from '#shared/api/machines.ts';
import { jsonResponse, mockApi, renderRoutes, renderWithApp, signedInState } from '../../test/renderApp.tsx';
import { ExpiryWarning, expiringSoon } from './ExpiryWarning.tsx';
import { TopBar } from './TopBar.tsx';

const EXPIRING = 'GET /api/certificates/expiring?days=60';

function expiring(digit: string, daysLeft: number, machine = 'PC Recepción'): ExpiringCertificate {
  return {
    _id: `${digit}-${machine}`, fingerprint: digit.repeat(64), serialNumber: '01', subjectString: 'CN=X', subject: { CN: `CERT ${digit}` },
    issuer: 'AC FNMT Usuarios', notBefore: '2024-01-01T00:00:00Z', notAfter: '2026-01-01T00:00:00Z', nifVat: '12345678Z', kind: 'person',
    store: 'windows', machine: { _id: machine, name: machine }, syncedAt: '2025-01-01T00:00:00Z',
    daysLeft, threshold: daysLeft < 0 ? 0 : [1, 7, 14, 30, 60].find((limit) => daysLeft <= limit) ?? 60,
  };
}

function renderWarning(items: ExpiringCertificate[]) {
  const api = mockApi({ [EXPIRING]: () => jsonResponse(200, { items, days: 60 }) });
  vi.stubGlobal('fetch', api.fetchMock);
  renderWithApp(<ExpiryWarning />, { preloadedState: signedInState() });
  return api;
}

afterEach(() => vi.unstubAllGlobals());

describe('expiringSoon', () => {
  it('counts certificates within 30 days or expired, once each however many machines hold them', () => {
    expect(expiringSoon([expiring('a', 45), expiring('b', 30), expiring('c', -3), expiring('b', 30, 'Portátil')])).toEqual({ count: 2, urgent: true });
    expect(expiringSoon([expiring('a', 8), expiring('b', 20)])).toEqual({ count: 2, urgent: false });
    expect(expiringSoon([expiring('a', 7)])).toEqual({ count: 1, urgent: true });
    expect(expiringSoon([expiring('a', 31), expiring('b', 60)])).toEqual({ count: 0, urgent: false });
  });
});

describe('ExpiryWarning', () => {
  it('links to the radar with the count, amber when none is within a week', async () => {
    renderWarning([expiring('a', 20), expiring('b', 12), expiring('c', 50)]);
    const chip = await screen.findByRole('link', { name: '2 certificados caducan pronto. Ver caducidades' });
    expect(chip.getAttribute('href')).toBe('/workspace?vista=caducidades');
    expect(chip.textContent).toBe('2certificados caducan pronto');
    expect(chip.className).not.toContain('app-expiry-chip--urgent');
  });

  it('turns red when one is a week away or has expired, and says "caduca" for one', async () => {
    renderWarning([expiring('a', -2)]);
    const chip = await screen.findByRole('link', { name: '1 certificado caduca pronto. Ver caducidades' });
    expect(chip.className).toContain('app-expiry-chip--urgent');
  });

  it('shows nothing when none is within 30 days', async () => {
    const api = renderWarning([expiring('a', 45)]);
    await waitFor(() => expect(api.calls.map((call) => call.key)).toContain(EXPIRING));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(screen.queryByRole('link')).toBeNull();
  });

  it('sits in the top bar', async () => {
    vi.stubGlobal('fetch', mockApi({ [EXPIRING]: () => jsonResponse(200, { items: [expiring('a', 3)], days: 60 }) }).fetchMock);
    renderWithApp(<TopBar menuOpen={false} />, { preloadedState: signedInState() });
    expect(await screen.findByRole('link', { name: /1 certificado caduca pronto/ })).toBeTruthy();
  });

  it('is not asked for on /auth, signed out', async () => {
    const api = mockApi({
      'GET /api/auth/session': () => jsonResponse(200, { userData: null }),
      [EXPIRING]: () => jsonResponse(200, { items: [expiring('a', 3)], days: 60 }),
    });
    vi.stubGlobal('fetch', api.fetchMock);
    renderRoutes({ path: '/auth' });
    expect(await screen.findByRole('heading', { name: 'Inicia sesión' })).toBeTruthy();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(api.calls.map((call) => call.key)).not.toContain(EXPIRING);
    expect(screen.queryByRole('link', { name: /caduca/ })).toBeNull();
  });
});
