import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import { PAYMENT_FAILED_BANNER, STRIPE_UNAVAILABLE_MESSAGE } from '#shared/api/billing.ts';
import { jsonResponse, mockApi, renderWithApp, signedInState, testUser } from '../../test/renderApp.tsx';
import PaymentsPage from './PaymentsPage.tsx';
import { apiError, invoice, paymentsApi, subscription, trial } from './test/fixtures.ts';

afterEach(() => vi.unstubAllGlobals());

function renderPage(api: ReturnType<typeof mockApi>, path = '/payments') {
  vi.stubGlobal('fetch', api.fetchMock);
  return renderWithApp(<PaymentsPage />, { path, preloadedState: signedInState(), toasts: true });
}

const statusCard = async () => within(await screen.findByRole('region', { name: 'Estado del plan' }));
const plansList = async () => within(await screen.findByRole('list', { name: 'Planes disponibles' }));

describe('PaymentsPage, the plan at a glance', () => {
  it('shows the trial in words, without a next payment, and offers Contratar on every plan', async () => {
    renderPage(paymentsApi(trial()));
    const status = await statusCard();
    expect(status.getByText('Prueba')).toBeTruthy();
    expect(status.getByText('Periodo de prueba')).toBeTruthy();
    expect(status.queryByText('Próximo pago')).toBeNull();

    const list = await plansList();
    expect(list.getAllByRole('button', { name: 'Contratar' })).toHaveLength(2);
    expect(list.getByText('99,00 € al mes')).toBeTruthy();
    expect(list.getByText('5.000 slans incluidos')).toBeTruthy();
    expect(list.getByText('0,02 € por slan adicional')).toBeTruthy();
  });

  it('shows an active plan: its state, next payment, usage, and plan changes instead of checkout', async () => {
    renderPage(paymentsApi(subscription()));
    const status = await statusCard();
    expect(status.getByText('Básico')).toBeTruthy();
    expect(status.getByText('Activo')).toBeTruthy();
    expect(status.getByText('30/11/2026')).toBeTruthy();
    expect(status.getByRole('progressbar', { name: 'Consumo del periodo' }).getAttribute('aria-valuenow')).toBe('40');
    expect(status.getByText('800 slans de 2.000 slans')).toBeTruthy();

    const list = await plansList();
    const current = within(list.getByRole('listitem', { name: 'Básico' }));
    expect(current.getByText('Tu plan actual')).toBeTruthy();
    expect(current.queryByRole('button')).toBeNull();
    expect(within(list.getByRole('listitem', { name: 'Profesional' })).getByRole('button', { name: 'Cambiar a este plan' })).toBeTruthy();
    expect(list.queryByRole('button', { name: 'Contratar' })).toBeNull();

    expect(await screen.findByText('Visa')).toBeTruthy();
    expect(screen.getByText('•••• 4242')).toBeTruthy();
    expect(screen.getByText('Caduca 12/30')).toBeTruthy();
    expect(screen.getByText('Predeterminada')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Cancelar el plan' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Ver el detalle del consumo' }).getAttribute('href')).toBe('/payments/consumo');
  });

  it('turns the bar red past the limit and prices the extra usage', async () => {
    renderPage(paymentsApi(subscription({ usedSlans: 2120, slansPercentage: 106, excededSlans: 120, extraPrice: 3.6 })));
    const status = await statusCard();
    expect(status.getByRole('progressbar').className).toContain('app-usage-bar--full');
    expect(status.getByText('Consumo adicional: 120 slans · 3,60 €')).toBeTruthy();
  });

  it('says a failed payment first, with Actualizar tarjeta, and names the state Pago pendiente', async () => {
    renderPage(paymentsApi(subscription({ paymentFailed: true, stripeSub: { status: 'past_due', currentPeriodEnd: '2026-11-30T10:00:00.000Z', cancelAt: null } })));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain(PAYMENT_FAILED_BANNER);
    expect(within(alert).getByRole('button', { name: 'Actualizar tarjeta' })).toBeTruthy();
    expect((await statusCard()).getByText('Pago pendiente')).toBeTruthy();
  });

  it('shows a coming cancel, with Reanudar el plan instead of Cancelar', async () => {
    renderPage(paymentsApi(subscription({ stripeSub: { status: 'active', currentPeriodEnd: '2026-11-30T10:00:00.000Z', cancelAt: '2026-11-30T10:00:00.000Z' } })));
    const status = await statusCard();
    expect(status.getByText('Se cancelará el 30/11/2026')).toBeTruthy();
    expect(status.getByText('Sin pagos programados')).toBeTruthy();
    expect(await screen.findByRole('button', { name: 'Reanudar el plan' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Cancelar el plan' })).toBeNull();
  });

  it('shows a scheduled change of plan, and Mantener el plan actual undoes it', async () => {
    const api = paymentsApi(subscription({ scheduleSubNextPhaseRef: 'profesional', scheduleSubNextPhaseName: 'Profesional' }), {
      'DELETE /api/subscriptions/next-phase': () => new Response(null, { status: 204 }),
    });
    renderPage(api);
    const status = await statusCard();
    expect(status.getByText('A partir del 30/11/2026: plan Profesional')).toBeTruthy();
    // The scheduled plan is not offered again.
    expect((await plansList()).queryByRole('button', { name: 'Cambiar a este plan' })).toBeNull();

    status.getByRole('button', { name: 'Mantener el plan actual' }).click();
    expect(await screen.findByText('Seguirás con tu plan actual')).toBeTruthy();
    expect(api.calls.some((call) => call.key === 'DELETE /api/subscriptions/next-phase')).toBe(true);
  });
});

describe('PaymentsPage, who may act', () => {
  it('shows a colleague everything but no action, and says who can act', async () => {
    vi.stubGlobal('fetch', paymentsApi(subscription({ canManage: false })).fetchMock);
    renderWithApp(<PaymentsPage />, { path: '/payments', preloadedState: signedInState(testUser({ role: 'member' })) });

    expect(await screen.findByText('Solo el titular de la cuenta puede cambiar el plan, las tarjetas o los datos de facturación.')).toBeTruthy();
    expect(await screen.findByText('•••• 4242')).toBeTruthy();
    expect(await screen.findByDisplayValue('Asesoría Pérez SL')).toBeTruthy();
    expect(await screen.findByText('AA-0001')).toBeTruthy();
    expect((screen.getByDisplayValue('Asesoría Pérez SL') as HTMLInputElement).readOnly).toBe(true);
    for (const name of ['Contratar', 'Cambiar a este plan', 'Añadir tarjeta', 'Quitar', 'Guardar', 'Cancelar el plan']) {
      expect(screen.queryByRole('button', { name })).toBeNull();
    }
  });

  it('on a local install shows the plans read-only and the way to support', async () => {
    renderPage(paymentsApi(subscription({ paymentsEnabled: false, stripeSub: null })));
    expect(await screen.findByRole('heading', { name: 'El pago en línea no está activado en este servidor.' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Cómo contactar con soporte' }).getAttribute('href')).toBe('/help');
    expect(await plansList()).toBeTruthy();
    expect(screen.queryByRole('button', { name: /Contratar|Cambiar/ })).toBeNull();
    expect(screen.queryByRole('heading', { name: 'Tarjetas' })).toBeNull();
  });

  it('falls back to the usage card and support when the server refuses the full view (no Stripe keys)', async () => {
    const usage = { active: true, trialing: false, name: 'Plan Pro', balance: 500, cancelled: false, usageLimit: 2000, usedSlans: 1500, slansPercentage: 75, excededSlans: 0, extraPrice: 0, nextPaymentDate: '2025-03-31T23:30:00.000Z', paymentFailed: false };
    renderPage(mockApi({
      'GET /api/subscriptions': () => apiError(409, 'PAYMENTS_NOT_CONFIGURED', 'Los pagos en línea no están configurados en este servidor.'),
      'GET /api/subscriptions/usage': () => jsonResponse(200, usage),
    }));
    expect(await screen.findByText('Plan Pro')).toBeTruthy();
    expect(screen.getByText('1.500 slans de 2.000 slans')).toBeTruthy();
    // 23:30 UTC on 31 March is already 1 April in Madrid.
    expect(screen.getByText('01/04/2025')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Cómo contactar con soporte' })).toBeTruthy();
  });
});

describe('PaymentsPage, errors', () => {
  it('says a 502 in Spanish with Reintentar, and loads on retry', async () => {
    let fail = true;
    renderPage(paymentsApi(subscription(), {
      'GET /api/subscriptions': () => (fail ? apiError(502, 'STRIPE_UNAVAILABLE', STRIPE_UNAVAILABLE_MESSAGE) : jsonResponse(200, subscription())),
    }));
    expect((await screen.findByRole('alert')).textContent).toContain(STRIPE_UNAVAILABLE_MESSAGE);
    fail = false;
    screen.getByRole('button', { name: 'Reintentar' }).click();
    expect(await screen.findByRole('region', { name: 'Estado del plan' })).toBeTruthy();
  });

  it('says a section that failed on its own, and keeps the rest', async () => {
    renderPage(paymentsApi(subscription(), {
      'GET /api/subscriptions/invoices': () => apiError(503, 'STRIPE_UNAVAILABLE', STRIPE_UNAVAILABLE_MESSAGE),
    }));
    const invoices = within(await screen.findByRole('region', { name: 'Facturas' }));
    expect((await invoices.findByRole('alert')).textContent).toContain(STRIPE_UNAVAILABLE_MESSAGE);
    expect(invoices.getByRole('button', { name: 'Reintentar' })).toBeTruthy();
    expect(await screen.findByText('•••• 4242')).toBeTruthy();
  });

  it('lists the invoices with their state and PDF, or says there are none yet', async () => {
    const items = [
      invoice({ id: 'in_3', number: 'AA-0003', status: 'open', paymentFailed: true, total: 52.5 }),
      invoice({ id: 'in_2', number: 'AA-0002', status: 'open' }),
      invoice({ id: 'in_1', number: 'AA-0001', status: 'paid' }),
      invoice({ id: 'in_0', number: null, status: 'void', pdfUrl: null }),
    ];
    renderPage(paymentsApi(subscription(), { 'GET /api/subscriptions/invoices': () => jsonResponse(200, { items }) }));
    const table = within(await screen.findByRole('region', { name: 'Lista de facturas' }));
    const rows = (await table.findAllByRole('row')).slice(1).map((row) => row.textContent);
    expect(rows).toEqual([
      '31/10/2026AA-000331/10/2026 – 30/11/202652,50 €ImpagadaPDF',
      '31/10/2026AA-000231/10/2026 – 30/11/202649,00 €PendientePDF',
      '31/10/2026AA-000131/10/2026 – 30/11/202649,00 €PagadaPDF',
      '31/10/2026—31/10/2026 – 30/11/202649,00 €Anulada',
    ].map((text) => text.replace(/ €/g, '\u00a0€')));
    const pdf = table.getByRole('link', { name: 'Descargar la factura AA-0001 en PDF' });
    expect(pdf.getAttribute('href')).toBe('https://pay.stripe.com/invoice/in_1/pdf');
    expect(pdf.getAttribute('target')).toBe('_blank');
    expect(pdf.getAttribute('rel')).toContain('noopener');
  });

  it('says when there are no invoices yet', async () => {
    renderPage(paymentsApi(subscription(), { 'GET /api/subscriptions/invoices': () => jsonResponse(200, { items: [] }) }));
    expect(await screen.findByText('Aún no hay facturas')).toBeTruthy();
  });
});
