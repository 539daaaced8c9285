import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { MailDelivery } from '#shared/api/mail.ts';
import { jsonResponse, renderWithApp, signedInState, testUser } from '../../test/renderApp.tsx';
import { DELIVERIES_POLL_MS, RunDeliveries, deliveryStateText } from './RunDeliveries.tsx';
import { flowLog, flowLogDetail } from './testData.ts';
import { catalogueOf, historyOf, renderAt, setUpFlowsPageTests, stubApi } from './test/renderFlows.tsx';

setUpFlowsPageTests();
afterEach(() => vi.useRealTimers());

const RUN = '7b0f3c1e-2d4a-4b8c-9e6f-1a2b3c4d5e6f';

function delivery(overrides: Partial<MailDelivery> = {}): MailDelivery {
  return {
    _id: 'mail-1', kind: 'result', to: ['cliente@empresa.es', 'jefe@empresa.es'], subject: 'Resultado de Validar identificadores',
    transport: 'google', from: 'asesoria@gmail.com', attachments: [{ name: 'resultado.xlsx', size: 2048 }], state: 'sent', attempts: 1,
    providerMessageId: '18c2f0a9', error: null, createdAt: '2025-07-14T07:06:00.000Z', sentAt: '2025-07-14T07:06:05.000Z', nextAttemptAt: null,
    ...overrides,
  };
}

/** GET deliveries answering each call with the next list (the last one repeats); counts the calls. */
function deliveriesApi(...answers: MailDelivery[][]) {
  const asked: string[] = [];
  vi.stubGlobal('fetch', async (input: RequestInfo | URL) => {
    const url = new URL(String(input), 'http://localhost');
    if (url.pathname !== '/api/mail/deliveries') return jsonResponse(404, { statusCode: 404, code: 'NOT_FOUND', message: 'No encontrado' });
    asked.push(url.searchParams.get('runId') ?? '');
    return jsonResponse(200, { items: answers[Math.min(asked.length - 1, answers.length - 1)] });
  });
  return asked;
}

const renderDeliveries = (runId: string | null) => renderWithApp(<RunDeliveries runId={runId} />, { preloadedState: signedInState(testUser()) });

describe('RunDeliveries', () => {
  it('shows each mail: kind, recipients, subject, sender, attachments, state with the provider id (Madrid time)', async () => {
    deliveriesApi([delivery()]);
    renderDeliveries(RUN);
    const section = await screen.findByRole('region', { name: 'Correos de esta ejecución' });
    expect(section.querySelector('.flows-deliveries__kind')?.textContent).toBe('Resultado por email');
    expect(within(section).getByText('cliente@empresa.es, jefe@empresa.es')).toBeTruthy();
    expect(within(section).getByText('Resultado de Validar identificadores')).toBeTruthy();
    expect(within(section).getByText('asesoria@gmail.com')).toBeTruthy();
    expect(within(section).getByText('resultado.xlsx (2 kB)')).toBeTruthy();
    expect(within(section).getByText('Enviado a las 09:06 (id del proveedor: 18c2f0a9)')).toBeTruthy();
    expect(within(section).queryByText(/intentos/)).toBeNull();
  });

  it('words every state, the server as sender for SMTP, and the attempts when more than one', async () => {
    deliveriesApi([
      delivery({ _id: 'a', kind: 'notice', state: 'pending', attempts: 2, sentAt: null, providerMessageId: null, nextAttemptAt: '2025-07-14T07:10:00.000Z', transport: 'smtp', from: null, attachments: [] }),
      delivery({ _id: 'b', kind: 'account', state: 'failed', attempts: 5, sentAt: null, providerMessageId: null, error: 'El proveedor ha rechazado el mensaje' }),
      delivery({ _id: 'c', state: 'unknown', sentAt: null, providerMessageId: null, error: 'El servidor se detuvo durante el envío' }),
    ]);
    renderDeliveries(RUN);
    expect(await screen.findByText('Pendiente · reintento a las 09:10')).toBeTruthy();
    expect(screen.getByText('Aviso de fallo')).toBeTruthy();
    expect(screen.getByText('Servidor de AutoAsesor')).toBeTruthy();
    expect(screen.getByText('· 2 intentos', { exact: false })).toBeTruthy();
    expect(screen.getByText('Cuenta de correo')).toBeTruthy();
    expect(screen.getByText('No enviado: El proveedor ha rechazado el mensaje')).toBeTruthy();
    expect(screen.getByText('Desconocido: El servidor se detuvo durante el envío')).toBeTruthy();
  });

  it('says the date too when a mail went out on another day than the run, and Enviando while it goes', () => {
    expect(deliveryStateText(delivery({ sentAt: '2025-07-15T06:00:00.000Z', providerMessageId: null }))).toBe('Enviado el 15/07/2025 a las 08:00');
    expect(deliveryStateText(delivery({ state: 'sending', sentAt: null }))).toBe('Enviando');
    expect(deliveryStateText(delivery({ state: 'pending', nextAttemptAt: null, sentAt: null }))).toBe('Pendiente');
    // Graph answers 202 without an id.
    expect(deliveryStateText(delivery({ providerMessageId: null }))).toBe('Enviado a las 09:06');
  });

  it('shows nothing at all, no heading, when the run caused no mail; asks nothing while no run is open', async () => {
    const asked = deliveriesApi([]);
    const closed = renderDeliveries(null);
    await act(async () => new Promise((resolve) => setTimeout(resolve, 20)));
    expect(asked).toEqual([]);
    closed.unmount();
    const { container } = renderDeliveries(RUN);
    await waitFor(() => expect(asked).toEqual([RUN]));
    // The answer has arrived and been rendered: still nothing.
    await act(async () => new Promise((resolve) => setTimeout(resolve, 20)));
    expect(container.textContent).toBe('');
    expect(screen.queryByRole('heading')).toBeNull();
  });

  it('asks again every 5 s while a mail is pending or sending, and stops once all have settled', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const asked = deliveriesApi(
      [delivery({ state: 'pending', sentAt: null, providerMessageId: null, nextAttemptAt: '2025-07-14T07:07:00.000Z' })],
      [delivery({ state: 'sending', sentAt: null, providerMessageId: null })],
      [delivery()],
    );
    renderDeliveries(RUN);
    expect(await screen.findByText('Pendiente · reintento a las 09:07')).toBeTruthy();
    expect(asked).toHaveLength(1);
    await act(() => vi.advanceTimersByTimeAsync(DELIVERIES_POLL_MS));
    expect(await screen.findByText('Enviando')).toBeTruthy();
    await act(() => vi.advanceTimersByTimeAsync(DELIVERIES_POLL_MS));
    expect(await screen.findByText('Enviado a las 09:06 (id del proveedor: 18c2f0a9)')).toBeTruthy();
    const settled = asked.length;
    expect(settled).toBe(3);
    await act(() => vi.advanceTimersByTimeAsync(DELIVERIES_POLL_MS * 4));
    expect(asked).toHaveLength(settled);
  });

  it("is part of a run's detail in the history", async () => {
    stubApi({
      'GET /api/browserflow/flow': catalogueOf([]),
      'GET /api/flowlog': historyOf([flowLog({ _id: RUN })]),
      [`GET /api/flowlog/${RUN}`]: () => jsonResponse(200, flowLogDetail({ _id: RUN })),
      'GET /api/mail/deliveries': (url) => jsonResponse(200, { items: url.searchParams.get('runId') === RUN ? [delivery()] : [] }),
    });
    renderAt('/flows');
    fireEvent.click(await screen.findByRole('button', { name: 'Mostrar detalle' }));
    expect(await screen.findByRole('region', { name: 'Correos de esta ejecución' })).toBeTruthy();
    expect(screen.getByText('Resultado por email')).toBeTruthy();
  });
});
