/** /fie: the documents and their entries, selection, export, delete after confirming, the desktop actions and the reconciliation. */
import { describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { BridgeCommand } from '#shared/bridge/contract.ts';
import type { BridgeClient } from '../../bridge/client.ts';
import { jsonResponse } from '../../test/renderApp.tsx';
import { document, entry, linkedHere, listOf, reconciliationOf, renderFie, setUpFieTests, shownToasts, stubApi } from './test/renderFie.tsx';

setUpFieTests();

const older = document({
  _id: 'old', date: '2025-01-10', registryDate: '10/01/2025 • 14/01/2025', fileName: 'enero.txt', createdAt: '2025-01-14T08:00:00.000Z', entryCount: 10_000,
  entries: [entry({ _id: 'o1', fieId: 'old', fullname: 'JUAN PÉREZ RUIZ', nif: '00000001R' })],
});
const newer = document({
  _id: 'new', date: '2025-02-03', fileName: 'febrero.txt',
  entries: [
    entry({ _id: 'n1', fieId: 'new', type: 'alta', typeLabel: 'Alta del trabajador/a', leaveEnd: '2025-02-05', duration: 2, shortDuration: true, a3sync: 'synced' }),
    entry({ _id: 'n2', fieId: 'new', type: 'jub', typeLabel: 'Jubilación', disabled: true, fullname: 'ANA SANZ GIL', nif: '00000002W', a3sync: 'excluded' }),
    entry({
      _id: 'n3', fieId: 'new', fullname: 'LUIS MORA DÍAZ', nif: '00000003A', isCanceled: true, contingency: '[[ Tabla no encontrada ]]', a3sync: 'error',
      lastError: 'A3 no reconoce el CCC 28/1234567/89',
    }),
  ],
});

const header = (name: string) => screen.getByRole('button', { name: new RegExp(`· ${name.replace('.', '\\.')} ·`) });
const entryItem = (fullname: string) => screen.getByRole('checkbox', { name: `Seleccionar el parte de ${fullname}` }).closest('[role="listitem"]') as HTMLElement;

/** A desktop bridge answering each command with the envelope its entry returns; calls recorded. */
function fakeBridge(answers: Partial<Record<BridgeCommand, (args: unknown) => unknown>>) {
  const calls: { command: BridgeCommand; args: unknown }[] = [];
  const bridge = {
    kind: 'agent',
    available: true,
    invoke: async (command: BridgeCommand, args: unknown) => {
      // The link check before each action is not what these tests look at.
      if (command === 'GetDeviceStatus') return linkedHere();
      calls.push({ command, args });
      const answer = answers[command];
      return answer ? answer(args) : { ok: false, error: { code: 'UNKNOWN_COMMAND', message: 'No' } };
    },
    on: () => () => undefined,
  } as unknown as BridgeClient;
  return { bridge, calls };
}

describe('FiePage list', () => {
  it('lists documents newest first, each opening into its entries with their facts', async () => {
    stubApi({ 'GET /api/fie': listOf([older, newer]) });
    renderFie();
    await screen.findByText('febrero.txt');
    const headers = screen.getAllByRole('button', { expanded: false });
    expect(headers.map((button) => button.getAttribute('aria-label'))).toEqual(['03/02/2025 · febrero.txt · 3 partes', '10/01/2025 • 14/01/2025 · enero.txt · 1 de 10.000 partes']);
    expect(screen.queryByText('LUIS MORA DÍAZ')).toBeNull();

    fireEvent.click(header('febrero.txt'));
    expect(header('febrero.txt').getAttribute('aria-expanded')).toBe('true');
    const alta = entryItem('MARÍA GARCÍA LÓPEZ');
    expect(alta.textContent).toContain('Alta del trabajador/a');
    expect(alta.textContent).toContain('NIF12345678Z');
    expect(alta.textContent).toContain('TALLERES NORTE SL · CCC 28/1234567/89');
    expect(alta.textContent).toContain('Baja03/02/2025');
    expect(alta.textContent).toContain('Alta05/02/2025');
    expect(alta.textContent).toContain('Duración2 días Corta');
    expect(alta.textContent).toContain('Incidencia2 · IT enfermedad común');
    expect(alta.textContent).toContain('A3En A3');
    const canceled = entryItem('LUIS MORA DÍAZ');
    expect(within(canceled).getByText('Anulado')).toBeTruthy();
    expect(canceled.textContent).toContain('Contingencia[[ Tabla no encontrada ]]');
    expect(canceled.textContent).toContain('A3Error');
    expect(canceled.textContent).toContain('Último errorA3 no reconoce el CCC 28/1234567/89');
    expect(entryItem('ANA SANZ GIL').textContent).toContain('A3No aplica');
    expect(screen.queryByText('JUAN PÉREZ RUIZ')).toBeNull();
  });

  it('counts partes, not files, and an entry two files carry once, in the count and the selection alike (issue 43, 7)', async () => {
    const shared = entry({ _id: 's1', fullname: 'JUAN PÉREZ RUIZ', nif: '00000001R' });
    const first = document({ _id: 'd1', date: '2025-01-10', fileName: 'enero.txt', entries: [{ ...shared, fieId: 'd1' }] });
    const second = document({ _id: 'd2', date: '2025-02-10', fileName: 'febrero.txt', entries: [{ ...shared, fieId: 'd2' }, entry({ _id: 's2', fieId: 'd2' })] });
    stubApi({ 'GET /api/fie': listOf([first, second]) });
    renderFie();
    expect(await screen.findByText('2 partes en 2 FIE')).toBeTruthy();
    fireEvent.click(screen.getByRole('checkbox', { name: 'Seleccionar todos los partes cargados' }));
    expect(screen.getByText('2 partes seleccionados')).toBeTruthy();
  });

  it('goes back to the top of the list after a search, where its results start (issue 43, 7)', async () => {
    stubApi({ 'GET /api/fie': listOf([older, newer]) });
    renderFie();
    await screen.findByText('febrero.txt');
    const scroller = screen.getByTestId('fie-list-scroll');
    scroller.scrollTop = 400;
    fireEvent.change(screen.getByRole('searchbox', { name: 'Buscar por nombre, NIF o empresa' }), { target: { value: 'maría' } });
    await waitFor(() => expect(scroller.scrollTop).toBe(0));
  });

  it('shows a parte confirmed again in later FIE once, with each confirmation’s number and date, the latest first', async () => {
    const confirmed = document({
      _id: 'c', date: '2025-01-27', fileName: 'c.fie',
      entries: [entry({ _id: 'c1', fieId: 'c', type: 'cit', typeLabel: 'Continuación en situación de IT', confirmations: [{ number: 2, date: '2025-01-26' }, { number: 1, date: '2025-01-19' }] })],
    });
    stubApi({ 'GET /api/fie': listOf([confirmed]) });
    renderFie();
    fireEvent.click(await screen.findByRole('button', { name: /· c\.fie ·/ }));
    expect(entryItem('MARÍA GARCÍA LÓPEZ').textContent).toContain('Confirmacionesn.º 2 · 26/01/2025, n.º 1 · 19/01/2025');
  });

  it('shows dop, nac and jub entries but never lets them be selected, not even by "select all"', async () => {
    const calls = stubApi({ 'GET /api/fie': listOf([newer]), 'POST /api/fie/export': () => new Response('PK-xlsx', { status: 200, headers: { 'content-type': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' } }) });
    const createObjectURL = vi.fn(() => 'blob:incidencias');
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() }));
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    renderFie();
    fireEvent.click(await screen.findByRole('button', { name: /· febrero\.txt ·/ }));
    const retired = screen.getByRole('checkbox', { name: 'Seleccionar el parte de ANA SANZ GIL' }) as HTMLInputElement;
    expect(retired.disabled).toBe(true);
    expect(retired.getAttribute('aria-describedby')).not.toBeNull();
    expect(entryItem('ANA SANZ GIL').textContent).toContain('Este tipo de parte no se sincroniza con A3');

    expect((screen.getByRole('button', { name: 'Exportar a A3' }) as HTMLButtonElement).disabled).toBe(true);
    // An anulado parte is never passed to A3 either (issue 43, 8).
    const canceled = screen.getByRole('checkbox', { name: 'Seleccionar el parte de LUIS MORA DÍAZ' }) as HTMLInputElement;
    expect(canceled.disabled).toBe(true);
    expect(entryItem('LUIS MORA DÍAZ').textContent).toContain('Parte anulado: no se pasa a A3');
    const all = screen.getByRole('checkbox', { name: 'Seleccionar todos los partes cargados' }) as HTMLInputElement;
    fireEvent.click(all);
    expect(screen.getByText('1 parte seleccionado')).toBeTruthy();
    expect(all.checked).toBe(true);
    expect(all.indeterminate).toBe(false);
    expect(retired.checked).toBe(false);
    expect(canceled.checked).toBe(false);

    fireEvent.click(screen.getByRole('button', { name: 'Exportar a A3' }));
    await waitFor(() => expect(click, JSON.stringify(shownToasts())).toHaveBeenCalled());
    const exported = calls.find((call) => call.key === 'POST /api/fie/export');
    expect(JSON.parse(String(exported?.init?.body))).toEqual({ entryIds: ['n1'] });
    const link = click.mock.instances[0] as unknown as HTMLAnchorElement;
    expect(link.download).toBe('incidencias-a3.xlsx');
  });

  it('deletes a document only after "Eliminar FIE" is confirmed, and hides it only once the server answers 204', async () => {
    let answerDelete: (response: Response) => void = () => undefined;
    const calls = stubApi({
      'GET /api/fie': listOf([newer, older]),
      'DELETE /api/fie/old': () => new Promise<Response>((resolve) => { answerDelete = resolve; }),
    });
    renderFie();
    await screen.findByText('enero.txt');

    // Cancelling asks nothing.
    fireEvent.click(screen.getByRole('button', { name: 'Eliminar enero.txt' }));
    const dialog = await screen.findByRole('dialog', { name: 'Eliminar FIE «enero.txt»' });
    expect(dialog.textContent).toContain('El FIE se eliminará y no se podrá recuperar. Los datos ya sincronizados en A3 no se verán afectados.');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancelar' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(calls.some((call) => call.key.startsWith('DELETE'))).toBe(false);

    fireEvent.click(screen.getByRole('button', { name: 'Eliminar enero.txt' }));
    fireEvent.click(within(await screen.findByRole('dialog', { name: 'Eliminar FIE «enero.txt»' })).getByRole('button', { name: 'Eliminar' }));
    await waitFor(() => expect(calls.filter((call) => call.key === 'DELETE /api/fie/old')).toHaveLength(1));
    // Waiting for the server: still listed, busy.
    expect(screen.getByText('enero.txt')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Eliminar enero.txt' }) as HTMLButtonElement).disabled).toBe(true);

    answerDelete(new Response(null, { status: 204 }));
    await waitFor(() => expect(screen.queryByText('enero.txt')).toBeNull());
    expect(screen.getByText('febrero.txt')).toBeTruthy();
  });

  it('keeps the document and says so when the server refuses the delete', async () => {
    stubApi({
      'GET /api/fie': listOf([older]),
      'DELETE /api/fie/old': () => jsonResponse(500, { statusCode: 500, code: 'INTERNAL', message: 'Error' }),
    });
    renderFie();
    await screen.findByText('enero.txt');
    fireEvent.click(screen.getByRole('button', { name: 'Eliminar enero.txt' }));
    fireEvent.click(within(await screen.findByRole('dialog', { name: 'Eliminar FIE «enero.txt»' })).getByRole('button', { name: 'Eliminar' }));
    await waitFor(() => expect(shownToasts()).toEqual([{ kind: 'error', lines: ['No se ha podido eliminar el FIE. Inténtalo de nuevo.'] }]));
    expect(screen.getByText('enero.txt')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Eliminar enero.txt' }) as HTMLButtonElement).disabled).toBe(false);
  });

  it('in the browser, "Sincronizar con A3" and "Obtener de SILTRA" explain that they need the desktop app', async () => {
    const calls = stubApi({ 'GET /api/fie': listOf([older]) });
    renderFie();
    fireEvent.click(await screen.findByRole('button', { name: /· enero\.txt ·/ }));
    fireEvent.click(screen.getByRole('checkbox', { name: 'Seleccionar el parte de JUAN PÉREZ RUIZ' }));
    fireEvent.click(screen.getByRole('button', { name: 'Sincronizar con A3' }));
    await waitFor(() => expect(shownToasts()[0]?.lines[0]).toContain('necesita la aplicación de escritorio'));
    fireEvent.click(screen.getByRole('button', { name: 'Obtener de SILTRA' }));
    await waitFor(() => expect(shownToasts().some((toast) => toast.lines[0]?.includes('Traer los FIE de SILTRA necesita la aplicación de escritorio'))).toBe(true));
    expect(calls.some((call) => call.key === 'POST /api/fie/a3-records')).toBe(false);
  });

  it('on the desktop, syncs the selection through RunFieRobot with the records the server built', async () => {
    const record = {
      entryId: 'o1', fieId: 'old', dniEmpleado: '00000001R', nombreEmpresa: 'TALLERES NORTE SL', fechaFormateada: '03/02/2025', incidencia: 2, carencia: false,
      contingencia: 1, ccc: '28123456789', formatedccc: '28/1234567/89', diasAcumulados: null, fechaBajaBajaDuracion: null, incidenciaBajaBajaDuracion: null,
      canceled: false, date: '03/02/2025', incidenceCode: 2, workerDNI: '00000001R',
    };
    const calls = stubApi({ 'GET /api/fie': listOf([older]), 'POST /api/fie/a3-records': () => jsonResponse(200, { records: [record] }) });
    const { bridge, calls: bridgeCalls } = fakeBridge({
      RunFieRobot: () => ({ ok: true, data: { importFile: 'C:/A3/import/fie.xlsx', results: [{ entryId: 'o1', state: 'synced', error: null }], synced: 1, failed: 0 } }),
    });
    renderFie('/fie', { bridge });
    fireEvent.click(await screen.findByRole('button', { name: /· enero\.txt ·/ }));
    fireEvent.click(screen.getByRole('checkbox', { name: 'Seleccionar el parte de JUAN PÉREZ RUIZ' }));
    fireEvent.click(screen.getByRole('button', { name: 'Sincronizar con A3' }));
    await waitFor(() => expect(shownToasts()).toEqual([{ kind: 'success', lines: ['Se ha sincronizado 1 parte con A3.'] }]));
    expect(JSON.parse(String(calls.find((call) => call.key === 'POST /api/fie/a3-records')?.init?.body))).toEqual({ entryIds: ['o1'] });
    expect(bridgeCalls).toEqual([{ command: 'RunFieRobot', args: { flowId: 'sync-fie-a3', flowInputs: { 'input-dataTable': [record] }, fieIds: ['old'] } }]);
  });

  it('on the desktop, "Obtener de SILTRA" with no files found shows the §8 toast for that day', async () => {
    stubApi({ 'GET /api/fie': listOf([older]) });
    const fingerprint = 'a'.repeat(64);
    const { bridge, calls: bridgeCalls } = fakeBridge({
      GetCertificatesList: () => ({
        ok: true,
        data: { certificates: [{ fingerprint, commonName: 'ASESORIA PEREZ SL - B12345678' }], problems: [], folder: null, readAt: '2025-02-03T09:00:00.000Z' },
      }),
      GetFieFromSiltra: () => ({
        ok: true,
        data: { from: '2025-02-03', to: '2025-02-03', found: 0, upload: { results: [], processed: 0, failed: 0, alreadyAdded: 0 }, noResults: null },
      }),
    });
    renderFie('/fie', { bridge });
    await screen.findByText('enero.txt');
    fireEvent.click(screen.getByRole('button', { name: 'Obtener de SILTRA' }));
    const dialog = await screen.findByRole('dialog', { name: 'Obtener de SILTRA' });
    await waitFor(() => expect((within(dialog).getByRole('combobox', { name: 'Certificado' }) as HTMLSelectElement).value).toBe(fingerprint));
    fireEvent.change(within(dialog).getByLabelText('Día (o desde)'), { target: { value: '2025-02-03' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Obtener' }));
    await waitFor(() => expect(shownToasts()).toEqual([{ kind: 'info', lines: ['No hemos encontrado ningún FIE en SILTRA', 'Sin resultados en el dia 03/02/2025'] }]));
    expect(bridgeCalls.at(-1)).toEqual({ command: 'GetFieFromSiltra', args: { flowInputs: { 'input-certificate': fingerprint, 'input-msRange': ['2025-02-03'] } } });
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it("'Conciliación con A3' lists each open baja, whether A3 has it and the entries A3 lacks", async () => {
    stubApi({
      'GET /api/fie': listOf([older]),
      'GET /api/fie/reconciliation': reconciliationOf([
        { nif: '00000001R', fullname: 'JUAN PÉREZ RUIZ', sortName: 'PÉREZ RUIZ, JUAN', companyName: 'TALLERES NORTE SL', ccc: '28123456789', entryId: 'o1', leaveStart: '2025-01-10', daysOpen: 24, a3sync: 'pending', pendingEntries: 2 },
        { nif: '00000004G', fullname: 'EVA RÍOS', sortName: 'RÍOS, EVA', companyName: null, ccc: null, entryId: 'x9', leaveStart: '2025-01-20', daysOpen: 14, a3sync: 'synced', pendingEntries: 0 },
      ]),
    });
    renderFie('/fie?vista=conciliacion');
    const table = await screen.findByRole('table', { name: 'Bajas abiertas y su estado en A3' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((row) => within(row).getAllByRole('cell').map((cell) => cell.textContent))).toEqual([
      ['JUAN PÉREZ RUIZ00000001R', 'TALLERES NORTE SL · 28/1234567/89', '10/01/2025', '24 días', 'No · Pendiente', '2'],
      ['EVA RÍOS00000004G', '—', '20/01/2025', '14 días', 'Sí', '0'],
    ]);
  });

  it("'Conciliación con A3' sorts by surname, not first name, and searches by name, NIF, company or CCC", async () => {
    const row = (nif: string, fullname: string, sortName: string, companyName: string, ccc: string) =>
      ({ nif, fullname, sortName, companyName, ccc, entryId: `${nif}${ccc}`, leaveStart: '2025-01-10', daysOpen: 24, a3sync: 'pending', pendingEntries: 1 }) as const;
    stubApi({
      'GET /api/fie': listOf([older]),
      'GET /api/fie/reconciliation': reconciliationOf([
        row('00000001R', 'ANA ZAMORA GIL', 'ZAMORA GIL, ANA', 'TALLERES NORTE SL', '28123456789'),
        row('00000002W', 'ZOE ABAD RUIZ', 'ABAD RUIZ, ZOE', 'TALLERES NORTE SL', '28123456789'),
        // Pluriempleo: the same worker in two companies is two rows.
        row('00000002W', 'ZOE ABAD RUIZ', 'ABAD RUIZ, ZOE', 'BAR SOL SL', '08765432101'),
      ]),
    });
    renderFie('/fie?vista=conciliacion');
    const table = await screen.findByRole('table', { name: 'Bajas abiertas y su estado en A3' });
    const names = () => within(table).getAllByRole('row').slice(1).map((tr) => within(tr).getAllByRole('cell').slice(0, 2).map((cell) => cell.textContent).join(' | '));
    expect(names()).toEqual([
      'ZOE ABAD RUIZ00000002W | TALLERES NORTE SL · 28/1234567/89',
      'ZOE ABAD RUIZ00000002W | BAR SOL SL · 08/7654321/01',
      'ANA ZAMORA GIL00000001R | TALLERES NORTE SL · 28/1234567/89',
    ]);
    fireEvent.change(screen.getByRole('searchbox', { name: 'Buscar en la conciliación por nombre, NIF, empresa o CCC' }), { target: { value: 'bar sol' } });
    await waitFor(() => expect(names()).toEqual(['ZOE ABAD RUIZ00000002W | BAR SOL SL · 08/7654321/01']));
  });
});
