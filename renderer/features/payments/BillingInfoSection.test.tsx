import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, within } from '@testing-library/react';
import { TAX_ID_INVALID_MESSAGE } from '#shared/api/billing.ts';
import { jsonResponse, renderWithApp, signedInState } from '../../test/renderApp.tsx';
import PaymentsPage from './PaymentsPage.tsx';
import { apiError, billingInfo, paymentsApi, subscription } from './test/fixtures.ts';

afterEach(() => vi.unstubAllGlobals());

function renderPage(api: ReturnType<typeof paymentsApi>) {
  vi.stubGlobal('fetch', api.fetchMock);
  renderWithApp(<PaymentsPage />, { path: '/payments', preloadedState: signedInState(), toasts: true });
}

const section = async () => within(await screen.findByRole('region', { name: 'Datos de facturación' }));
const type = (form: Awaited<ReturnType<typeof section>>, label: string, value: string) =>
  fireEvent.change(form.getByLabelText(label), { target: { value } });
const puts = (api: ReturnType<typeof paymentsApi>) => api.calls.filter((call) => call.key === 'PUT /api/subscriptions/billing-info');

describe('Datos de facturación', () => {
  it('starts empty when the firm has none yet, and sends what the schema accepts', async () => {
    const api = paymentsApi(subscription(), {
      // None yet: the server answers 200 with null (no 404 in the console).
      'GET /api/subscriptions/billing-info': () => jsonResponse(200, null),
      'PUT /api/subscriptions/billing-info': (body) => jsonResponse(200, body),
    });
    renderPage(api);
    const form = await section();
    await form.findByLabelText('Nombre o razón social');
    expect((form.getByLabelText('País') as HTMLInputElement).value).toBe('España');

    type(form, 'Nombre o razón social', 'Asesoría Pérez SL');
    type(form, 'NIF / CIF', '12345678Z');
    type(form, 'Email de facturación', 'facturas@asesoria.es');
    type(form, 'Dirección', 'Calle Mayor 1');
    type(form, 'Código postal', '28013');
    type(form, 'Localidad', 'Madrid');
    type(form, 'Provincia', 'Madrid');
    fireEvent.click(form.getByRole('button', { name: 'Guardar' }));

    expect(await screen.findByText('Datos de facturación guardados')).toBeTruthy();
    expect(puts(api).map((call) => call.body)).toEqual([{
      name: 'Asesoría Pérez SL', taxId: '12345678Z', email: 'facturas@asesoria.es', addressLine1: 'Calle Mayor 1',
      postalCode: '28013', city: 'Madrid', province: 'Madrid', country: 'ES',
    }]);
  });

  it('refuses a bad NIF here, on its field, and sends nothing', async () => {
    const api = paymentsApi(subscription());
    renderPage(api);
    const form = await section();
    await form.findByDisplayValue('B12345674');
    type(form, 'NIF / CIF', '12345678A');
    fireEvent.click(form.getByRole('button', { name: 'Guardar' }));

    const field = form.getByLabelText('NIF / CIF');
    await vi.waitFor(() => expect(field.getAttribute('aria-invalid')).toBe('true'));
    expect(document.getElementById(field.getAttribute('aria-describedby') ?? '')?.textContent).toBe(TAX_ID_INVALID_MESSAGE);
    expect(puts(api)).toEqual([]);
  });

  it('puts the server’s field issues on their fields', async () => {
    const api = paymentsApi(subscription(), {
      'PUT /api/subscriptions/billing-info': () =>
        apiError(400, 'VALIDATION', 'Datos no válidos', [{ path: 'postalCode', message: 'Ese código postal no existe' }]),
    });
    renderPage(api);
    const form = await section();
    await form.findByDisplayValue('Asesoría Pérez SL');
    fireEvent.click(form.getByRole('button', { name: 'Guardar' }));

    expect(await form.findByText('Ese código postal no existe')).toBeTruthy();
    expect(form.getByLabelText('Código postal').getAttribute('aria-invalid')).toBe('true');
    expect((await form.findByRole('alert')).textContent).toContain('Revisa los campos marcados');
    expect(puts(api)).toHaveLength(1);
  });

  it('loads the saved info into the form', async () => {
    renderPage(paymentsApi(subscription(), { 'GET /api/subscriptions/billing-info': () => jsonResponse(200, billingInfo({ addressLine2: '2º B' })) }));
    const form = await section();
    expect(await form.findByDisplayValue('2º B')).toBeTruthy();
    expect((form.getByLabelText('Email de facturación') as HTMLInputElement).value).toBe('facturas@asesoria.es');
  });
});
