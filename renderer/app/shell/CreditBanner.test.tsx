import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen } from '@testing-library/react';
import { Route, Routes } from 'react-router-dom';
import { PAYMENT_FAILED_BANNER } from '#shared/api/billing.ts';
import { jsonResponse, mockApi, renderWithApp, signedInState } from '../../test/renderApp.tsx';
import { CreditBanner } from './CreditBanner.tsx';

afterEach(() => vi.unstubAllGlobals());

const usage = {
  active: true, trialing: false, name: 'Plan Pro', balance: 100, cancelled: false, usageLimit: 2000, usedSlans: 1900,
  slansPercentage: 95, excededSlans: 0, extraPrice: 0, nextPaymentDate: null, paymentFailed: false,
};

function renderBanner(answer: typeof usage) {
  vi.stubGlobal('fetch', mockApi({ 'GET /api/subscriptions/usage': () => jsonResponse(200, answer) }).fetchMock);
  renderWithApp(
    <Routes>
      <Route path="/" element={<CreditBanner />} />
      <Route path="/payments" element={<p>Página de pagos</p>} />
    </Routes>,
    { preloadedState: signedInState() },
  );
}

describe('CreditBanner, failed payment', () => {
  it('puts the failed payment first, alone, with a way to the payments page', async () => {
    renderBanner({ ...usage, slansPercentage: 100, paymentFailed: true });

    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain(PAYMENT_FAILED_BANNER);
    // One banner at a time: the exhausted credits wait until the card is fixed.
    expect(screen.queryByText(/Has agotado los créditos/)).toBeNull();
    expect(screen.queryByRole('status')).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: 'Revisar el pago' }));
    expect(await screen.findByText('Página de pagos')).toBeTruthy();
  });

  it('goes back to the usage warning once the payment went through', async () => {
    renderBanner(usage);
    expect((await screen.findByRole('status')).textContent).toContain('Has consumido el 95 %');
    expect(screen.queryByText(PAYMENT_FAILED_BANNER)).toBeNull();
  });
});
