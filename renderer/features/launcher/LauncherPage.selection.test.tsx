import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { Machine } from '#shared/api/machines.ts';
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
const HERE = '33333333-3333-4333-8333-333333333333';
const OFFICE = '11111111-1111-4111-8111-111111111111';
const FOLDER = '/home/ana/Justificantes 2025';
const EXTRACTO = '/home/ana/Descargas/extracto marzo.pdf';
const NOMINA = '/home/ana/Descargas/nómina marzo.pdf';

/**
 * The form flow as a desktop robot whose second step asks for a destination folder (required), some
 * files of this PC, and a certificate marked config.embedded (this PC's own only) instead of a plain one.
 */
function selectionFlow(runsOn: 'desktop' | 'server' = 'desktop'): FlowDefinition {
  const flow = formFlow({ runsOn });
  const contrato = flow.sectionSetup.builder[1];
  if (!contrato) throw new Error('the form fixture has two steps');
  contrato.builder = contrato.builder.filter((input) => input.key !== 'certificado');
  contrato.builder.push(
    { key: 'carpeta', template: 'SelectionDialog', label: 'Carpeta de destino', required: true, config: { directory: true } },
    { key: 'adjuntos', template: 'SelectionDialog', label: 'Adjuntos', config: { multiple: true } },
    { key: 'certificado', template: 'Certificate', label: 'Certificado', required: true, config: { embedded: true } },
  );
  return flow;
}

function machine(overrides: Partial<Machine> & { _id: string; savedAs: string }): Machine {
  return {
    name: overrides.savedAs, machineHashCode: 'f'.repeat(64), sync: true, shared: true, mine: true, owner: { email: 'ana@asesoria.es', name: 'Ana' },
    certificates: [], configs: [], lastSyncAt: '2025-01-01T00:00:00Z', linked: true, online: true, lastSeenAt: '2025-01-01T00:00:00Z',
    createdAt: '2025-01-01T00:00:00Z', ...overrides,
  };
}
const thisPc = machine({ _id: HERE, savedAs: 'Mesa de Ana', machineHashCode: THIS_HASH });
const office = machine({ _id: OFFICE, savedAs: 'PC Oficina' });

const ownCertificate: LocalCertificate = {
  fingerprint: '9'.repeat(64), serialNumber: 'ABC123', subjectString: 'CN=PRUEBAS GARCIA ANA, C=ES', commonName: 'PRUEBAS GARCIA ANA', issuer: 'AC FNMT Usuarios',
  notBefore: '2024-01-01T00:00:00Z', notAfter: '2099-06-30T10:00:00Z', nifVat: '99999999R', kind: 'person', store: 'nss', location: 'nss:Ana', holderNif: null,
};

/** The desktop bridge as its handlers answer; the native dialog answers each call with the next of `picks`. */
function fakeBridge(picks: unknown[], overrides: Partial<Record<BridgeCommand, BridgeAnswer>> = {}) {
  return fakeDesktopBridge({
    GetMachineHashCode: () => ({ ok: true, data: { machineHashCode: THIS_HASH, machineName: 'PC-ANA' } }),
    GetDeviceStatus: () => ({ ok: true, data: { linked: true, serverUrl: window.location.origin, machine: { _id: HERE, name: 'PC-ANA' }, problem: null } }),
    LaunchFlow: () => ({ ok: true, data: { runId: 'run-1', outputFolder: FOLDER } }),
    GetCertificatesList: () => ({ ok: true, data: { certificates: [ownCertificate], problems: [], folder: null, readAt: '2025-01-01T00:00:00Z' } }),
    OpenNativeSelectionDialog: () => picks.shift() ?? { ok: true, data: { paths: [] } },
    ...overrides,
  });
}

const picked = (...paths: string[]) => ({ ok: true, data: { paths } });

/** Fills the first step and the plain inputs of the second. */
async function fillPlainInputs() {
  fireEvent.change(await screen.findByLabelText(/^NIF/), { target: { value: 'X1234567L' } });
  fireEvent.click(screen.getByRole('button', { name: 'Siguiente' }));
  fireEvent.change(await screen.findByLabelText(/^Fecha de inicio/), { target: { value: '2025-03-01' } });
  fireEvent.change(screen.getByLabelText(/^Tipo de contrato/), { target: { value: '401' } });
  fireEvent.click(screen.getByLabelText(/^He revisado los datos/));
}

const field = (name: RegExp) => screen.getByRole('group', { name });

describe('SelectionDialog inputs in the desktop app', { timeout: 20_000 }, () => {
  it('pick a folder and files with the native dialog, list them (removable), require the folder, and send the paths', async () => {
    const fake = fakeBridge([picked(FOLDER), picked(EXTRACTO, NOMINA), picked(NOMINA)]);
    const { api } = renderLauncher(selectionFlow(), {
      'GET /api/machines': () => jsonResponse(200, { items: [thisPc] }),
      [`POST ${executionPath('alta-rapida')}`]: () => jsonResponse(202, runState({ state: 'queued', machine: { _id: HERE, name: 'PC-ANA', online: true } })),
      [`GET ${statePath}`]: () => jsonResponse(200, runState({ state: 'finished', output: output(200, { files: [], outputFolder: FOLDER, outputFileNames: [] }) })),
    }, undefined, { bridge: fake.bridge });
    await fillPlainInputs();

    const folder = field(/^Carpeta de destino \*/);
    expect(within(folder).getByText('Ninguna carpeta elegida.')).toBeTruthy();
    expect(within(field(/^Adjuntos/)).getByText('Ningún archivo elegido.')).toBeTruthy();

    // Required like any other input: nothing launches without the folder.
    await pickCertificate();
    fireEvent.click(launchButton());
    expect(await within(folder).findByText('Este campo es obligatorio')).toBeTruthy();
    expect(api.posts(executionPath('alta-rapida'))).toHaveLength(0);

    fireEvent.click(within(folder).getByRole('button', { name: 'Elegir carpeta' }));
    expect(await within(folder).findByText(FOLDER)).toBeTruthy();
    await waitFor(() => expect(within(folder).queryByText('Este campo es obligatorio')).toBeNull());

    const adjuntos = field(/^Adjuntos/);
    fireEvent.click(within(adjuntos).getByRole('button', { name: 'Elegir archivos' }));
    const list = await within(adjuntos).findByRole('list', { name: 'Adjuntos: elegidos' });
    expect(within(list).getAllByRole('listitem').map((item) => item.firstChild?.textContent)).toEqual([EXTRACTO, NOMINA]);
    // A second pick adds to the list (a file already there once), and 'Quitar' takes one out.
    fireEvent.click(within(adjuntos).getByRole('button', { name: 'Elegir archivos' }));
    await waitFor(() => expect(fake.argsOf('OpenNativeSelectionDialog')).toHaveLength(3));
    fireEvent.click(within(adjuntos).getByRole('button', { name: `Quitar ${EXTRACTO}` }));
    await waitFor(() => expect(within(adjuntos).queryByText(EXTRACTO)).toBeNull());
    expect(within(adjuntos).getAllByRole('listitem')).toHaveLength(1);

    expect(fake.argsOf('OpenNativeSelectionDialog')).toEqual([
      { directory: true, multiple: false, title: 'Carpeta de destino' },
      { directory: false, multiple: true, title: 'Adjuntos' },
      { directory: false, multiple: true, title: 'Adjuntos' },
    ]);
    fireEvent.click(launchButton());
    expect(await screen.findByRole('heading', { level: 2, name: 'Hecho' })).toBeTruthy();
    const [launch] = api.posts(executionPath('alta-rapida'));
    expect(launch?.body).toMatchObject({ machineId: HERE, localLaunch: true, inputs: { carpeta: [FOLDER], adjuntos: [NOMINA], certificado: '9'.repeat(64) } });
  });

  it("shows the bridge's refusal under the field (the agent has no window), and a cancelled dialog changes nothing", async () => {
    const headless = { ok: false, error: { code: 'UNAVAILABLE', message: 'El agente no tiene ventanas: elige los archivos en la aplicación de escritorio.' } };
    const fake = fakeBridge([headless, picked()]);
    renderLauncher(selectionFlow(), { 'GET /api/machines': () => jsonResponse(200, { items: [thisPc] }) }, undefined, { bridge: fake.bridge });
    await fillPlainInputs();
    const folder = field(/^Carpeta de destino/);
    fireEvent.click(within(folder).getByRole('button', { name: 'Elegir carpeta' }));
    expect((await within(folder).findByRole('alert')).textContent).toBe('El agente no tiene ventanas: elige los archivos en la aplicación de escritorio.');

    fireEvent.click(within(folder).getByRole('button', { name: 'Elegir carpeta' }));
    await waitFor(() => expect(within(folder).queryByRole('alert')).toBeNull());
    expect(within(folder).getByText('Ninguna carpeta elegida.')).toBeTruthy();
    expect(await within(folder).findByText('Este campo es obligatorio')).toBeTruthy();
  });

  it('on another machine, this PC’s paths and certificates do not apply: they are cleared and cannot be chosen', async () => {
    const fake = fakeBridge([picked(FOLDER)]);
    renderLauncher(selectionFlow(), { 'GET /api/machines': () => jsonResponse(200, { items: [thisPc, office] }) }, undefined, { bridge: fake.bridge });
    await fillPlainInputs();
    fireEvent.click(within(field(/^Carpeta de destino/)).getByRole('button', { name: 'Elegir carpeta' }));
    expect(await screen.findByText(FOLDER)).toBeTruthy();
    await pickCertificate();

    fireEvent.click(screen.getByRole('button', { name: 'Atrás' }));
    const devices = await screen.findByRole('group', { name: /^Dispositivo/ });
    fireEvent.click(await within(devices).findByRole('radio', { name: /PC Oficina/ }));
    fireEvent.click(screen.getByRole('button', { name: 'Siguiente' }));

    const folder = await screen.findByRole('group', { name: /^Carpeta de destino/ });
    expect(within(folder).getByText('Ninguna carpeta elegida.')).toBeTruthy();
    expect(within(folder).getByText('Solo se puede elegir si el robot se ejecuta en este dispositivo.')).toBeTruthy();
    expect((within(folder).getByRole('button', { name: 'Elegir carpeta' }) as HTMLButtonElement).disabled).toBe(true);

    const certificate = field(/^Certificado/);
    expect(within(certificate).getByText('Ningún certificado elegido.')).toBeTruthy();
    fireEvent.click(within(certificate).getByRole('button', { name: 'Elegir certificado' }));
    expect((await within(certificate).findByRole('alert')).textContent).toBe('Este certificado tiene que estar en este dispositivo: elige «Este dispositivo» para que el robot se ejecute aquí.');
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});

describe('a certificate marked config.embedded in the desktop app', { timeout: 20_000 }, () => {
  it("offers this PC's certificates only, even for a server flow, and is required like a plain one", async () => {
    const fake = fakeBridge([picked(FOLDER)]);
    const { api } = renderLauncher(selectionFlow('server'), {
      [`POST ${executionPath('alta-rapida')}`]: () => jsonResponse(202, runState({ state: 'queued' })),
      [`GET ${statePath}`]: () => jsonResponse(200, runState({ state: 'finished', output: output(200, { files: [] }) })),
    }, undefined, { bridge: fake.bridge });
    await fillPlainInputs();
    fireEvent.click(within(field(/^Carpeta de destino/)).getByRole('button', { name: 'Elegir carpeta' }));
    fireEvent.click(launchButton());
    expect(await within(field(/^Certificado/)).findByText('Necesitas seleccionar un certificado para continuar.')).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Elegir certificado' }));
    const dialog = await screen.findByRole('dialog', { name: 'Elige certificado' });
    expect(within(dialog).getAllByRole('radio')).toHaveLength(1);
    fireEvent.click(within(dialog).getByRole('radio', { name: 'PRUEBAS GARCIA ANA' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Aceptar' }));
    expect(await screen.findByText('PRUEBAS GARCIA ANA · 99999999R')).toBeTruthy();
    expect(api.calls.some((call) => call.path === '/api/machines')).toBe(false);
  });
});

describe('desktop-only inputs in the web app', { timeout: 20_000 }, () => {
  it('say they can only be chosen in the desktop app, and are neither required nor sent', async () => {
    const { api } = renderLauncher(selectionFlow('server'), {
      [`POST ${executionPath('alta-rapida')}`]: () => jsonResponse(202, runState({ state: 'queued' })),
      [`GET ${statePath}`]: () => jsonResponse(200, runState({ state: 'finished', output: output(200, { files: [] }) })),
    });
    await fillPlainInputs();
    expect(screen.getByRole('note', { name: 'Carpeta de destino' }).textContent)
      .toContain('Solo se puede elegir desde la aplicación de escritorio de AutoAsesor, en el equipo donde están los archivos.');
    expect(screen.getByRole('note', { name: 'Certificado' }).textContent)
      .toContain('Certificados locales no disponibles. Solo se puede elegir desde la aplicación de escritorio de AutoAsesor, en el equipo que tiene el certificado.');
    expect(screen.queryByRole('button', { name: 'Elegir carpeta' })).toBeNull();

    fireEvent.click(launchButton());
    expect(await screen.findByRole('heading', { level: 2, name: 'Hecho' })).toBeTruthy();
    const [launch] = api.posts(executionPath('alta-rapida'));
    expect(Object.keys((launch?.body as { inputs: object }).inputs)).not.toContain('carpeta');
    expect(Object.keys((launch?.body as { inputs: object }).inputs)).not.toContain('certificado');
  });
});

async function pickCertificate() {
  fireEvent.click(within(field(/^Certificado/)).getByRole('button', { name: 'Elegir certificado' }));
  const dialog = await screen.findByRole('dialog', { name: 'Elige certificado' });
  fireEvent.click(within(dialog).getByRole('radio', { name: 'PRUEBAS GARCIA ANA' }));
  fireEvent.click(within(dialog).getByRole('button', { name: 'Aceptar' }));
  await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
}
