/** /fie: the filters live in the address and reach GET fie, which answers the list a page at a time; the two empty states and the error banner. */
import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { jsonResponse } from '../../test/renderApp.tsx';
import { currentQuery, document, entry, listOf, listQueries, renderFie, setUpFieTests, stubApi } from './test/renderFie.tsx';

setUpFieTests();

const lastQuery = (calls: Parameters<typeof listQueries>[0]) => Object.fromEntries(new URLSearchParams(listQueries(calls).at(-1) ?? ''));

/** Entries that each fail one filter of the shared link below but María's, which passes them all. */
const mixed = document({
  entryCount: 4,
  entries: [
    entry({ _id: 'm', fullname: 'MARÍA GARCÍA LÓPEZ', a3sync: 'error' }),
    entry({ _id: 'p', fullname: 'PEDRO GARCÍA SANZ', nif: '00000005M', type: 'alta', typeLabel: 'Alta del trabajador/a', a3sync: 'error' }),
    entry({ _id: 'l', fullname: 'LUIS MORA DÍAZ', nif: '00000003A', type: 'cit', typeLabel: 'Continuación en situación de IT', a3sync: 'error' }),
    entry({ _id: 'a', fullname: 'ANA GARCÍA GIL', nif: '00000002W', type: 'cit', typeLabel: 'Continuación en situación de IT', a3sync: 'pending' }),
  ],
});
const shownWorkers = () => screen.queryAllByRole('checkbox', { name: /^Seleccionar el parte de / }).map((box) => box.getAttribute('aria-label') ?? box.closest('label')?.textContent);
const workerBox = (fullname: string) => screen.queryByRole('checkbox', { name: `Seleccionar el parte de ${fullname}` });

describe('FiePage filters', () => {
  it('reads the filters from a shared link and asks the server for the first page of what they match', async () => {
    const calls = stubApi({ 'GET /api/fie': listOf([mixed]) });
    renderFie('/fie?q=garc%C3%ADa&tipo=cit,baja,nada&desde=2025-02-01&hasta=2025-02-28&a3=error');
    await screen.findByText('FIE_20250203.txt');
    expect(lastQuery(calls)).toEqual({ q: 'garcía', type: 'baja,cit', from: '2025-02-01', to: '2025-02-28', a3: 'error' });
    // One page of FIE_LIST_PAGE entries from the start, never the whole list.
    const [first] = calls.filter((call) => call.key === 'GET /api/fie');
    expect([first?.url.searchParams.get('limit'), first?.url.searchParams.get('offset')]).toEqual(['500', '0']);
    // Unknown types dropped; only María is a García, of a chosen type, in error.
    await waitFor(() => expect(workerBox('MARÍA GARCÍA LÓPEZ')).not.toBeNull());
    for (const other of ['PEDRO GARCÍA SANZ', 'LUIS MORA DÍAZ', 'ANA GARCÍA GIL']) expect(workerBox(other)).toBeNull();
    expect((screen.getByRole('searchbox', { name: 'Buscar por nombre, NIF o empresa' }) as HTMLInputElement).value).toBe('garcía');
    expect((screen.getByRole('checkbox', { name: 'Baja por incapacidad temporal' }) as HTMLInputElement).checked).toBe(true);
    expect((screen.getByRole('checkbox', { name: 'Alta del trabajador/a' }) as HTMLInputElement).checked).toBe(false);
    expect((screen.getByLabelText('Desde') as HTMLInputElement).value).toBe('2025-02-01');
    expect((screen.getByRole('combobox', { name: 'Estado en A3' }) as HTMLSelectElement).value).toBe('error');
  });

  it('writes the search (debounced) and the types to the address, and the list narrows to what the server answers for them', async () => {
    const calls = stubApi({ 'GET /api/fie': listOf([mixed]) });
    renderFie();
    await screen.findByText('FIE_20250203.txt');
    expect(listQueries(calls)).toEqual(['']);

    const search = screen.getByRole('searchbox', { name: 'Buscar por nombre, NIF o empresa' });
    fireEvent.change(search, { target: { value: 'garc' } });
    fireEvent.change(search, { target: { value: 'garcia' } });
    await waitFor(() => expect(currentQuery()).toBe('?q=garcia'));
    // Filtering opens the documents: the three Garcías, accents ignored.
    await waitFor(() => expect(workerBox('PEDRO GARCÍA SANZ')).not.toBeNull());
    expect([workerBox('MARÍA GARCÍA LÓPEZ'), workerBox('ANA GARCÍA GIL')].every(Boolean)).toBe(true);
    expect(workerBox('LUIS MORA DÍAZ')).toBeNull();
    // The search typed is asked for once it pauses, not letter by letter.
    expect(listQueries(calls)).toEqual(['', '?q=garcia']);
    expect(screen.getByText('3 partes en 1 FIE')).toBeTruthy();

    fireEvent.click(screen.getByRole('checkbox', { name: 'Continuación en situación de IT' }));
    fireEvent.click(screen.getByRole('checkbox', { name: 'Alta del trabajador/a' }));
    await waitFor(() => expect(workerBox('MARÍA GARCÍA LÓPEZ')).toBeNull());
    await waitFor(() => expect(shownWorkers()).toHaveLength(2));
    expect([workerBox('PEDRO GARCÍA SANZ'), workerBox('ANA GARCÍA GIL')].every(Boolean)).toBe(true);
    expect(new URLSearchParams(currentQuery()).get('tipo')).toBe('alta,cit');
    expect(lastQuery(calls)).toEqual({ q: 'garcia', type: 'alta,cit' });
  });

  it("asks the server for a date range, leaves a 'Hasta' before 'Desde' out, and clears every filter", async () => {
    const calls = stubApi({ 'GET /api/fie': listOf([mixed]) });
    renderFie('/fie?q=garcia&tipo=alta,cit');
    await screen.findByText('FIE_20250203.txt');
    const search = screen.getByRole('searchbox', { name: 'Buscar por nombre, NIF o empresa' });
    fireEvent.change(screen.getByRole('combobox', { name: 'Estado en A3' }), { target: { value: 'pending' } });
    fireEvent.change(screen.getByLabelText('Desde'), { target: { value: '2025-02-10' } });
    await waitFor(() => expect(lastQuery(calls)).toEqual({ q: 'garcia', type: 'alta,cit', a3: 'pending', from: '2025-02-10' }));
    expect(new URLSearchParams(currentQuery()).get('a3')).toBe('pending');

    fireEvent.change(screen.getByLabelText('Hasta'), { target: { value: '2025-02-01' } });
    expect((await screen.findByRole('alert')).textContent).toContain('«Hasta» es anterior a «Desde»');
    expect(lastQuery(calls)).not.toHaveProperty('to');
    fireEvent.change(screen.getByLabelText('Hasta'), { target: { value: '2025-02-20' } });
    await waitFor(() => expect(lastQuery(calls)).toEqual({ q: 'garcia', type: 'alta,cit', a3: 'pending', from: '2025-02-10', to: '2025-02-20' }));

    fireEvent.click(screen.getByRole('button', { name: 'Quitar filtros' }));
    await waitFor(() => expect(currentQuery()).toBe(''));
    // Unfiltered: every document, closed.
    expect((await screen.findByRole('button', { name: '03/02/2025 · FIE_20250203.txt · 4 partes' })).getAttribute('aria-expanded')).toBe('false');
    expect(lastQuery(calls)).toEqual({});
    expect((search as HTMLInputElement).value).toBe('');
    expect(screen.queryByRole('button', { name: 'Quitar filtros' })).toBeNull();
  });

  it('says there is nothing uploaded yet, and what to do, when the firm has no FIE', async () => {
    stubApi({ 'GET /api/fie': listOf([]) });
    renderFie();
    const empty = await screen.findByRole('region', { name: 'Todavía no has subido ningún FIE' });
    expect(empty.textContent).toContain('Arrastra aquí los ficheros FIE');
    expect(screen.queryByRole('region', { name: 'Ningún parte coincide con los filtros' })).toBeNull();
  });

  it('says the filters match nothing (not that nothing was uploaded) when filtering', async () => {
    stubApi({ 'GET /api/fie': listOf([]) });
    renderFie('/fie?q=nadie');
    const empty = await screen.findByRole('region', { name: 'Ningún parte coincide con los filtros' });
    expect(empty.textContent).toContain('quita los filtros');
    expect(screen.queryByText('Todavía no has subido ningún FIE')).toBeNull();
  });

  it('shows a banner with a retry when the list fails, and the list once it loads', async () => {
    let fail = true;
    stubApi({
      'GET /api/fie': (call) => (fail ? jsonResponse(500, { statusCode: 500, code: 'INTERNAL', message: 'Error' }) : listOf([document()])(call)),
    });
    renderFie();
    const banner = await screen.findByRole('alert');
    expect(banner.textContent).toContain('No se han podido cargar los FIE.');
    expect(screen.queryByText('Todavía no has subido ningún FIE')).toBeNull();
    fail = false;
    fireEvent.click(within(banner).getByRole('button', { name: 'Reintentar' }));
    expect(await screen.findByText('FIE_20250203.txt')).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
