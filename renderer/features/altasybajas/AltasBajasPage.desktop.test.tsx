/**
 * /altasybajas desktop actions: selection rule, the browser's ways on (a shared office machine, install steps),
 * certificate rule, RED/AFI and A3 as runs of their flows on this PC (issue 44, 5: in the history), results, refetch.
 */
import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import {
  altasRoutes, answer, failure, fakeBridge, machine, registered, renderAltas, rowOf, runState, setUpAltasTests, shownToasts, stubApi, submission,
} from './test/renderAltas.tsx';

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
const RED_RUN = 'POST /api/browserflow/execution/altas-automaticas-red';
const A3_RUN = 'POST /api/browserflow/execution/sincronizar-altas-a3';
const RUN_STATE = 'GET /api/browserflow/execution/state/token-1';
const launched = () => ({ ok: true, data: { runId: 'run-1', outputFolder: '/tmp/run-1' } });

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

  it('in the browser, leads to the launcher of each flow with a linked office machine chosen (issue 44, 3)', async () => {
    const office = machine();
    const unlinked = machine({ _id: '22222222-2222-4222-8222-222222222222', savedAs: 'Portátil viejo', linked: false });
    stubApi(altasRoutes({ submissions: [lucia] }, { 'GET /api/machines': answer({ items: [office, unlinked] }) }));
    renderAltas();
    await screen.findByText(lucia.title);
    // No selection needed: the flow takes every pending alta.
    fireEvent.click(screen.getByRole('button', { name: 'Altas Automáticas S. RED' }));
    const dialog = await screen.findByRole('dialog', { name: 'Registrar altas en Sistema RED' });
    const link = await within(dialog).findByRole('link', { name: 'Lanzar en PC Oficina' });
    expect(link.getAttribute('href')).toBe(`/launcher/altas-automaticas-red?machine=${office._id}`);
    expect(within(dialog).queryByRole('link', { name: /Portátil viejo/ })).toBeNull();
    expect(within(dialog).getByText('Abre el alta con «Ver Alta» y pulsa «Marcar como registrada».')).toBeTruthy();
    expect(shownToasts()).toEqual([]);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Entendido' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    fireEvent.click(screen.getByRole('button', { name: 'Sincronizar con A3' }));
    const a3 = await screen.findByRole('dialog', { name: 'Sincronizar altas con A3' });
    expect((await within(a3).findByRole('link', { name: 'Lanzar en PC Oficina' })).getAttribute('href')).toBe(`/launcher/sincronizar-altas-a3?machine=${office._id}`);
    expect(screen.queryByText(/En este PC quedan/)).toBeNull();
  });

  it('in the browser without a linked machine, says what to install and where, and links to Mis recursos', async () => {
    stubApi(altasRoutes({ submissions: [lucia] }, { 'GET /api/machines': answer({ items: [machine({ linked: false })] }) }));
    renderAltas();
    await screen.findByText(lucia.title);
    fireEvent.click(screen.getByRole('button', { name: 'Altas Automáticas S. RED' }));
    const dialog = await screen.findByRole('dialog', { name: 'Registrar altas en Sistema RED' });
    expect(await within(dialog).findByText('Aún no tienes ningún equipo conectado')).toBeTruthy();
    expect(within(dialog).getAllByRole('listitem').map((step) => step.textContent)).toEqual([
      'Instala la aplicación de escritorio de AutoAsesor, o el agente, en el ordenador de la oficina que tiene el certificado (y A3, si lo usas).',
      'Ábrela con tu cuenta, entra en Mis recursos y pulsa «Conectar este dispositivo».',
      'Si lo va a usar tu despacho, activa «Compartir con mi despacho» en ese dispositivo.',
      'Vuelve aquí: este botón te llevará a lanzar el registro en ese equipo.',
    ]);
    expect(within(dialog).getByRole('link', { name: 'Ir a Mis recursos' }).getAttribute('href')).toBe('/workspace');
    expect(within(dialog).queryByText(/solo está disponible/)).toBeNull();
  });

  it('needs a certificate, then files the selection in RED Online as a run on this PC, in the history like any launch', async () => {
    const calls = stubApi(altasRoutes({ submissions: [lucia, marta] }, {
      [RED_RUN]: answer(runState(), 202),
      [RUN_STATE]: answer(runState({ registradas: 1, errores: 1, 'primer error': '#DIL 3017 EL NAF NO ESTA EN FICHERO' })),
    }));
    const { bridge, calls: bridgeCalls } = fakeBridge({ GetCertificatesList: certificateList, LaunchFlow: launched });
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
    // The run of 'altas-automaticas-red' on this PC: the selection and the channel in its hidden inputs.
    const inputs = { certificado: 'BB22', altas: 's1,s3', canal: 'red-online' };
    expect(calls.find((call) => call.key === RED_RUN)?.body).toEqual({ step: 'datos', inputs, json: true, idempotencyKey: expect.any(String) as string, machineId: 'pc-1', localLaunch: true });
    expect(bridgeCalls.filter((call) => call.command === 'LaunchFlow')).toEqual([{ command: 'LaunchFlow', args: { flowId: 'altas-automaticas-red', flowInputs: inputs, executionToken: 'token-1' } }]);
    expect(bridgeCalls.some((call) => call.command === 'SyncSubmissions')).toBe(false);
    expect(shownToasts()).toEqual([{ kind: 'success', lines: ['1 registrada, 1 con error.', 'Primer error: #DIL 3017 EL NAF NO ESTA EN FICHERO', 'Lo tienes en el historial de ejecuciones.'] }]);
    await waitFor(() => expect(submissionReads(calls)).toBeGreaterThan(readsBefore));
    // What RED answered for is no longer selected: the next action starts clean.
    expect((rowOf(lucia.title).getByRole('checkbox') as HTMLInputElement).checked).toBe(false);
    expect((rowOf(marta.title).getByRole('checkbox') as HTMLInputElement).checked).toBe(false);
  });

  it('writes an AFI remittance when that channel is chosen; a refused launch shows in the dialog and closes its run', async () => {
    let refuse = true;
    const calls = stubApi(altasRoutes({ submissions: [lucia] }, {
      [RED_RUN]: answer(runState(), 202),
      [RUN_STATE]: answer(runState({ registradas: 0, errores: 0, 'fichero AFI': 'ALTAS20261120.AFI' })),
      'POST /api/browserflow/execution/state/token-1/stop': answer(runState()),
    }));
    const { bridge, calls: bridgeCalls } = fakeBridge({
      GetCertificatesList: certificateList,
      LaunchFlow: () => (refuse ? { ok: false, error: { code: 'UNAVAILABLE', message: 'No se encuentra la carpeta de SILTRA' } } : launched()),
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
    await waitFor(() => expect(calls.some((call) => call.key === 'POST /api/browserflow/execution/state/token-1/stop')).toBe(true));
    refuse = false;
    fireEvent.click(within(dialog).getByRole('button', { name: 'Registrar altas' }));
    await waitFor(() => expect(shownToasts()).toEqual([{ kind: 'success', lines: ['Remesa AFI preparada para SILTRA: ALTAS20261120.AFI', 'Lo tienes en el historial de ejecuciones.'] }]));
    expect(bridgeCalls.filter((call) => call.command === 'LaunchFlow').at(-1)?.args).toEqual({ flowId: 'altas-automaticas-red', flowInputs: { certificado: 'AA11', altas: 's1', canal: 'afi' }, executionToken: 'token-1' });
  });

  it('says why the server refused the run (no credits) and files nothing', async () => {
    stubApi(altasRoutes({ submissions: [lucia] }, { [RED_RUN]: failure(402, 'No tienes créditos suficientes para lanzar este robot.') }));
    const { bridge, calls: bridgeCalls } = fakeBridge({ GetCertificatesList: certificateList, LaunchFlow: launched });
    renderAltas({ bridge });
    await screen.findByText(lucia.title);
    fireEvent.click(rowOf(lucia.title).getByRole('checkbox'));
    fireEvent.click(screen.getByRole('button', { name: 'Altas Automáticas S. RED' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(await within(dialog).findByRole('radio', { name: 'ASESORIA LOPEZ SL - B12345678' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Registrar altas' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe('No tienes créditos suficientes para lanzar este robot.');
    expect(bridgeCalls.some((call) => call.command === 'LaunchFlow')).toBe(false);
  });

  it('syncs the selection with A3 as a run on this PC and says how A3 answered', async () => {
    const calls = stubApi(altasRoutes({ submissions: [lucia, pablo] }, {
      [A3_RUN]: answer(runState(), 202),
      [RUN_STATE]: answer(runState({ sincronizadas: 0, errores: 1, 'primer error': 'A3 no reconoce el CCC' })),
    }));
    let pendingA3 = [{ _id: 's9', title: pablo.title }];
    const { bridge, calls: bridgeCalls } = fakeBridge({
      GetForms: () => ({ ok: true, data: { red: [{ _id: 's1', title: lucia.title }], a3: pendingA3 } }),
      LaunchFlow: launched,
    });
    renderAltas({ bridge });
    await screen.findByText(pablo.title);
    // On the desktop the dashboard says what this PC's robots still have to do.
    expect((await screen.findByText(/En este PC quedan/)).textContent).toBe('En este PC quedan 1 por registrar en el Sistema RED y 1 por sincronizar con A3.');
    const readsBefore = submissionReads(calls);
    pendingA3 = [];
    fireEvent.click(rowOf(pablo.title).getByRole('checkbox'));
    fireEvent.click(screen.getByRole('button', { name: 'Sincronizar con A3' }));
    await waitFor(() => expect(shownToasts()).toEqual([{ kind: 'error', lines: ['0 sincronizadas con A3, 1 con error.', 'Primer error: A3 no reconoce el CCC', 'Lo tienes en el historial de ejecuciones.'] }]));
    expect(calls.find((call) => call.key === A3_RUN)?.body).toMatchObject({ step: 'datos', inputs: { altas: 's9' }, machineId: 'pc-1', localLaunch: true });
    expect(bridgeCalls.filter((call) => call.command === 'LaunchFlow')).toEqual([{ command: 'LaunchFlow', args: { flowId: 'sincronizar-altas-a3', flowInputs: { altas: 's9' }, executionToken: 'token-1' } }]);
    expect(bridgeCalls.some((call) => call.command === 'SyncSubmissionsToA3')).toBe(false);
    await waitFor(() => expect(submissionReads(calls)).toBeGreaterThan(readsBefore));
    // The reloaded list asks the desktop again.
    await screen.findByText('En este PC quedan 1 por registrar en el Sistema RED y 0 por sincronizar con A3.');
  });
});
