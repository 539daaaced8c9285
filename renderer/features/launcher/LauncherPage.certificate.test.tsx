import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { Machine, SyncedCertificate } from '#shared/api/machines.ts';
import type { LocalCertificate } from '#shared/certificates/certificate.ts';
import type { FlowDefinition } from '#shared/flows/definition.ts';
import type { BridgeClient } from '../../bridge/client.ts';
import { jsonResponse } from '../../test/renderApp.tsx';
import { preloadModal } from '../../ui/Modal.tsx';
import { formFlow } from './test/flowFixture.ts';
import { runState, output } from './test/launcherApi.ts';
import { executionPath, launchButton, renderLauncher } from './test/renderLauncher.tsx';

beforeAll(() => preloadModal());
afterEach(() => vi.unstubAllGlobals());

const REQUIRED = 'Necesitas seleccionar un certificado para continuar.';
const fingerprintOf = (digit: string) => digit.repeat(64);

/** The form flow with its certificate required (the shared fixture keeps it optional). */
function certificateFlow(overrides: Partial<FlowDefinition> = {}): FlowDefinition {
  const flow = formFlow(overrides);
  for (const section of flow.sectionSetup.builder) {
    for (const input of section.builder) if (input.key === 'certificado') input.required = true;
  }
  return flow;
}

function localCertificate(digit: string, commonName: string, nifVat: string | null): LocalCertificate {
  return {
    fingerprint: fingerprintOf(digit), serialNumber: 'ABC123', subjectString: `CN=${commonName}, C=ES`, commonName, issuer: 'AC FNMT Usuarios',
    notBefore: '2024-01-01T00:00:00Z', notAfter: '2099-06-30T10:00:00Z', nifVat, kind: 'person', store: 'windows',
    location: commonName, holderNif: null,
  };
}

function fakeBridge(answer: () => unknown) {
  const invoke = vi.fn(async (command: string) => {
    if (command === 'GetCertificatesList') return answer();
    return { ok: false, error: { code: 'UNAVAILABLE', message: 'No disponible' } };
  });
  const bridge = { kind: 'agent', available: true, invoke, on: () => () => undefined } as unknown as BridgeClient;
  return { bridge, invoke };
}

function synced(digit: string, commonName: string, machine: { _id: string; name: string }): SyncedCertificate {
  return {
    _id: `c-${digit}`, fingerprint: fingerprintOf(digit), serialNumber: 'ABC123', subjectString: `CN=${commonName}`, subject: { CN: commonName },
    issuer: 'AC FNMT Usuarios', notBefore: '2024-01-01T00:00:00Z', notAfter: '2099-06-30T10:00:00Z', nifVat: 'B12345674', kind: 'representative',
    store: 'windows', machine, syncedAt: '2025-01-01T00:00:00Z',
  };
}

function machine(id: string, savedAs: string, shared: boolean, certificates: [string, string][]): Machine {
  return {
    _id: id, name: `PC-${id}`, savedAs, machineHashCode: 'f'.repeat(64), sync: true, shared, mine: false,
    owner: { email: 'luis@asesoria.es', name: 'Luis' },
    certificates: certificates.map(([digit, name]) => synced(digit, name, { _id: id, name: savedAs })),
    configs: [], lastSyncAt: '2025-01-01T00:00:00Z', linked: true, online: true, lastSeenAt: '2025-01-01T00:00:00Z', createdAt: '2025-01-01T00:00:00Z',
  };
}

/** Fills every input of the form flow but the certificate, and stops on the launching step. */
async function fillAllButCertificate() {
  fireEvent.change(await screen.findByLabelText(/^NIF/), { target: { value: 'X1234567L' } });
  fireEvent.click(screen.getByRole('button', { name: 'Siguiente' }));
  fireEvent.change(await screen.findByLabelText(/^Fecha de inicio/), { target: { value: '2025-03-01' } });
  fireEvent.change(screen.getByLabelText(/^Tipo de contrato/), { target: { value: '401' } });
  fireEvent.click(screen.getByLabelText(/^He revisado los datos/));
}

const launched = () => ({ [`POST ${executionPath('alta-rapida')}`]: () => jsonResponse(202, runState({ state: 'finished', output: output(200) })) });

describe('the launcher Certificate input', { timeout: 15_000 }, () => {
  it('in the desktop app: required on launch, then offers this PC\'s certificates and sends the chosen fingerprint', async () => {
    const { bridge, invoke } = fakeBridge(() => ({
      ok: true,
      data: {
        certificates: [localCertificate('a', 'GARCIA LOPEZ ANA - 12345678Z', '12345678Z'), localCertificate('b', 'ASESORIA NORTE SL', 'B12345674')],
        problems: [{ code: 'PASSWORD_REQUIRED', store: 'pkcs12', source: 'empresa.p12', message: 'empresa.p12 necesita su contraseña.' }],
        folder: 'C:\\Certificados', readAt: '2025-01-01T00:00:00Z',
      },
    }));
    const { api } = renderLauncher(certificateFlow(), launched(), undefined, { bridge });
    await fillAllButCertificate();
    expect(screen.getByText('Ningún certificado elegido.')).toBeTruthy();
    fireEvent.click(launchButton());
    expect(await screen.findByText(REQUIRED)).toBeTruthy();
    expect(api.posts(executionPath('alta-rapida'))).toHaveLength(0);

    fireEvent.click(screen.getByRole('button', { name: 'Elegir certificado' }));
    const dialog = await screen.findByRole('dialog', { name: 'Elige certificado' });
    expect(invoke).toHaveBeenCalledWith('GetCertificatesList', {});
    expect(within(dialog).getByText('Algunos certificados no se han podido leer: empresa.p12 necesita su contraseña.')).toBeTruthy();
    expect(within(dialog).getAllByText('Almacén de Windows')).toHaveLength(2);
    fireEvent.click(within(dialog).getByRole('radio', { name: 'ASESORIA NORTE SL' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Aceptar' }));

    expect(await screen.findByText('ASESORIA NORTE SL · B12345674')).toBeTruthy();
    await waitFor(() => expect(screen.queryByText(REQUIRED)).toBeNull());
    expect(screen.getByRole('button', { name: 'Cambiar certificado' })).toBeTruthy();
    fireEvent.click(launchButton());
    await waitFor(() => expect(api.posts(executionPath('alta-rapida'))).toHaveLength(1));
    const [launch] = api.posts(executionPath('alta-rapida'));
    expect((launch?.body as { inputs: Record<string, unknown> }).inputs['certificado']).toBe(fingerprintOf('b'));
  });

  it('in the desktop app: says so when the bridge cannot list the certificates, and opens no picker', async () => {
    const { bridge } = fakeBridge(() => ({ ok: false, error: { code: 'INTERNAL', message: 'No se ha podido leer el almacén de certificados' } }));
    renderLauncher(certificateFlow(), {}, undefined, { bridge });
    await fillAllButCertificate();
    fireEvent.click(screen.getByRole('button', { name: 'Elegir certificado' }));
    expect((await screen.findByRole('alert')).textContent).toBe('No se ha podido leer el almacén de certificados');
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('in the web app: offers only the shared machines\' certificates, grouped by machine, and sends the chosen fingerprint', async () => {
    const { api } = renderLauncher(certificateFlow(), {
      ...launched(),
      'GET /api/machines': () => jsonResponse(200, { items: [
        machine('m1', 'PC Recepción', true, [['1', 'ASESORIA NORTE SL'], ['2', 'TALLERES SUR SA']]),
        machine('m2', 'Portátil privado', false, [['3', 'SECRETO SL']]),
      ] }),
    });
    await fillAllButCertificate();
    expect(screen.queryByText(/Certificados locales no disponibles/)).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Elegir certificado' }));
    const dialog = await screen.findByRole('dialog', { name: 'Elige certificado' });
    expect(within(dialog).getByText(/el robot se ejecutará en el dispositivo del certificado que elijas/)).toBeTruthy();
    const reception = within(dialog).getByRole('group', { name: 'PC Recepción' });
    expect(within(reception).getAllByRole('radio')).toHaveLength(2);
    expect(within(dialog).queryByText('SECRETO SL')).toBeNull();
    expect(within(dialog).queryByRole('group', { name: 'Portátil privado' })).toBeNull();

    fireEvent.click(within(dialog).getByRole('button', { name: 'Aceptar' }));
    expect(within(dialog).getByRole('alert').textContent).toBe(REQUIRED);
    fireEvent.click(within(reception).getByRole('radio', { name: 'TALLERES SUR SA' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Aceptar' }));

    expect(await screen.findByText('TALLERES SUR SA · B12345674')).toBeTruthy();
    expect(screen.getByText('En el dispositivo «PC Recepción»')).toBeTruthy();
    fireEvent.click(launchButton());
    await waitFor(() => expect(api.posts(executionPath('alta-rapida'))).toHaveLength(1));
    const [launch] = api.posts(executionPath('alta-rapida'));
    expect((launch?.body as { inputs: Record<string, unknown> }).inputs['certificado']).toBe(fingerprintOf('2'));
  });

  it("in the web app: 'No hay compartidos en tu entorno de trabajo' without shared machines; a failed load says so", async () => {
    let fail = false;
    renderLauncher(certificateFlow(), {
      'GET /api/machines': () => (fail ? jsonResponse(500, { statusCode: 500, code: 'INTERNAL', message: 'Error' }) : jsonResponse(200, { items: [machine('m2', 'Portátil privado', false, [['3', 'SECRETO SL']])] })),
    });
    await fillAllButCertificate();
    fireEvent.click(screen.getByRole('button', { name: 'Elegir certificado' }));
    const dialog = await screen.findByRole('dialog', { name: 'Elige certificado' });
    expect(within(dialog).getByText('No hay compartidos en tu entorno de trabajo')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancelar' }));
    expect(await screen.findByText(REQUIRED)).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    fail = true;
    fireEvent.click(screen.getByRole('button', { name: 'Elegir certificado' }));
    expect((await screen.findByRole('alert')).textContent).toBe('No se han podido cargar los dispositivos compartidos. Inténtalo de nuevo.');
  });

  it("a certificate marked config.embedded stays desktop-only in the web app: 'Certificados locales no disponibles'", async () => {
    const flow = certificateFlow();
    for (const section of flow.sectionSetup.builder) {
      for (const input of section.builder) if (input.key === 'certificado') input.config = { embedded: true };
    }
    renderLauncher(flow);
    await fillAllButCertificate();
    expect(screen.getByText(/Certificados locales no disponibles/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Elegir certificado' })).toBeNull();
  });
});
