import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { Route, Routes } from 'react-router-dom';
import { PAYMENT_FAILED_BANNER } from '#shared/api/billing.ts';
import { jsonResponse, mockApi, renderWithApp, signedInState } from '../../test/renderApp.tsx';
import { signedOut } from '../session.ts';
import type { RootState } from '../store.ts';
import { CreditBanner } from './CreditBanner.tsx';
import { forgetHiddenCreditBanner } from './creditBannerDismissal.ts';

afterEach(() => {
  vi.unstubAllGlobals();
  sessionStorage.clear();
});

const usage = {
  active: true, trialing: false, name: 'Plan Pro', balance: 100, cancelled: false, usageLimit: 2000, usedSlans: 1900,
  slansPercentage: 95, excededSlans: 0, extraPrice: 0, nextPaymentDate: null, paymentFailed: false,
};

function renderBanner(answer: typeof usage & { extraSlanPrice?: number | null }, ui: Partial<RootState['ui']> = {}) {
  const { fetchMock, calls } = mockApi({ 'GET /api/subscriptions/usage': () => jsonResponse(200, answer) });
  vi.stubGlobal('fetch', fetchMock);
  const preloadedState = { ...signedInState(), ui: { menuOpen: false, paymentRequiredFor: null, creditBannerHidden: null, ...ui } };
  const view = renderWithApp(
    <Routes>
      <Route path="/" element={<CreditBanner />} />
      <Route path="/payments" element={<p>Página de pagos</p>} />
      <Route path="/payments/consumo" element={<p>Detalle del consumo</p>} />
    </Routes>,
    { preloadedState },
  );
  return { ...view, calls };
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

describe('CreditBanner, credits used up', () => {
  it('on a plan that goes on past its limit, says only what the extra costs, in one line: no alert, no way to plans', async () => {
    renderBanner({ ...usage, usedSlans: 2100, slansPercentage: 105, excededSlans: 100, extraSlanPrice: 0.03 });

    const notice = await screen.findByRole('status');
    expect(notice.textContent).toContain('Has superado los créditos de tu plan: el uso adicional se cobra a 0,03\u00a0€ por slan.');
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Ver planes' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Ver consumo' }));
    expect(await screen.findByText('Detalle del consumo')).toBeTruthy();
  });

  it('alerts when nothing more can be used (a trial), with the way to the plans', async () => {
    renderBanner({ ...usage, trialing: true, usageLimit: 500, usedSlans: 500, slansPercentage: 100, extraSlanPrice: null });
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Has agotado los créditos de tu plan. Contrata un plan para seguir lanzando robots.');
    expect(screen.getByRole('button', { name: 'Ver planes' })).toBeTruthy();
  });

  it('can be hidden for the sign-in, and comes back when its state changes or after signing out', async () => {
    const { store } = renderBanner(usage);
    await screen.findByRole('status');
    fireEvent.click(screen.getByRole('button', { name: 'Ocultar el aviso' }));
    await waitFor(() => expect(screen.queryByRole('status')).toBeNull());
    expect(store.getState().ui.creditBannerHidden).toBe('warning');

    // Signing out forgets it in the app: the next sign-in shows the banner again.
    act(() => {
      store.dispatch(signedOut());
    });
    expect(store.getState().ui.creditBannerHidden).toBeNull();
  });

  it('stays hidden after a reload in the same session, and shows again once the Auth route forgot it', async () => {
    const first = renderBanner(usage);
    fireEvent.click(await screen.findByRole('button', { name: 'Ocultar el aviso' }));
    await waitFor(() => expect(screen.queryByRole('status')).toBeNull());
    first.unmount();

    // A reload: a new store, the same tab. The usage loaded (its fetch answered), yet no banner.
    const reloaded = renderBanner(usage);
    await waitFor(() => expect(reloaded.calls.map((call) => call.key)).toContain('GET /api/subscriptions/usage'));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByRole('status')).toBeNull();
    reloaded.unmount();

    forgetHiddenCreditBanner();
    renderBanner(usage);
    expect((await screen.findByRole('status')).textContent).toContain('Has consumido el 95 %');
  });

  it('shows the used-up alert though the 90 % warning was hidden', async () => {
    renderBanner({ ...usage, usedSlans: 2000, slansPercentage: 100 }, { creditBannerHidden: 'warning' });
    expect((await screen.findByRole('alert')).textContent).toContain('Has agotado los créditos de tu plan');
  });
});
