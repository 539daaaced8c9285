import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import { jsonResponse, mockApi, renderWithApp, signedInState } from '../../test/renderApp.tsx';
import PaymentsPage from './PaymentsPage.tsx';

afterEach(() => vi.unstubAllGlobals());

describe('PaymentsPage', () => {
  it('shows the plan and usage and says online payment is not available yet', async () => {
    const usage = { active: true, trialing: false, name: 'Plan Pro', balance: 500, cancelled: false, usageLimit: 2000, usedSlans: 1500, slansPercentage: 75, excededSlans: 0, extraPrice: 0, nextPaymentDate: '2025-03-31T23:30:00.000Z', paymentFailed: false };
    vi.stubGlobal('fetch', mockApi({ 'GET /api/subscriptions/usage': () => jsonResponse(200, usage) }).fetchMock);
    renderWithApp(<PaymentsPage />, { preloadedState: signedInState() });

    expect(await screen.findByText('Plan Pro')).toBeTruthy();
    expect(screen.getByRole('progressbar', { name: 'Consumo del periodo' }).getAttribute('aria-valuenow')).toBe('75');
    expect(screen.getByText('1500 slans de 2000 slans')).toBeTruthy();
    expect(screen.getByText('500 slans')).toBeTruthy();
    // 23:30 UTC on 31 March is already 1 April in Madrid.
    expect(screen.getByText('01/04/2025')).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'El pago en línea todavía no está disponible en esta versión.' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: /pagar/i })).toBeNull();
    expect(screen.getByRole('link', { name: 'Cómo contactar con soporte' }).getAttribute('href')).toBe('/help');
  });
});
