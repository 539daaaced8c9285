/** /altasybajas desktop actions: selection rule, browser prompt, certificate rule, RED/AFI and A3 results, refetch. */
import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { altasRoutes, fakeBridge, registered, renderAltas, rowOf, setUpAltasTests, shownToasts, stubApi, submission } from './test/renderAltas.tsx';

setUpAltasTests();

const lucia = submission();
const marta = submission({ _id: 's3', title: 'Marta Sanz - Hostelería Levante S.L.' });
const pablo = registered();
const certificates = [
  { fingerprint: 'AA11', commonName: 'ASESORIA LOPEZ SL - B12345678' },
  { fingerprint: 'BB22', commonName: 'ANA LOPEZ - 12345678Z' },
];
const certificateList = () => ({ ok: true, data: { certificates, problems: [] } });
/** The bridge calls apart from GetForms (the dashboard makes it whenever the list loads) and the link check before an action. */
const actionCalls = <T extends { command: string }>(calls: T[]) => calls.filter((call) => call.command !== 'GetForms' && call.command !== 'GetDeviceStatus');
const submissionReads = (calls: { key: string }[]) => calls.filter((call) => call.key === 'GET /api/form-to-flow-submission').length;

describe('AltasBajasPage desktop actions', () => {
  it('asks for a selection before either action', async () => {
    stubApi(altasRoutes({ submissions: [lucia] }));
    const { bridge, calls } = fakeBridge({ GetCertificatesList: certificateList });
    renderAltas({ bridge });
    await screen.findByText(lucia.title);
    fireEvent.click(screen.getByRole('button', { name: 'Altas Automáticas S. RED' }));
    expect(shownToasts()).toEqual([{ kind: 'error', lines: ['Necesitas seleccionar al menos un Alta para continuar.'] }]);
    fireEvent.click(screen.getByRole('button', { name: 'Sincronizar con A3' }));
    expect(shownToasts()).toHaveLength(1);
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(actionCalls(calls)).toEqual([]);
  });

  it('sends to Sistema RED only the selected pending registrations', async () => {
    stubApi(altasRoutes({ submissions: [lucia, pablo] }));
    const { bridge, calls } = fakeBridge({ GetCertificatesList: certificateList });
    renderAltas({ bridge });
    await screen.findByText(pablo.title);
    fireEvent.click(rowOf(pablo.title).getByRole('checkbox'));
    fireEvent.click(screen.getByRole('button', { name: 'Altas Automáticas S. RED' }));
    expect(shownToasts()).toEqual([{ kind: 'error', lines: ['Necesitas seleccionar al menos un Alta para continuar.'] }]);
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(actionCalls(calls)).toEqual([]);
  });

  it('explains in the browser that both actions need the desktop app', async () => {
    stubApi(altasRoutes({ submissions: [lucia] }));
    renderAltas();
    await screen.findByText(lucia.title);
    fireEvent.click(rowOf(lucia.title).getByRole('checkbox'));
    fireEvent.click(screen.getByRole('button', { name: 'Altas Automáticas S. RED' }));
    fireEvent.click(screen.getByRole('button', { name: 'Sincronizar con A3' }));
    expect(shownToasts()).toEqual([
      { kind: 'info', lines: ['Esta acción solo está disponible en la aplicación de escritorio, con tu certificado instalado en el PC.'] },
      { kind: 'info', lines: ['La sincronización con A3 necesita la aplicación de escritorio instalada en el PC donde está A3.'] },
    ]);
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.queryByText(/En este PC quedan/)).toBeNull();
  });

  it('needs a certificate, then registers the selection in RED Online and says how it went', async () => {
    const calls = stubApi(altasRoutes({ submissions: [lucia, marta] }));
    const { bridge, calls: bridgeCalls } = fakeBridge({
      GetCertificatesList: certificateList,
      SyncSubmissions: () => ({
        ok: true,
        data: { registered: 1, failed: 1, results: [{ submissionId: 's1', state: 'registered', message: 'OK' }, { submissionId: 's3', state: 'error', message: '#DIL 3017 EL NAF NO ESTA EN FICHERO' }] },
      }),
    });
    renderAltas({ bridge });
    await screen.findByText(lucia.title);
    fireEvent.click(screen.getByRole('checkbox', { name: 'Seleccionar todas las altas de Pendientes' }));
    fireEvent.click(screen.getByRole('button', { name: 'Altas Automáticas S. RED' }));
    const dialog = await screen.findByRole('dialog', { name: 'Altas Automáticas S. RED' });
    await within(dialog).findByRole('radio', { name: 'ASESORIA LOPEZ SL - B12345678' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Registrar altas' }));
    expect(within(dialog).getByRole('alert').textContent).toBe('Necesitas seleccionar un certificado para continuar.');
    expect(actionCalls(bridgeCalls).map((call) => call.command)).toEqual(['GetCertificatesList']);

    const readsBefore = submissionReads(calls);
    fireEvent.click(within(dialog).getByRole('radio', { name: 'ANA LOPEZ - 12345678Z' }));
    expect((within(dialog).getByRole('radio', { name: 'RED Online' }) as HTMLInputElement).checked).toBe(true);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Registrar altas' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(actionCalls(bridgeCalls)[1]).toEqual({ command: 'SyncSubmissions', args: { submissionIds: ['s1', 's3'], certificate: 'BB22', channel: 'red-online' } });
    expect(shownToasts()).toEqual([{ kind: 'success', lines: ['1 registrada, 1 con error.', 'Primer error: #DIL 3017 EL NAF NO ESTA EN FICHERO'] }]);
    await waitFor(() => expect(submissionReads(calls)).toBeGreaterThan(readsBefore));
    // What RED answered for is no longer selected: the next action starts clean.
    expect((rowOf(lucia.title).getByRole('checkbox') as HTMLInputElement).checked).toBe(false);
    expect((rowOf(marta.title).getByRole('checkbox') as HTMLInputElement).checked).toBe(false);
  });

  it('writes an AFI remittance when that channel is chosen, and shows a bridge refusal in the dialog', async () => {
    stubApi(altasRoutes({ submissions: [lucia] }));
    let refuse = true;
    const { bridge, calls } = fakeBridge({
      GetCertificatesList: certificateList,
      SyncSubmissions: () => (refuse
        ? { ok: false, error: { code: 'UNAVAILABLE', message: 'No se encuentra la carpeta de SILTRA' } }
        : { ok: true, data: { registered: 0, failed: 0, afiFile: 'ALTAS20261120.AFI', results: [{ submissionId: 's1', state: 'afi-written', message: 'ALTAS20261120.AFI' }] } }),
    });
    renderAltas({ bridge });
    await screen.findByText(lucia.title);
    fireEvent.click(rowOf(lucia.title).getByRole('checkbox'));
    fireEvent.click(screen.getByRole('button', { name: 'Altas Automáticas S. RED' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(await within(dialog).findByRole('radio', { name: 'ASESORIA LOPEZ SL - B12345678' }));
    fireEvent.click(within(dialog).getByRole('radio', { name: 'Remesa AFI para SILTRA' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Registrar altas' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe('No se encuentra la carpeta de SILTRA');
    refuse = false;
    fireEvent.click(within(dialog).getByRole('button', { name: 'Registrar altas' }));
    await waitFor(() => expect(shownToasts()).toEqual([{ kind: 'success', lines: ['Remesa AFI preparada para SILTRA: ALTAS20261120.AFI'] }]));
    expect(actionCalls(calls).at(-1)?.args).toEqual({ submissionIds: ['s1'], certificate: 'AA11', channel: 'afi' });
  });

  it('syncs the selection with A3 and says how A3 answered', async () => {
    const calls = stubApi(altasRoutes({ submissions: [lucia, pablo] }));
    let pendingA3 = [{ _id: 's9', title: pablo.title }];
    const { bridge, calls: bridgeCalls } = fakeBridge({
      GetForms: () => ({ ok: true, data: { red: [{ _id: 's1', title: lucia.title }], a3: pendingA3 } }),
      SyncSubmissionsToA3: () => ({ ok: true, data: { importFile: 'altas.xlsx', synced: 0, failed: 1, results: [{ submissionId: 's9', state: 'error', error: 'A3 no reconoce el CCC' }] } }),
    });
    renderAltas({ bridge });
    await screen.findByText(pablo.title);
    // On the desktop the dashboard says what this PC's robots still have to do.
    expect((await screen.findByText(/En este PC quedan/)).textContent).toBe('En este PC quedan 1 por registrar en el Sistema RED y 1 por sincronizar con A3.');
    const readsBefore = submissionReads(calls);
    pendingA3 = [];
    fireEvent.click(rowOf(pablo.title).getByRole('checkbox'));
    fireEvent.click(screen.getByRole('button', { name: 'Sincronizar con A3' }));
    await waitFor(() => expect(shownToasts()).toEqual([{ kind: 'error', lines: ['0 sincronizadas con A3, 1 con error.', 'Primer error: A3 no reconoce el CCC'] }]));
    expect(actionCalls(bridgeCalls)).toEqual([{ command: 'SyncSubmissionsToA3', args: { submissionIds: ['s9'] } }]);
    await waitFor(() => expect(submissionReads(calls)).toBeGreaterThan(readsBefore));
    // The reloaded list asks the desktop again.
    await screen.findByText('En este PC quedan 1 por registrar en el Sistema RED y 0 por sincronizar con A3.');
  });
});
