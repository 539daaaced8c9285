import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { Machine, SyncedCertificate } from '#shared/api/machines.ts';
import type { BridgeCommand } from '#shared/bridge/contract.ts';
import type { LocalCertificate } from '#shared/certificates/certificate.ts';
import type { FlowDefinition } from '#shared/flows/definition.ts';
import { jsonResponse } from '../../test/renderApp.tsx';
import { preloadModal } from '../../ui/Modal.tsx';
import { fakeDesktopBridge, type BridgeAnswer } from './test/fakeDesktopBridge.ts';
import { formFlow } from './test/flowFixture.ts';
import { output, runState } from './test/launcherApi.ts';
import { executionPath, launchButton, renderLauncher, statePath } from './test/renderLauncher.tsx';

beforeAll(() => preloadModal());
afterEach(() => vi.unstubAllGlobals());

const THIS_HASH = 'a'.repeat(64);
const OFFICE = '11111111-1111-4111-8111-111111111111';
const LAPTOP = '22222222-2222-4222-8222-222222222222';
const HERE = '33333333-3333-4333-8333-333333333333';
const FOLDER = '/home/ana/AutoAsesor/ejecuciones/run-1';
const DEVICE_TOKEN = 't'.repeat(43);

/** The form flow as a desktop robot with a required certificate. */
function desktopFlow(): FlowDefinition {
  const flow = formFlow({ runsOn: 'desktop' });
  for (const section of flow.sectionSetup.builder) {
    for (const input of section.builder) if (input.key === 'certificado') input.required = true;
  }
  return flow;
}

function synced(digit: string, commonName: string, machine: { _id: string; name: string }): SyncedCertificate {
  return {
    _id: `c-${digit}`, fingerprint: digit.repeat(64), serialNumber: 'ABC123', subjectString: `CN=${commonName}`, subject: { CN: commonName },
    issuer: 'AC FNMT Usuarios', notBefore: '2024-01-01T00:00:00Z', notAfter: '2099-06-30T10:00:00Z', nifVat: 'B00000000', kind: 'representative',
    store: 'windows', machine, syncedAt: '2025-01-01T00:00:00Z',
  };
}

function machine(overrides: Partial<Machine> & { _id: string; savedAs: string }): Machine {
  return {
    name: overrides.savedAs, machineHashCode: 'f'.repeat(64), sync: true, shared: false, mine: true, owner: { email: 'ana@asesoria.es', name: 'Ana' },
    certificates: [], configs: [], lastSyncAt: '2025-01-01T00:00:00Z', linked: true, online: true, lastSeenAt: '2025-01-01T00:00:00Z',
    createdAt: '2025-01-01T00:00:00Z', ...overrides,
  };
}

const office = machine({
  _id: OFFICE, savedAs: 'PC Oficina', shared: true, mine: false, owner: { email: 'luis@asesoria.es', name: 'Luis' }, online: false,
  certificates: [synced('3', 'SOCIEDAD DEMO SL', { _id: OFFICE, name: 'PC Oficina' })],
});
const laptop = machine({ _id: LAPTOP, savedAs: 'Portátil de Ana', machineHashCode: 'b'.repeat(64) });
const thisPc = machine({ _id: HERE, savedAs: 'Mesa de Ana', machineHashCode: THIS_HASH });

const ownCertificate: LocalCertificate = {
  fingerprint: '9'.repeat(64), serialNumber: 'ABC123', subjectString: 'CN=PRUEBAS GARCIA ANA, C=ES', commonName: 'PRUEBAS GARCIA ANA', issuer: 'AC FNMT Usuarios',
  notBefore: '2024-01-01T00:00:00Z', notAfter: '2099-06-30T10:00:00Z', nifVat: '99999999R', kind: 'person', store: 'nss', location: 'nss:Ana', holderNif: null,
};

/** A desktop bridge answering like the real handlers; RobotRun events can be pushed with emit(). */
function fakeBridge(overrides: Partial<Record<BridgeCommand, BridgeAnswer>> = {}) {
  return fakeDesktopBridge({
    GetMachineHashCode: () => ({ ok: true, data: { machineHashCode: THIS_HASH, machineName: 'PC-ANA' } }),
    GetDeviceStatus: () => ({ ok: true, data: { linked: false, serverUrl: null, machine: null, problem: null } }),
    LinkDevice: (args: { serverUrl: string }) => ({ ok: true, data: { linked: true, serverUrl: args.serverUrl, machine: { _id: HERE, name: 'PC-ANA' }, problem: null } }),
    LaunchFlow: () => ({ ok: true, data: { runId: 'run-1', outputFolder: FOLDER } }),
    OpenFolder: () => ({ ok: true, data: { opened: true } }),
    GetCertificatesList: () => ({ ok: true, data: { certificates: [ownCertificate], problems: [], folder: null, readAt: '2025-01-01T00:00:00Z' } }),
    ...overrides,
  });
}

const deviceGroup = () => screen.findByRole('group', { name: /^Dispositivo/ });

/** Fills both steps but the certificate, from the first step with a device already chosen. */
async function fillInputs() {
  fireEvent.change(await screen.findByLabelText(/^NIF/), { target: { value: 'X1234567L' } });
  fireEvent.click(screen.getByRole('button', { name: 'Siguiente' }));
  fireEvent.change(await screen.findByLabelText(/^Fecha de inicio/), { target: { value: '2025-03-01' } });
  fireEvent.change(screen.getByLabelText(/^Tipo de contrato/), { target: { value: '401' } });
  fireEvent.click(screen.getByLabelText(/^He revisado los datos/));
}

async function pickCertificate(name: string) {
  fireEvent.click(await screen.findByRole('button', { name: 'Elegir certificado' }));
  const dialog = await screen.findByRole('dialog', { name: 'Elige certificado' });
  fireEvent.click(within(dialog).getByRole('radio', { name }));
  fireEvent.click(within(dialog).getByRole('button', { name: 'Aceptar' }));
  await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
}

describe('a desktop flow in the web app', { timeout: 20_000 }, () => {
  it('lists my machines and the shared ones with their connection, needs one, and launches remotely on it', async () => {
    const queuedOnOffice = runState({ state: 'queued', machine: { _id: OFFICE, name: 'PC Oficina', online: false } });
    let finished = false;
    const { api } = renderLauncher(desktopFlow(), {
      'GET /api/machines': () => jsonResponse(200, { items: [laptop, office] }),
      [`POST ${executionPath('alta-rapida')}`]: () => jsonResponse(202, queuedOnOffice),
      // The long poll holds while the run waits for its machine, until the test lets the machine finish it.
      [`GET ${statePath}`]: async () => {
        if (!finished) {
          await new Promise((resolve) => setTimeout(resolve, 50));
          return jsonResponse(200, queuedOnOffice);
        }
        return jsonResponse(200, runState({
          state: 'finished', machine: { _id: OFFICE, name: 'PC Oficina', online: true },
          output: output(200, { files: [{ name: 'justificante.pdf', size: 2048 }], outputFolder: 'C:\\AutoAsesor\\run-1', outputFileNames: ['justificante.pdf'] }),
        }));
      },
    });

    const group = await deviceGroup();
    const radios = await within(group).findAllByRole('radio');
    expect(radios.map((radio) => radio.closest('label')?.textContent)).toEqual(['Portátil de AnaConectado', 'PC OficinaDe LuisSin conexión']);
    expect(radios.some((radio) => (radio as HTMLInputElement).checked)).toBe(false);

    // No device: Siguiente stays on the step with the contract's message.
    fireEvent.change(screen.getByLabelText(/^NIF/), { target: { value: 'X1234567L' } });
    fireEvent.click(screen.getByRole('button', { name: 'Siguiente' }));
    expect(await within(group).findByText('Este robot necesita un dispositivo')).toBeTruthy();
    expect(screen.getByRole('heading', { level: 2, name: 'Trabajador' })).toBeTruthy();

    fireEvent.click(within(group).getByRole('radio', { name: /PC Oficina/ }));
    await waitFor(() => expect(within(group).queryByText('Este robot necesita un dispositivo')).toBeNull());
    await fillInputs();

    // The certificate picker lists that machine's synced certificates only.
    fireEvent.click(screen.getByRole('button', { name: 'Elegir certificado' }));
    const dialog = await screen.findByRole('dialog', { name: 'Elige certificado' });
    expect(within(dialog).getByText('Certificados sincronizados en «PC Oficina»: el robot los usará allí.')).toBeTruthy();
    expect(within(dialog).getAllByRole('radio')).toHaveLength(1);
    fireEvent.click(within(dialog).getByRole('radio', { name: 'SOCIEDAD DEMO SL' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Aceptar' }));
    expect(await screen.findByText('En el dispositivo «PC Oficina»')).toBeTruthy();

    fireEvent.click(launchButton());
    expect(await screen.findByText('Esperando a que PC Oficina empiece el robot…')).toBeTruthy();
    expect(screen.getByText('El dispositivo no está conectado: el robot empezará en cuanto se conecte')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Detener' })).toBeTruthy();

    finished = true;
    expect(await screen.findByRole('heading', { level: 2, name: 'Hecho' })).toBeTruthy();
    const [launch] = api.posts(executionPath('alta-rapida'));
    expect(launch?.body).toMatchObject({ machineId: OFFICE, inputs: { certificado: '3'.repeat(64) } });
    expect(launch?.body).not.toHaveProperty('localLaunch');
    // A remote launch's files travel to the server: a download link, and no folder to open.
    expect(screen.getByRole('link', { name: 'Descargar justificante.pdf' }).getAttribute('href')).toBe('/api/flowlog/run-1/outputs/justificante.pdf');
    expect(screen.queryByRole('button', { name: 'Abrir carpeta' })).toBeNull();
  });

  it('without any machine, explains how to connect one and goes no further', async () => {
    const { api } = renderLauncher(desktopFlow(), { 'GET /api/machines': () => jsonResponse(200, { items: [] }) });
    const card = await screen.findByRole('article', { name: 'No tienes ningún dispositivo conectado' });
    expect(card.textContent).toContain('Instala la aplicación de escritorio de AutoAsesor, o el agente, en el ordenador de la oficina.');
    expect(card.textContent).toContain('«Conectar este dispositivo»');
    fireEvent.change(screen.getByLabelText(/^NIF/), { target: { value: 'X1234567L' } });
    fireEvent.click(screen.getByRole('button', { name: 'Siguiente' }));
    expect(await screen.findByText('Este robot necesita un dispositivo')).toBeTruthy();
    expect(screen.getByRole('heading', { level: 2, name: 'Trabajador' })).toBeTruthy();
    expect(api.posts(executionPath('alta-rapida'))).toHaveLength(0);
  });

  it('another device clears a certificate chosen on the first one', async () => {
    const laptopWithCertificate = { ...laptop, certificates: [synced('4', 'OTRA SL', { _id: LAPTOP, name: 'Portátil de Ana' })] };
    renderLauncher(desktopFlow(), { 'GET /api/machines': () => jsonResponse(200, { items: [laptopWithCertificate, office] }) });
    fireEvent.click(await within(await deviceGroup()).findByRole('radio', { name: /PC Oficina/ }));
    await fillInputs();
    await pickCertificate('SOCIEDAD DEMO SL');
    // The chosen certificate shows once the picker's choice has rendered (later under a loaded suite).
    expect(await screen.findByText('SOCIEDAD DEMO SL · B00000000')).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Atrás' }));
    fireEvent.click(await within(await deviceGroup()).findByRole('radio', { name: /Portátil de Ana/ }));
    fireEvent.click(screen.getByRole('button', { name: 'Siguiente' }));
    expect(await screen.findByText('Ningún certificado elegido.')).toBeTruthy();
    await pickCertificate('OTRA SL');
    expect(await screen.findByText('En el dispositivo «Portátil de Ana»')).toBeTruthy();
  });
});

describe('a desktop flow in the desktop app', { timeout: 20_000 }, () => {
  it("runs on 'Este dispositivo' by default: links this PC silently, opens the run, LaunchFlow starts it, files stay in its folder", async () => {
    let openFolder: () => unknown = () => ({ ok: false, error: { code: 'NOT_FOUND', message: 'Esa carpeta ya no existe' } });
    const fake = fakeBridge({ OpenFolder: () => openFolder() });
    let polls = 0;
    const { api } = renderLauncher(desktopFlow(), {
      'GET /api/machines': () => jsonResponse(200, { items: [thisPc, office] }),
      'POST /api/machines/link': () => jsonResponse(200, { machine: { _id: HERE, name: 'PC-ANA' }, deviceToken: DEVICE_TOKEN }),
      [`POST ${executionPath('alta-rapida')}`]: () => jsonResponse(202, runState({ state: 'queued', machine: { _id: HERE, name: 'PC-ANA', online: true } })),
      [`GET ${statePath}`]: async () => {
        polls += 1;
        if (polls === 1) return jsonResponse(200, runState({ consoleLog: ['Abriendo la sede'], totalIterations: 4 }));
        // The long poll holds while the robot works; its progress events show meanwhile.
        await new Promise((resolve) => setTimeout(resolve, 600));
        return jsonResponse(200, runState({
          state: 'finished', consoleLog: ['Justificantes guardados'],
          output: output(200, { files: [], outputFolder: FOLDER, outputFileNames: ['justificante 1.pdf', 'justificante 2.pdf'] }, ['Abriendo la sede', 'Justificantes guardados']),
        }));
      },
    }, undefined, { bridge: fake.bridge });

    const group = await deviceGroup();
    await waitFor(() => expect(within(group).getAllByRole('radio')).toHaveLength(2));
    const radios = within(group).getAllByRole('radio') as HTMLInputElement[];
    expect(radios[0]?.closest('label')?.textContent).toBe('Este dispositivoSe ejecuta aquí');
    expect(radios[0]?.checked).toBe(true);
    // This PC's own record is not offered a second time.
    expect(radios[1]?.closest('label')?.textContent).toBe('PC OficinaDe LuisSin conexión');

    await fillInputs();
    await pickCertificate('PRUEBAS GARCIA ANA');
    expect(fake.commands()).toContain('GetCertificatesList');
    fireEvent.click(launchButton());

    expect(await screen.findByText('Abriendo la sede')).toBeTruthy();
    await waitFor(() => expect(fake.listeners.size).toBe(1));
    fake.emit({ type: 'progress', runId: 'run-1', successfulIterations: 3, totalIterations: 4 });
    expect(screen.getByText('3 de 4 completadas')).toBeTruthy();

    expect(await screen.findByRole('heading', { level: 2, name: 'Hecho' })).toBeTruthy();
    expect(fake.listeners.size).toBe(0);
    const link = api.posts('/api/machines/link');
    expect(link.map((call) => call.body)).toEqual([{ machineHashCode: THIS_HASH, machineName: 'PC-ANA' }]);
    expect(fake.calls.find((call) => call.command === 'LinkDevice')?.args).toEqual({ serverUrl: window.location.origin, deviceToken: DEVICE_TOKEN });
    const [launch] = api.posts(executionPath('alta-rapida'));
    expect(launch?.body).toMatchObject({ machineId: HERE, localLaunch: true, inputs: { certificado: '9'.repeat(64) } });
    const launchFlow = fake.calls.find((call) => call.command === 'LaunchFlow');
    expect(launchFlow?.args).toEqual({ flowId: 'alta-rapida', flowInputs: (launch?.body as { inputs: unknown }).inputs, executionToken: 'token-1' });
    // Link, then the run on the server, then the robot here.
    expect(fake.commands().filter((command) => ['GetDeviceStatus', 'LinkDevice', 'LaunchFlow'].includes(command))).toEqual(['GetDeviceStatus', 'LinkDevice', 'LaunchFlow']);

    // The files stayed on this PC: their names, no download link, and the folder to open.
    expect(screen.getByText('justificante 1.pdf')).toBeTruthy();
    expect(screen.getByText('justificante 2.pdf')).toBeTruthy();
    expect(screen.queryByRole('link', { name: /Descargar/ })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Abrir carpeta' }));
    expect((await screen.findByRole('alert')).textContent).toContain('No se ha podido abrir la carpeta: Esa carpeta ya no existe');
    openFolder = () => ({ ok: true, data: { opened: true } });
    fireEvent.click(screen.getByRole('button', { name: 'Abrir carpeta' }));
    await waitFor(() => expect(fake.calls.filter((call) => call.command === 'OpenFolder')).toHaveLength(2));
    expect(fake.calls.filter((call) => call.command === 'OpenFolder').map((call) => call.args)).toEqual([{ folder: FOLDER }, { folder: FOLDER }]);
  });

  it('already linked to this server: asks for no new token; each device offers its own certificates', async () => {
    const fake = fakeBridge({
      GetDeviceStatus: () => ({ ok: true, data: { linked: true, serverUrl: window.location.origin, machine: { _id: HERE, name: 'PC-ANA' }, problem: null } }),
    });
    const { api } = renderLauncher(desktopFlow(), {
      'GET /api/machines': () => jsonResponse(200, { items: [thisPc, laptop] }),
      [`POST ${executionPath('alta-rapida')}`]: () => jsonResponse(202, runState({ state: 'finished', output: output(200) })),
    }, undefined, { bridge: fake.bridge });
    fireEvent.click(await within(await deviceGroup()).findByRole('radio', { name: /Portátil de Ana/ }));
    await fillInputs();
    fireEvent.click(screen.getByRole('button', { name: 'Elegir certificado' }));
    const dialog = await screen.findByRole('dialog', { name: 'Elige certificado' });
    expect(within(dialog).getByText('Este dispositivo no tiene certificados compartidos')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancelar' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    // Back to this PC: its own store, and a local launch with the link it already holds.
    fireEvent.click(screen.getByRole('button', { name: 'Atrás' }));
    fireEvent.click(await within(await deviceGroup()).findByRole('radio', { name: /Este dispositivo/ }));
    fireEvent.click(screen.getByRole('button', { name: 'Siguiente' }));
    await pickCertificate('PRUEBAS GARCIA ANA');
    fireEvent.click(launchButton());
    expect(await screen.findByRole('heading', { level: 2, name: 'Hecho' })).toBeTruthy();
    expect(api.posts('/api/machines/link')).toHaveLength(0);
    expect(fake.commands()).not.toContain('LinkDevice');
    expect(api.posts(executionPath('alta-rapida'))[0]?.body).toMatchObject({ machineId: HERE, localLaunch: true });
  });

  it("'Programar' schedules it on this PC (linked first) or on the machine chosen: the schedule names that machine", async () => {
    const fake = fakeBridge();
    const scheduled = (call: { body: unknown }) => jsonResponse(201, {
      _id: 's1', browserFlowName: 'Alta rápida', browserFlow: 'alta-rapida', localProcess: null,
      scheduledDate: (call.body as { scheduledDate: string }).scheduledDate, repeat: false, every: 1, interval: 'days',
      user: { email: 'ana@asesoria.es', name: 'Ana' }, machine: { _id: HERE, name: 'PC-ANA' }, flowInputs: {}, sendOutputToServer: true, updatedAt: '2025-03-01T10:00:00.000Z',
    });
    const { api } = renderLauncher(desktopFlow(), {
      'GET /api/machines': () => jsonResponse(200, { items: [thisPc, office] }),
      'POST /api/machines/link': () => jsonResponse(200, { machine: { _id: HERE, name: 'PC-ANA' }, deviceToken: DEVICE_TOKEN }),
      'POST /api/browserflow/schedule/alta-rapida': scheduled,
    }, undefined, { bridge: fake.bridge });
    await deviceGroup();
    await fillInputs();
    await pickCertificate('PRUEBAS GARCIA ANA');
    const scheduleOnce = async () => {
      // find*: the page behind a dialog that just closed stays aria-hidden for a moment.
      fireEvent.click(await screen.findByRole('button', { name: 'Programar' }));
      // The scheduler is a lazy chunk: its first load takes seconds under a loaded machine's transform.
      const dialog = await screen.findByRole('dialog', { name: 'Elige fecha y hora' }, { timeout: 10_000 });
      fireEvent.click(within(dialog).getByRole('button', { name: 'Programar tarea' }));
      await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Elige fecha y hora' })).toBeNull());
    };
    await scheduleOnce();
    expect(api.posts('/api/browserflow/schedule/alta-rapida')[0]?.body).toMatchObject({ machine: HERE, flowInputs: { certificado: '9'.repeat(64) } });
    expect(fake.commands()).toContain('LinkDevice');
    expect(fake.commands()).not.toContain('LaunchFlow');

    fireEvent.click(await screen.findByRole('button', { name: 'Atrás' }));
    fireEvent.click(await within(await deviceGroup()).findByRole('radio', { name: /PC Oficina/ }));
    fireEvent.click(screen.getByRole('button', { name: 'Siguiente' }));
    await pickCertificate('SOCIEDAD DEMO SL');
    await scheduleOnce();
    expect(api.posts('/api/browserflow/schedule/alta-rapida')[1]?.body).toMatchObject({ machine: OFFICE, flowInputs: { certificado: '3'.repeat(64) } });
  }, 30_000);

  it('launches on another machine remotely: its id, no localLaunch and no LaunchFlow here', async () => {
    const fake = fakeBridge();
    const { api } = renderLauncher(desktopFlow(), {
      'GET /api/machines': () => jsonResponse(200, { items: [thisPc, office] }),
      [`POST ${executionPath('alta-rapida')}`]: () => jsonResponse(202, runState({ state: 'finished', output: output(200) })),
    }, undefined, { bridge: fake.bridge });
    fireEvent.click(await within(await deviceGroup()).findByRole('radio', { name: /PC Oficina/ }));
    await fillInputs();
    await pickCertificate('SOCIEDAD DEMO SL');
    fireEvent.click(launchButton());
    expect(await screen.findByRole('heading', { level: 2, name: 'Hecho' })).toBeTruthy();
    const body = api.posts(executionPath('alta-rapida'))[0]?.body;
    expect(body).toMatchObject({ machineId: OFFICE });
    expect(body).not.toHaveProperty('localLaunch');
    expect(fake.commands()).not.toContain('LaunchFlow');
    expect(fake.commands()).not.toContain('LinkDevice');
  });

  it('a failed link says why in Spanish, on the step, and launches nothing', async () => {
    const fake = fakeBridge();
    const { api } = renderLauncher(desktopFlow(), {
      'GET /api/machines': () => jsonResponse(200, { items: [office] }),
      'POST /api/machines/link': () => jsonResponse(400, { statusCode: 400, code: 'BAD_REQUEST', message: 'Pon un nombre a este dispositivo' }),
    }, undefined, { bridge: fake.bridge });
    await deviceGroup();
    await fillInputs();
    await pickCertificate('PRUEBAS GARCIA ANA');
    fireEvent.click(launchButton());
    expect((await screen.findByText(/No se ha podido conectar este dispositivo/)).textContent).toBe('No se ha podido conectar este dispositivo: Pon un nombre a este dispositivo');
    expect(screen.getByRole('heading', { level: 2, name: 'Contrato' })).toBeTruthy();
    expect(api.posts(executionPath('alta-rapida'))).toHaveLength(0);
    expect(fake.commands()).not.toContain('LinkDevice');
    expect(fake.commands()).not.toContain('LaunchFlow');
  });

  it('when LaunchFlow fails, the run is stopped on the server and the error names the reason', async () => {
    const fake = fakeBridge({
      GetDeviceStatus: () => ({ ok: true, data: { linked: true, serverUrl: window.location.origin, machine: { _id: HERE, name: 'PC-ANA' }, problem: null } }),
      LaunchFlow: () => ({ ok: false, error: { code: 'NOT_FOUND', message: 'Este robot no está instalado en este equipo' } }),
    });
    const { api } = renderLauncher(desktopFlow(), {
      'GET /api/machines': () => jsonResponse(200, { items: [thisPc] }),
      [`POST ${executionPath('alta-rapida')}`]: () => jsonResponse(202, runState({ state: 'queued' })),
      [`POST ${statePath}/stop`]: () => jsonResponse(200, runState({ state: 'finished', output: output(202, { cost: 0 }) })),
    }, undefined, { bridge: fake.bridge });
    await deviceGroup();
    await fillInputs();
    await pickCertificate('PRUEBAS GARCIA ANA');
    fireEvent.click(launchButton());
    expect(await screen.findByRole('heading', { level: 2, name: 'Fallo' })).toBeTruthy();
    expect(screen.getByText('Este robot no está instalado en este equipo')).toBeTruthy();
    await waitFor(() => expect(api.posts(`${statePath}/stop`)).toHaveLength(1));
    expect(api.calls.filter((call) => call.path === statePath)).toHaveLength(0);
  });
});
