/** /fie at scale (issue 43, 6): the list comes a page at a time, the next ones as an open document's end comes into view. */
import { describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { jsonResponse } from '../../test/renderApp.tsx';
import type { ReconciliationRow } from '#shared/api/fie.ts';
import { document as fieDocument, entry, listOf, listOffsets, reconciliationOf, renderFie, setUpFieTests, stubApi } from './test/renderFie.tsx';
import type { Handler } from './test/renderFie.tsx';

setUpFieTests();

/** One file of 1,200 bajas and an older one of 3: the list is 1,203 entries, three pages of 500. */
const big = fieDocument({
  _id: 'big', date: '2025-03-01', fileName: 'marzo.fie', registryDate: '01/03/2025',
  entries: Array.from({ length: 1_200 }, (_, index) => entry({ _id: `b${index}`, fieId: 'big', fullname: `PERSONA ${index}`, nif: `${String(index).padStart(8, '0')}T` })),
});
const small = fieDocument({
  _id: 'small', date: '2025-01-10', fileName: 'enero.fie', registryDate: '10/01/2025',
  entries: [entry({ _id: 's1', fieId: 'small', fullname: 'JUAN PÉREZ RUIZ' }), entry({ _id: 's2', fieId: 'small', fullname: 'EVA RÍOS' }), entry({ _id: 's3', fieId: 'small', fullname: 'LUIS MORA' })],
});
const count = () => document.querySelector('.fie-toolbar__count')?.textContent;
/** Scrolls the list to its end (far past it: the virtual list shows its last rows). */
function scrollToEnd() {
  const scroller = screen.getByTestId('fie-list-scroll');
  scroller.scrollTop = 10_000_000;
  fireEvent.scroll(scroller);
}

describe('FiePage list in pages', () => {
  it('asks for the first page only, heads every document and counts every parte, and loads the rest as the open document is read', async () => {
    const calls = stubApi({ 'GET /api/fie': listOf([big, small]) });
    renderFie();
    await screen.findByText('enero.fie');
    // Both files are listed from the first page, though the older one's entries are on the third.
    expect(screen.getByRole('button', { name: '01/03/2025 · marzo.fie · 1200 partes' })).toBeTruthy();
    expect(screen.getByRole('button', { name: '10/01/2025 · enero.fie · 3 partes' })).toBeTruthy();
    expect(count()).toBe('1203 partes en 2 FIE · 500 cargados');
    // Closed documents ask for nothing more.
    expect(listOffsets(calls)).toEqual([0]);

    fireEvent.click(screen.getByRole('button', { name: /· enero\.fie ·/ }));
    // Its entries are on the last page: the row in its place loads the pages up to them, one after the other.
    await waitFor(() => expect(screen.queryByRole('checkbox', { name: 'Seleccionar el parte de EVA RÍOS' })).not.toBeNull());
    expect(listOffsets(calls)).toEqual([0, 500, 1_000]);
    expect(count()).toBe('1203 partes en 2 FIE');
    expect(document.querySelector('.fie-more')).toBeNull();
  });

  it('selects the loaded partes, or every one that matches on any page, and exports what it says', async () => {
    const anulado = fieDocument({ _id: 'anulado', date: '2025-02-01', fileName: 'febrero.fie', entries: [entry({ _id: 'x1', fieId: 'anulado', isCanceled: true }), entry({ _id: 'x2', fieId: 'anulado', type: 'jub', disabled: true })] });
    const calls = stubApi({
      'GET /api/fie': listOf([big, anulado]),
      'POST /api/fie/export': () => new Response('PK-xlsx', { status: 200, headers: { 'content-type': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' } }),
    });
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:incidencias'), revokeObjectURL: vi.fn() }));
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    renderFie();
    await screen.findByText('marzo.fie');
    fireEvent.click(screen.getByRole('checkbox', { name: 'Seleccionar todos los partes cargados' }));
    expect(count()).toBe('500 partes seleccionados');
    expect(listOffsets(calls)).toEqual([0]);

    // The other 700 (and never the anulado nor the jubilación) without loading their pages.
    fireEvent.click(screen.getByRole('button', { name: 'Seleccionar todos los que coinciden' }));
    await waitFor(() => expect(count()).toBe('1200 partes seleccionados'));
    expect(listOffsets(calls)).toEqual([0]);
    expect(screen.queryByRole('button', { name: 'Seleccionar todos los que coinciden' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Exportar a A3' }));
    await waitFor(() => expect(click).toHaveBeenCalled());
    const exported = JSON.parse(String(calls.find((call) => call.key === 'POST /api/fie/export')?.init?.body)) as { entryIds: string[] };
    expect(exported.entryIds).toHaveLength(1_200);
    expect(exported.entryIds).not.toContain('x1');

    // A search keeps chosen only what it matches: PERSONA 7, 70-79 and 700-799.
    fireEvent.change(screen.getByRole('searchbox', { name: 'Buscar por nombre, NIF o empresa' }), { target: { value: 'PERSONA 7' } });
    await waitFor(() => expect(count()).toBe('111 partes seleccionados'));
  });

  // Three pages of 500 rows drawn in jsdom: seconds on a loaded machine.
  it('after a page fails, says so in the list and asks again only when told to', { timeout: 20_000 }, async () => {
    let fail = true;
    const list = listOf([big]);
    const pages: Handler = (call) => (fail && call.url.searchParams.get('offset') !== '0' ? jsonResponse(500, { statusCode: 500, code: 'INTERNAL', message: 'Error' }) : list(call));
    const calls = stubApi({ 'GET /api/fie': pages });
    renderFie();
    fireEvent.click(await screen.findByRole('button', { name: /· marzo\.fie ·/ }));
    await waitFor(() => {
      scrollToEnd();
      expect(screen.queryByText('No se han podido cargar más partes.'), JSON.stringify([listOffsets(calls), document.querySelector('.fie-more')?.textContent])).not.toBeNull();
    });
    // The entries already loaded stay, with no banner over them, and the failed page is not asked for again by itself.
    expect(screen.getByRole('checkbox', { name: 'Seleccionar el parte de PERSONA 499' })).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(listOffsets(calls)).toEqual([0, 500]);

    fail = false;
    fireEvent.click(screen.getByRole('button', { name: 'Cargar más partes' }));
    await waitFor(() => {
      scrollToEnd();
      expect(listOffsets(calls)).toEqual([0, 500, 500, 1_000]);
      expect(document.querySelector('.fie-more')).toBeNull();
    });
    expect(screen.getByRole('checkbox', { name: 'Seleccionar el parte de PERSONA 1199' })).toBeTruthy();
    expect(count()).toBe('1200 partes en 1 FIE');
  });

  it("'Conciliación con A3' with many open bajas goes straight to a page typed in (issue 43, 5)", async () => {
    // 100 workers in reverse order of surname: the table sorts them, 12 a page, 9 pages.
    const rows: ReconciliationRow[] = Array.from({ length: 100 }, (_, index) => {
      const number = String(99 - index).padStart(3, '0');
      return { nif: `${number}X`, fullname: `ANA APELLIDO${number}`, sortName: `APELLIDO${number}, ANA`, companyName: 'TALLERES NORTE SL', ccc: '28123456789', entryId: `r${number}`, leaveStart: '2025-01-10', daysOpen: 24, a3sync: 'pending', pendingEntries: 1 };
    });
    stubApi({ 'GET /api/fie': listOf([]), 'GET /api/fie/reconciliation': reconciliationOf(rows) });
    renderFie('/fie?vista=conciliacion');
    const table = await screen.findByRole('table', { name: 'Bajas abiertas y su estado en A3' });
    const names = () => within(table).getAllByRole('row').slice(1).map((tr) => within(tr).getAllByRole('cell')[0]?.textContent);
    expect(screen.getByText('Página 1 de 9')).toBeTruthy();
    expect(names()[0]).toBe('ANA APELLIDO000000X');

    const field = screen.getByRole('spinbutton', { name: 'Ir a la página' });
    fireEvent.change(field, { target: { value: '9' } });
    fireEvent.submit(field.closest('form') as HTMLFormElement);
    await waitFor(() => expect(screen.getByText('Página 9 de 9')).toBeTruthy());
    expect(names()).toEqual(['ANA APELLIDO096096X', 'ANA APELLIDO097097X', 'ANA APELLIDO098098X', 'ANA APELLIDO099099X']);
  });
});
