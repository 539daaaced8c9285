import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, within } from '@testing-library/react';
import { LAST_CARD_MESSAGE } from '#shared/api/billing.ts';
import { jsonResponse, renderWithApp, signedInState } from '../../test/renderApp.tsx';
import PaymentsPage from './PaymentsPage.tsx';
import { stripePage } from './stripePage.ts';
import { CARDS_BEFORE_KEY } from './useAddCard.ts';
import { apiError, card, paymentsApi, subscription, trial } from './test/fixtures.ts';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  sessionStorage.clear();
});

function renderPage(api: ReturnType<typeof paymentsApi>) {
  vi.stubGlobal('fetch', api.fetchMock);
  const open = vi.spyOn(stripePage, 'open').mockImplementation(() => undefined);
  renderWithApp(<PaymentsPage />, { path: '/payments', preloadedState: signedInState(), toasts: true });
  return { open };
}

const bodiesOf = (api: ReturnType<typeof paymentsApi>, key: string) => api.calls.filter((call) => call.key === key).map((call) => call.body);

describe('PaymentsPage, subscribing and changing plan', () => {
  it('Contratar asks for a checkout session for that plan and goes to Stripe', async () => {
    const api = paymentsApi(trial(), {
      'POST /api/subscriptions/checkout-session': () => jsonResponse(200, { url: 'https://checkout.stripe.com/c/pay/cs_1' }),
    });
    const { open } = renderPage(api);
    const plan = within(await screen.findByRole('listitem', { name: 'Profesional' }));
    fireEvent.click(plan.getByRole('button', { name: 'Contratar' }));

    await vi.waitFor(() => expect(open).toHaveBeenCalledWith('https://checkout.stripe.com/c/pay/cs_1'));
    expect(bodiesOf(api, 'POST /api/subscriptions/checkout-session')).toEqual([{ planRef: 'profesional' }]);
  });

  it('asks for the billing info before the first checkout, saves it, then goes to Stripe', async () => {
    const api = paymentsApi(trial(), {
      'GET /api/subscriptions/billing-info': () => jsonResponse(200, null),
      'PUT /api/subscriptions/billing-info': (body) => jsonResponse(200, body),
      'POST /api/subscriptions/checkout-session': () => jsonResponse(200, { url: 'https://checkout.stripe.com/c/pay/cs_2' }),
    });
    const { open } = renderPage(api);
    // The form's section is there, empty: the first click must not go to Stripe without it.
    await within(await screen.findByRole('region', { name: 'Datos de facturación' })).findByLabelText('Nombre o razón social');
    fireEvent.click(within(await screen.findByRole('listitem', { name: 'Básico' })).getByRole('button', { name: 'Contratar' }));

    const dialog = within(await screen.findByRole('dialog', { name: 'Datos de facturación' }));
    expect(dialog.getByText(/aparecerán en tus facturas, también en la primera/)).toBeTruthy();
    expect(bodiesOf(api, 'POST /api/subscriptions/checkout-session')).toEqual([]);
    const type = (label: string, value: string) => fireEvent.change(dialog.getByLabelText(label), { target: { value } });
    type('Nombre o razón social', 'Asesoría Pérez SL');
    // A wrong letter is refused on its field by the shared validator, and nothing is sent.
    type('NIF / CIF', 'B12345670');
    type('Email de facturación', 'facturas@asesoria.es');
    type('Dirección', 'Calle Mayor 1');
    type('Código postal', '28013');
    type('Localidad', 'Madrid');
    type('Provincia', 'Madrid');
    fireEvent.click(dialog.getByRole('button', { name: 'Guardar y continuar al pago' }));
    await vi.waitFor(() => expect(dialog.getByLabelText('NIF / CIF').getAttribute('aria-invalid')).toBe('true'));
    expect(bodiesOf(api, 'PUT /api/subscriptions/billing-info')).toEqual([]);

    type('NIF / CIF', 'B12345674');
    fireEvent.click(dialog.getByRole('button', { name: 'Guardar y continuar al pago' }));
    await vi.waitFor(() => expect(open).toHaveBeenCalledWith('https://checkout.stripe.com/c/pay/cs_2'));
    expect(bodiesOf(api, 'PUT /api/subscriptions/billing-info')).toMatchObject([{ name: 'Asesoría Pérez SL', taxId: 'B12345674' }]);
    expect(bodiesOf(api, 'POST /api/subscriptions/checkout-session')).toEqual([{ planRef: 'basico' }]);
  });

  it('opens the billing info when the server says the checkout needs it first', async () => {
    const api = paymentsApi(trial(), {
      'POST /api/subscriptions/checkout-session': () => apiError(409, 'BILLING_INFO_REQUIRED', 'Antes de contratar, completa los datos de facturación: aparecerán en tus facturas.'),
    });
    const { open } = renderPage(api);
    fireEvent.click(within(await screen.findByRole('listitem', { name: 'Básico' })).getByRole('button', { name: 'Contratar' }));
    expect(await screen.findByRole('dialog', { name: 'Datos de facturación' })).toBeTruthy();
    expect(open).not.toHaveBeenCalled();
  });

  it('says why a checkout was refused and stays', async () => {
    const api = paymentsApi(trial(), {
      'POST /api/subscriptions/checkout-session': () => apiError(409, 'ALREADY_SUBSCRIBED', 'Tu empresa ya tiene un plan de pago activo.'),
    });
    const { open } = renderPage(api);
    fireEvent.click(within(await screen.findByRole('listitem', { name: 'Básico' })).getByRole('button', { name: 'Contratar' }));
    expect(await screen.findByText('Tu empresa ya tiene un plan de pago activo.')).toBeTruthy();
    expect(open).not.toHaveBeenCalled();
  });

  it('Cambiar a este plan confirms the date it applies from, then schedules it', async () => {
    const api = paymentsApi(subscription(), {
      'POST /api/subscriptions/next-phase': () => jsonResponse(200, subscription({ scheduleSubNextPhaseRef: 'profesional', scheduleSubNextPhaseName: 'Profesional' })),
    });
    renderPage(api);
    fireEvent.click(within(await screen.findByRole('listitem', { name: 'Profesional' })).getByRole('button', { name: 'Cambiar a este plan' }));

    const dialog = within(await screen.findByRole('dialog', { name: 'Cambiar al plan Profesional' }));
    expect(dialog.getByText('El cambio se aplicará al empezar el próximo periodo, el 30/11/2026.')).toBeTruthy();
    expect(bodiesOf(api, 'POST /api/subscriptions/next-phase')).toEqual([]);
    fireEvent.click(dialog.getByRole('button', { name: 'Confirmar el cambio' }));

    expect(await screen.findByText('Pasarás al plan Profesional en el próximo periodo')).toBeTruthy();
    expect(bodiesOf(api, 'POST /api/subscriptions/next-phase')).toEqual([{ planRef: 'profesional' }]);
  });
});

describe('PaymentsPage, cancelling', () => {
  it('says until when the plan lasts before cancelling it', async () => {
    const api = paymentsApi(subscription(), {
      'POST /api/subscriptions/cancel': () =>
        jsonResponse(200, subscription({ stripeSub: { status: 'active', currentPeriodEnd: '2026-11-30T10:00:00.000Z', cancelAt: '2026-11-30T10:00:00.000Z' } })),
    });
    renderPage(api);
    fireEvent.click(await screen.findByRole('button', { name: 'Cancelar el plan' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Cancelar el plan' }));
    expect(dialog.getByText('Tu plan seguirá activo hasta el 30/11/2026; después no se cobrará nada más.')).toBeTruthy();

    fireEvent.click(dialog.getByRole('button', { name: 'Volver' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(bodiesOf(api, 'POST /api/subscriptions/cancel')).toEqual([]);

    fireEvent.click(screen.getByRole('button', { name: 'Cancelar el plan' }));
    fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Cancelar el plan' }));
    expect(await screen.findByText('Tu plan se cancelará el 30/11/2026')).toBeTruthy();
    expect(bodiesOf(api, 'POST /api/subscriptions/cancel')).toHaveLength(1);
  });

  it('warns that a cancel drops the scheduled change of plan, and after resuming says to choose it again', async () => {
    const scheduled = subscription({ scheduleSubNextPhaseRef: 'profesional', scheduleSubNextPhaseName: 'Profesional' });
    const cancelled = subscription({ cancelled: true, nextPaymentDate: null, stripeSub: { status: 'active', currentPeriodEnd: '2026-11-30T10:00:00.000Z', cancelAt: '2026-11-30T10:00:00.000Z' } });
    let current = scheduled;
    const api = paymentsApi(scheduled, {
      'GET /api/subscriptions': () => jsonResponse(200, current),
      'POST /api/subscriptions/cancel': () => {
        current = cancelled;
        return jsonResponse(200, cancelled);
      },
      'POST /api/subscriptions/resume': () => {
        current = subscription();
        return jsonResponse(200, current);
      },
    });
    renderPage(api);
    fireEvent.click(await screen.findByRole('button', { name: 'Cancelar el plan' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Cancelar el plan' }));
    expect(dialog.getByText('Se anulará el cambio al plan Profesional previsto para el 30/11/2026.')).toBeTruthy();
    fireEvent.click(dialog.getByRole('button', { name: 'Cancelar el plan' }));

    expect(await screen.findByText('Se ha anulado el cambio al plan Profesional: si reanudas el plan y aún lo quieres, elígelo de nuevo en Planes.')).toBeTruthy();
    fireEvent.click(await screen.findByRole('button', { name: 'Reanudar el plan' }));
    expect(await screen.findByText('Tu plan seguirá renovándose. El cambio al plan Profesional se anuló al cancelar: si aún lo quieres, elígelo de nuevo en Planes.')).toBeTruthy();
    expect(bodiesOf(api, 'POST /api/subscriptions/resume')).toHaveLength(1);
  });

  it('says nothing of a change when none was scheduled', async () => {
    renderPage(paymentsApi(subscription()));
    fireEvent.click(await screen.findByRole('button', { name: 'Cancelar el plan' }));
    const dialog = await screen.findByRole('dialog', { name: 'Cancelar el plan' });
    expect(dialog.textContent).not.toContain('Se anulará el cambio');
  });

  it('Reanudar el plan undoes a cancel', async () => {
    const api = paymentsApi(subscription({ stripeSub: { status: 'active', currentPeriodEnd: '2026-11-30T10:00:00.000Z', cancelAt: '2026-11-30T10:00:00.000Z' } }), {
      'POST /api/subscriptions/resume': () => jsonResponse(200, subscription()),
    });
    renderPage(api);
    fireEvent.click(await screen.findByRole('button', { name: 'Reanudar el plan' }));
    expect(await screen.findByText('Tu plan seguirá renovándose')).toBeTruthy();
    expect(bodiesOf(api, 'POST /api/subscriptions/resume')).toHaveLength(1);
  });
});

describe('PaymentsPage, cards', () => {
  it('Añadir tarjeta remembers the cards and goes to Stripe’s setup page', async () => {
    const api = paymentsApi(subscription(), {
      'POST /api/subscriptions/setup-intent': () => jsonResponse(200, { url: 'https://checkout.stripe.com/c/pay/cs_setup' }),
    });
    const { open } = renderPage(api);
    await screen.findByText('•••• 4242');
    fireEvent.click(screen.getByRole('button', { name: 'Añadir tarjeta' }));
    await vi.waitFor(() => expect(open).toHaveBeenCalledWith('https://checkout.stripe.com/c/pay/cs_setup'));
    expect(JSON.parse(sessionStorage.getItem(CARDS_BEFORE_KEY) ?? 'null')).toEqual(['pm_1']);
  });

  it('makes another card the default', async () => {
    const api = paymentsApi(subscription(), {
      'GET /api/subscriptions/payment-methods': () => jsonResponse(200, { items: [card(), card({ id: 'pm_2', brand: 'mastercard', last4: '4444', isDefault: false })] }),
      'PUT /api/subscriptions/payment-methods/pm_2/default': () => new Response(null, { status: 204 }),
    });
    renderPage(api);
    fireEvent.click(await screen.findByRole('button', { name: 'Usar la tarjeta Mastercard •••• 4444 como predeterminada' }));
    expect(await screen.findByText('Tarjeta predeterminada cambiada')).toBeTruthy();
    expect(bodiesOf(api, 'PUT /api/subscriptions/payment-methods/pm_2/default')).toHaveLength(1);
  });

  it('asks before removing a card and shows the 409 LAST_CARD reason', async () => {
    const api = paymentsApi(subscription(), {
      'DELETE /api/subscriptions/payment-methods/pm_1': () => apiError(409, 'LAST_CARD', LAST_CARD_MESSAGE),
    });
    renderPage(api);
    fireEvent.click(await screen.findByRole('button', { name: 'Quitar la tarjeta Visa •••• 4242' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Quitar la tarjeta' }));
    expect(dialog.getByText('La tarjeta Visa •••• 4242 dejará de estar guardada en tu cuenta.')).toBeTruthy();
    fireEvent.click(dialog.getByRole('button', { name: 'Quitar' }));

    const cards = within(await screen.findByRole('region', { name: 'Tarjetas' }));
    expect((await cards.findByRole('alert')).textContent).toContain(LAST_CARD_MESSAGE);
    expect(bodiesOf(api, 'DELETE /api/subscriptions/payment-methods/pm_1')).toHaveLength(1);
    expect(screen.getByText('•••• 4242')).toBeTruthy();
  });

  it('Actualizar tarjeta on a failed payment opens the setup page too', async () => {
    const api = paymentsApi(subscription({ paymentFailed: true }), {
      'POST /api/subscriptions/setup-intent': () => jsonResponse(200, { url: 'https://checkout.stripe.com/c/pay/cs_fix' }),
    });
    const { open } = renderPage(api);
    fireEvent.click(await screen.findByRole('button', { name: 'Actualizar tarjeta' }));
    await vi.waitFor(() => expect(open).toHaveBeenCalledWith('https://checkout.stripe.com/c/pay/cs_fix'));
  });
});
