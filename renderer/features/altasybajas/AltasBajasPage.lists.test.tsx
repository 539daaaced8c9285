/** /altasybajas dashboard: the two lists, selection, name search, company filter, the chain, lastError and deleting. */
import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import {
  altasRoutes, answer, company, failure, noContent, region, registered, renderAltas, rowOf, rowTitles, setUpAltasTests, shownToasts, stubApi, submission,
} from './test/renderAltas.tsx';

setUpAltasTests();

const other = company({ _id: 'c2' }, { nombreEmpresa: 'Talleres Norte S.L.', CCC: [{ label: 'Bilbao', key: '48111111135' }] });
const lucia = submission();
const oscar = submission({ _id: 's2', title: 'Óscar Gil - Talleres Norte S.L.', company: { _id: 'c2', name: 'Talleres Norte S.L.' }, createdAt: '2026-11-20T16:45:00.000Z' });
const failed = submission({ _id: 's3', title: 'Marta Sanz - Hostelería Levante S.L.', lastError: '#DIL 3017 EL NAF NO ESTA EN FICHERO' });
const pablo = registered();

describe('AltasBajasPage lists', () => {
  it('shows the dashboard, the pending and history rows with company, date and the chain as text', async () => {
    const calls = stubApi(altasRoutes({ submissions: [oscar, lucia, pablo], companies: [company(), other] }));
    renderAltas();
    expect(screen.getByRole('heading', { level: 1, name: 'Altas y bajas' })).toBeTruthy();
    expect(screen.getByText('Altas | Historial y Pendientes')).toBeTruthy();
    await screen.findByText(lucia.title);
    expect(rowTitles('Pendientes')).toEqual([oscar.title, lucia.title]);
    expect(rowTitles('Historial')).toEqual([pablo.title]);
    expect(rowOf(oscar.title).getByText('20/11/26 17:45')).toBeTruthy();
    expect(rowOf(oscar.title).getByText('Talleres Norte S.L.')).toBeTruthy();
    // The chain as a person reads it (issue 44, 5): each state worded, never 'RED hecho'.
    const chain = rowOf(pablo.title).getByRole('list', { name: 'Estado del alta' });
    const steps = (list: HTMLElement) => [...list.querySelectorAll('li')].map((step) => step.querySelector(':scope > span:last-child')?.textContent);
    expect(steps(chain)).toEqual([
      'Recibida 17/11/26 09:00', 'Registrada en RED 18/11/26 11:00', 'Pendiente de A3', 'Empresa avisada 18/11/26 11:01',
    ]);
    expect(chain.textContent).not.toMatch(/hecho|pendiente\b/);
    expect(steps(rowOf(lucia.title).getByRole('list', { name: 'Estado del alta' }))).toEqual([
      'Recibida 19/11/26 09:05', 'Pendiente de RED', 'Pendiente de A3', 'Empresa sin avisar',
    ]);
    // Each row names the worker's NIF and fecha de alta (issue 44, 5).
    const facts = rowOf(lucia.title);
    expect(facts.getByText('NIF').nextElementSibling?.textContent).toBe('12345678Z');
    expect(facts.getByText('Fecha de alta').nextElementSibling?.textContent).toBe('20/11/2026');
    expect(calls.find((call) => call.key === 'GET /api/form-to-flow-submission')?.url.search).toBe('?flow=alta-trabajador&populate=company');
    for (const label of ['Configuración de empresas y grupos', 'Configuración del formulario', 'Actualizar', 'Nueva Alta', 'Sincronizar con A3', 'Altas Automáticas S. RED']) {
      expect(screen.getByRole('button', { name: label })).toBeTruthy();
    }
  });

  it('shows each list’s empty state', async () => {
    stubApi(altasRoutes());
    renderAltas();
    expect(await within(await screen.findByRole('region', { name: 'Pendientes' })).findByText('No hay altas pendientes.')).toBeTruthy();
    expect(within(region('Historial')).getByText('Todavía no hay altas en el historial.')).toBeTruthy();
  });

  it('says when the registrations cannot be loaded', async () => {
    stubApi(altasRoutes({}, { 'GET /api/form-to-flow-submission': failure(500, 'Error') }));
    renderAltas();
    expect((await screen.findByRole('alert')).textContent).toContain('No se han podido cargar las altas.');
  });

  it('filters by company (labelled with name and CCC) and searches by name without accents', async () => {
    stubApi(altasRoutes({ submissions: [oscar, lucia, pablo], companies: [company(), other] }));
    renderAltas();
    await screen.findByText(lucia.title);
    const filter = screen.getByRole('combobox', { name: 'Empresa' });
    expect(within(filter).getAllByRole('option').map((option) => option.textContent)).toEqual(['Todos', 'Hostelería Levante S.L. · 46123456752', 'Talleres Norte S.L. · 48111111135']);
    fireEvent.change(filter, { target: { value: 'c2' } });
    expect(rowTitles('Pendientes')).toEqual([oscar.title]);
    expect(within(region('Historial')).getByText('Todavía no hay altas en el historial.')).toBeTruthy();
    fireEvent.change(filter, { target: { value: '' } });
    fireEvent.change(within(region('Pendientes')).getByRole('searchbox'), { target: { value: 'lucia' } });
    expect(rowTitles('Pendientes')).toEqual([lucia.title]);
    expect(rowTitles('Historial')).toEqual([pablo.title]);
    fireEvent.change(within(region('Pendientes')).getByRole('searchbox'), { target: { value: 'nadie' } });
    expect(within(region('Pendientes')).getByText('Ninguna alta coincide con la búsqueda.')).toBeTruthy();
  });

  it('selects all the shown rows of a list, one by one, and counts them', async () => {
    stubApi(altasRoutes({ submissions: [oscar, lucia, pablo] }));
    renderAltas();
    await screen.findByText(lucia.title);
    const pending = within(region('Pendientes'));
    fireEvent.click(pending.getByRole('checkbox', { name: 'Seleccionar todas las altas de Pendientes' }));
    expect(pending.getByText('2 seleccionadas')).toBeTruthy();
    expect((rowOf(lucia.title).getByRole('checkbox') as HTMLInputElement).checked).toBe(true);
    expect((rowOf(pablo.title).getByRole('checkbox') as HTMLInputElement).checked).toBe(false);
    fireEvent.click(rowOf(oscar.title).getByRole('checkbox'));
    expect(pending.getByText('1 seleccionada')).toBeTruthy();
    expect((pending.getByRole('checkbox', { name: 'Seleccionar todas las altas de Pendientes' }) as HTMLInputElement).checked).toBe(false);
  });

  it('marks a pending row with a RED error and shows the error in a toast when the row is clicked', async () => {
    stubApi(altasRoutes({ submissions: [lucia, failed] }));
    renderAltas();
    await screen.findByText(failed.title);
    expect(rowOf(failed.title).getByText('Error en Sistema RED')).toBeTruthy();
    expect(rowOf(failed.title).getByText('Rechazada por RED')).toBeTruthy();
    expect(rowOf(lucia.title).queryByText('Error en Sistema RED')).toBeNull();
    // The row's own controls keep their job: ticking it selects, without a toast.
    fireEvent.click(rowOf(failed.title).getByRole('checkbox'));
    expect(shownToasts()).toEqual([]);
    fireEvent.click(screen.getByText(failed.title));
    expect(shownToasts()).toEqual([{ kind: 'error', lines: ['#DIL 3017 EL NAF NO ESTA EN FICHERO'] }]);
    fireEvent.click(screen.getByText(lucia.title));
    expect(shownToasts()).toHaveLength(1);
    // The mark is a button too, for the keyboard; the same toast replaces itself.
    fireEvent.click(rowOf(failed.title).getByRole('button', { name: `Ver el error de ${failed.title}` }));
    expect(shownToasts()).toEqual([{ kind: 'error', lines: ['#DIL 3017 EL NAF NO ESTA EN FICHERO'] }]);
  });

  it('deletes the selection after confirming, and refetches the lists', async () => {
    let items = [lucia, oscar];
    const calls = stubApi(altasRoutes({}, {
      'GET /api/form-to-flow-submission': () => answer({ items })({} as never),
      'DELETE /api/form-to-flow-submission/s1': () => {
        items = [oscar];
        return noContent({} as never);
      },
    }));
    renderAltas();
    await screen.findByText(lucia.title);
    const pending = within(region('Pendientes'));
    expect((pending.getByRole('button', { name: 'Eliminar seleccionadas' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(rowOf(lucia.title).getByRole('checkbox'));
    fireEvent.click(pending.getByRole('button', { name: 'Eliminar seleccionadas' }));
    const dialog = await screen.findByRole('dialog', { name: 'Eliminar altas' });
    expect(dialog.textContent).toContain('Se eliminará el alta seleccionada.');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Eliminar' }));
    await waitFor(() => expect(screen.queryByText(lucia.title)).toBeNull());
    expect(calls.filter((call) => call.key.startsWith('DELETE')).map((call) => call.key)).toEqual(['DELETE /api/form-to-flow-submission/s1']);
    expect(shownToasts()).toContainEqual({ kind: 'success', lines: ['Se ha eliminado el alta.'] });
  });

  it('refreshes on Actualizar', async () => {
    const calls = stubApi(altasRoutes({ submissions: [lucia] }));
    renderAltas();
    await screen.findByText(lucia.title);
    fireEvent.click(screen.getByRole('button', { name: 'Actualizar' }));
    await waitFor(() => expect(calls.filter((call) => call.key === 'GET /api/form-to-flow-submission')).toHaveLength(2));
  });
});
