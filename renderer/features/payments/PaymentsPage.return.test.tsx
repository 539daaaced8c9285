import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, screen } from '@testing-library/react';
import { useLocation } from 'react-router-dom';
import { jsonResponse, renderWithApp, signedInState } from '../../test/renderApp.tsx';
import PaymentsPage from './PaymentsPage.tsx';
import { CARDS_BEFORE_KEY } from './useAddCard.ts';
import { CONFIRM_LIMIT_MS } from './useStripeReturn.ts';
import { card, paymentsApi, subscription, trial } from './test/fixtures.ts';

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  sessionStorage.clear();
});

/** Shows the query the page leaves in the address bar. */
function Search() {
  return <output aria-label="query">{useLocation().search}</output>;
}

function renderAt(path: string, api: ReturnType<typeof paymentsApi>) {
  vi.stubGlobal('fetch', api.fetchMock);
  renderWithApp(<><PaymentsPage /><Search /></>, { path, preloadedState: signedInState() });
}

const query = () => screen.getByRole('status', { name: 'query' }).textContent;
const subscriptionCalls = (api: ReturnType<typeof paymentsApi>) => api.calls.filter((call) => call.key === 'GET /api/subscriptions').length;

describe('PaymentsPage, coming back from Stripe', () => {
  it('?pago=ok with the plan already active says so at once and cleans the address', async () => {
    renderAt('/payments?pago=ok&session_id=cs_test_1', paymentsApi(subscription({ name: 'Profesional' })));
    expect(await screen.findByText('Tu plan Profesional está activo')).toBeTruthy();
    expect(query()).toBe('');
  });

  it('?pago=ok waits for the webhook, asking again until the plan is active', async () => {
    let answer = trial();
    const api = paymentsApi(trial(), { 'GET /api/subscriptions': () => jsonResponse(200, answer) });
    renderAt('/payments?pago=ok', api);
    expect(await screen.findByText('Confirmando el pago…')).toBeTruthy();
    answer = subscription({ name: 'Profesional' });
    // The next ask comes CONFIRM_POLL_MS later.
    expect(await screen.findByText('Tu plan Profesional está activo', undefined, { timeout: 5_000 })).toBeTruthy();
    expect(subscriptionCalls(api)).toBeGreaterThanOrEqual(2);
  });

  it('after a minute without the webhook says it may take a few minutes and stops asking', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const api = paymentsApi(trial());
    renderAt('/payments?pago=ok', api);
    expect(await screen.findByText('Confirmando el pago…')).toBeTruthy();
    await act(() => vi.advanceTimersByTimeAsync(CONFIRM_LIMIT_MS));
    expect(await screen.findByText(/Puede tardar unos minutos/)).toBeTruthy();
    const asked = subscriptionCalls(api);
    await act(() => vi.advanceTimersByTimeAsync(10_000));
    expect(subscriptionCalls(api)).toBe(asked);
  });

  it('?pago=cancelado says nothing changed', async () => {
    renderAt('/payments?pago=cancelado', paymentsApi(trial()));
    expect(await screen.findByText('No se ha completado el pago. Tu plan no ha cambiado.')).toBeTruthy();
    expect(query()).toBe('');
  });

  it('?tarjeta=ok confirms once a card that was not there before shows', async () => {
    sessionStorage.setItem(CARDS_BEFORE_KEY, JSON.stringify(['pm_1']));
    const api = paymentsApi(subscription(), {
      'GET /api/subscriptions/payment-methods': () => jsonResponse(200, { items: [card({ isDefault: false }), card({ id: 'pm_2', last4: '1881', isDefault: true })] }),
    });
    renderAt('/payments?tarjeta=ok', api);
    expect(await screen.findByText('Tarjeta añadida')).toBeTruthy();
    expect(sessionStorage.getItem(CARDS_BEFORE_KEY)).toBeNull();
    expect(query()).toBe('');
  });

  it('?tarjeta=ok keeps confirming while only the old cards are there', async () => {
    sessionStorage.setItem(CARDS_BEFORE_KEY, JSON.stringify(['pm_1']));
    renderAt('/payments?tarjeta=ok', paymentsApi(subscription()));
    expect(await screen.findByText('Confirmando la tarjeta…')).toBeTruthy();
    expect(screen.queryByText('Tarjeta añadida')).toBeNull();
  });

  it('?tarjeta=cancelada says no card was added', async () => {
    renderAt('/payments?tarjeta=cancelada', paymentsApi(subscription()));
    expect(await screen.findByText('No se ha añadido ninguna tarjeta.')).toBeTruthy();
  });
});
