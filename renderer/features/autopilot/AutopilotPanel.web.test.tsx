import { describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Route, Routes, useLocation } from 'react-router-dom';
import { jsonResponse, renderWithApp, signedInState, testUser } from '../../test/renderApp.tsx';
import AutopilotPanel from './AutopilotPanel.tsx';
import { OTHER_SCHEDULE_ID, SCHEDULE_ID, eachTestAtNow, flowLog, schedule, stubApi } from './test/fixtures.ts';

eachTestAtNow();

function CurrentPath() {
  return <output aria-label="ruta">{useLocation().pathname}</output>;
}

function renderPanel(onClose = vi.fn()) {
  renderWithApp(
    <Routes>
      <Route path="*" element={<><AutopilotPanel desktop={false} title="Robots programados" onClose={onClose} /><CurrentPath /></>} />
    </Routes>,
    // Embedded without a bridge is the web panel too.
    { embedded: false, toasts: true, preloadedState: signedInState(testUser({}, { currencies: 'crédito|créditos' })), path: '/home' },
  );
  return onClose;
}

describe('the web panel (read-only, spec §6)', () => {
  it("lists the user's schedules by day with their latest remote runs, and no deletes or apps", async () => {
    const calls = stubApi({
      'GET /api/browserflow/schedule': () => jsonResponse(200, {
        items: [schedule(), schedule({ _id: OTHER_SCHEDULE_ID, browserFlowName: 'Modelo 303', scheduledDate: '2025-03-15T08:00:00.000Z', repeat: false, machine: null })],
      }),
      'GET /api/flowlog': (url) => jsonResponse(200, url.searchParams.get('browserFlowSchedule') === SCHEDULE_ID
        ? { total: 2, items: [flowLog(), flowLog({ _id: 'log-2', createAt: '2025-01-10T12:30:04.000Z', result: 'Fail' })] }
        : { total: 0, items: [] }),
    });
    const onClose = renderPanel();

    const today = await screen.findByRole('region', { name: 'Robots para hoy' });
    expect(within(today).getByText('Modelo 111')).toBeTruthy();
    expect(within(today).getByText('13:30')).toBeTruthy();
    expect(within(today).getByText('Se lanza cada 1 mes')).toBeTruthy();
    expect(within(today).getByText('En PC oficina')).toBeTruthy();
    const runs = await within(today).findByRole('list', { name: 'Últimas ejecuciones de Modelo 111' });
    expect(within(runs).getAllByRole('listitem').map((item) => item.textContent)).toEqual(['10/02/2025 13:30Finalizado', '10/01/2025 13:30El robot no se ha lanzado correctamente']);

    const later = screen.getByRole('region', { name: 'Robots del 15/03/2025' });
    expect(await within(later).findByText('Todavía no se ha lanzado')).toBeTruthy();

    expect(calls).toContain('GET /api/browserflow/schedule?user=ana%40asesoria.es');
    expect(calls).toContain(`GET /api/flowlog?browserFlowSchedule=${SCHEDULE_ID}&limit=5`);
    expect(screen.queryByRole('button', { name: /^Eliminar/ })).toBeNull();
    expect(screen.queryByRole('region', { name: 'Control de aplicaciones' })).toBeNull();
    expect(screen.queryByRole('switch')).toBeNull();

    fireEvent.click(within(today).getByRole('link', { name: 'Ver en el historial' }));
    expect(onClose).toHaveBeenCalled();
    expect(screen.getByRole('status', { name: 'ruta', hidden: true }).textContent).toBe('/flows');
  });

  it("says 'Esperando automatizaciones' when there are none", async () => {
    stubApi({ 'GET /api/browserflow/schedule': () => jsonResponse(200, { items: [] }) });
    renderPanel();
    expect(await screen.findByRole('heading', { name: 'Esperando automatizaciones' })).toBeTruthy();
  });

  it('says so when the schedules cannot be loaded, and tries again', async () => {
    let fail = true;
    stubApi({
      'GET /api/browserflow/schedule': () => (fail ? jsonResponse(500, { statusCode: 500, code: 'INTERNAL', message: 'Error' }) : jsonResponse(200, { items: [] })),
    });
    renderPanel();
    expect((await screen.findByRole('alert')).textContent).toContain('No se han podido cargar tus robots programados.');
    fail = false;
    fireEvent.click(screen.getByRole('button', { name: 'Reintentar' }));
    await waitFor(() => expect(screen.getByRole('heading', { name: 'Esperando automatizaciones' })).toBeTruthy());
  });
});
