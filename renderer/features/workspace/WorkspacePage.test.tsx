import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { BridgeArgs, BridgeCommand, BridgeResult } from '#shared/bridge/contract.ts';
import type { BridgeEnvelope } from '#shared/bridge/envelope.ts';
import { certificateMetadataSchema } from '#shared/certificates/certificate.ts';
import type { CertificateProblem, LocalCertificate } from '#shared/certificates/certificate.ts';
import type { ExpiringCertificate, Machine } from '#shared/api/machines.ts';
import type { BridgeClient } from '../../bridge/client.ts';
import { preloadModal } from '../../ui/Modal.tsx';
import { jsonResponse, renderWithApp, signedInState } from '../../test/renderApp.tsx';
import WorkspacePage from './WorkspacePage.tsx';
import { elena, empresa, expiring, LOCAL_HASH, localCertificate, lockedP12, machine, oficina, portatil, synced } from './testData.ts';

beforeAll(() => preloadModal(), 30_000);
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

interface Call {
  key: string;
  body: unknown;
}

/** fetch answering by "METHOD /path" (query apart); records "METHOD /path?query" and the JSON body. */
function stubApi(routes: Record<string, (body: unknown) => Response>) {
  const calls: Call[] = [];
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost');
    const key = `${init?.method ?? 'GET'} ${url.pathname}`;
    const body: unknown = typeof init?.body === 'string' ? JSON.parse(init.body) : undefined;
    calls.push({ key: `${key}${url.search}`, body });
    const handler = routes[key];
    return handler ? handler(body) : jsonResponse(404, { statusCode: 404, code: 'NOT_FOUND', message: 'No encontrado' });
  });
  return calls;
}

const machinesOf = (items: Machine[]) => () => jsonResponse(200, { items });

type Answer<C extends BridgeCommand> = (args: BridgeArgs<C>) => BridgeEnvelope<BridgeResult<C>>;

/** A desktop bridge answering like the real handlers, recording every command with its arguments. */
function fakeBridge(state: { certificates: LocalCertificate[]; problems?: CertificateProblem[]; folder?: string | null }, overrides: { [C in BridgeCommand]?: Answer<C> } = {}) {
  const calls: { command: BridgeCommand; args: unknown }[] = [];
  const answers: { [C in BridgeCommand]?: Answer<C> } = {
    GetMachineHashCode: () => ({ ok: true, data: { machineHashCode: LOCAL_HASH, machineName: 'PC-ANA' } }),
    GetCertificatesList: () => ({
      ok: true,
      data: { certificates: state.certificates, problems: state.problems ?? [], folder: state.folder ?? null, readAt: new Date().toISOString() },
    }),
    SetCertificateFolder: ({ folder }) => {
      state.folder = folder;
      return { ok: true, data: { folder } };
    },
    ...overrides,
  };
  const bridge: BridgeClient = {
    kind: 'agent',
    available: true,
    invoke: (async (command: BridgeCommand, args: unknown) => {
      calls.push({ command, args });
      const answer = answers[command] as ((args: unknown) => unknown) | undefined;
      return answer ? answer(args) : { ok: false, error: { code: 'UNKNOWN_COMMAND', message: 'No' } };
    }) as BridgeClient['invoke'],
    on: () => () => undefined,
  };
  const commands = () => calls.map((call) => call.command);
  return { bridge, calls, commands };
}

function renderWorkspace({ path = '/workspace', bridge }: { path?: string; bridge?: BridgeClient } = {}) {
  return renderWithApp(<WorkspacePage />, { path, embedded: bridge !== undefined, bridge, toasts: true, preloadedState: signedInState() });
}

const cards = (section: string) => within(screen.getByRole('list', { name: `Dispositivos: ${section}` })).getAllByRole('button');
const localList = () => screen.findByRole('list', { name: 'Certificados de este dispositivo' });

describe('Dispositivos, in the desktop app', () => {
  it('shows this PC first with the bridge’s certificates, then mine, then the firm’s shared ones', async () => {
    stubApi({ 'GET /api/machines': machinesOf([portatil, oficina]) });
    const { bridge } = fakeBridge({ certificates: [elena, empresa] });
    renderWorkspace({ bridge });

    expect(screen.getByRole('heading', { level: 1, name: 'Mis recursos' })).toBeTruthy();
    const list = await localList();
    expect(within(list).getAllByRole('checkbox')).toHaveLength(2);
    expect(list.textContent).toContain('PRUEBAS GARCIA ELENA - 99999999R');
    expect(list.textContent).toContain('00000000T PRUEBA DEMO (R: B00000000)');

    await screen.findByRole('list', { name: 'Dispositivos: Compartidos en tu despacho' });
    const headings = screen.getAllByRole('heading', { level: 2 }).map((heading) => heading.textContent);
    expect(headings.slice(0, 3)).toEqual(['Este dispositivo', 'Mis dispositivos', 'Compartidos en tu despacho']);
    expect(cards('Este dispositivo')[0]?.textContent).toContain('Mis certificados en este dispositivo');
    expect(cards('Este dispositivo')[0]?.getAttribute('aria-pressed')).toBe('true');
    expect(cards('Mis dispositivos')[0]?.textContent).toContain('Portátil de Ana');
    const shared = cards('Compartidos en tu despacho')[0];
    expect(shared?.textContent).toContain('PC Oficina');
    expect(shared?.textContent).toContain('De Luis');
    expect(shared?.textContent).toContain('Compartido');
    expect(shared?.textContent).toContain('1 certificado');
  });

  it('selects all and syncs only the certificates’ metadata, keeping what was synced before', async () => {
    const here = machine({ _id: '33333333-3333-4333-8333-333333333333', savedAs: 'Mesa de Ana', machineHashCode: LOCAL_HASH });
    const thisPc = { ...here, certificates: [synced(elena, { _id: here._id, name: here.savedAs })] };
    const calls = stubApi({
      'GET /api/machines': machinesOf([thisPc]),
      'POST /api/certificates': () => jsonResponse(200, thisPc),
    });
    const { bridge } = fakeBridge({ certificates: [elena, empresa] });
    renderWorkspace({ bridge });

    const list = await localList();
    expect(within(list).getByText('Sincronizado')).toBeTruthy();
    await waitFor(() => expect((screen.getByLabelText('Nombre del dispositivo') as HTMLInputElement).value).toBe('Mesa de Ana'));
    fireEvent.click(screen.getByRole('checkbox', { name: 'Seleccionar todos' }));
    expect(within(list).getAllByRole('checkbox').every((box) => (box as HTMLInputElement).checked)).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Sincronizar' }));

    expect(await screen.findByText('Se han sincronizado 2 certificados')).toBeTruthy();
    const sync = calls.find((call) => call.key.startsWith('POST /api/certificates'));
    expect(sync?.key).toBe('POST /api/certificates?machineName=Mesa%20de%20Ana');
    const body = sync?.body as { machineHashCode: string; digitalCertificates: Record<string, unknown>[] };
    expect(body.machineHashCode).toBe(LOCAL_HASH);
    expect(body.digitalCertificates.map((item) => item.commonName)).toEqual([elena.commonName, empresa.commonName]);
    for (const item of body.digitalCertificates) {
      expect(Object.keys(item).sort()).toEqual(Object.keys(certificateMetadataSchema.shape).sort());
      expect(certificateMetadataSchema.safeParse(item).success).toBe(true);
    }
    expect(JSON.stringify(body)).not.toContain('empresa.p12');
  });

  it('unsyncs the chosen ones by sending the set without them', async () => {
    const here = machine({ _id: '33333333-3333-4333-8333-333333333333', savedAs: 'Mesa de Ana', machineHashCode: LOCAL_HASH });
    const thisPc = { ...here, certificates: [synced(elena, { _id: here._id, name: here.savedAs }), synced(empresa, { _id: here._id, name: here.savedAs })] };
    const calls = stubApi({ 'GET /api/machines': machinesOf([thisPc]), 'POST /api/certificates': () => jsonResponse(200, thisPc) });
    renderWorkspace({ bridge: fakeBridge({ certificates: [elena, empresa] }).bridge });

    const list = await localList();
    fireEvent.click(within(list).getByRole('checkbox', { name: elena.commonName }));
    fireEvent.click(screen.getByRole('button', { name: 'Dejar de sincronizar' }));
    expect(await screen.findByText('Se ha dejado de sincronizar 1 certificado')).toBeTruthy();
    const body = calls.find((call) => call.key.startsWith('POST /api/certificates'))?.body as { digitalCertificates: { commonName: string }[] };
    expect(body.digitalCertificates.map((item) => item.commonName)).toEqual([empresa.commonName]);
  });

  it('will not sync with a blank device name, and sends nothing', async () => {
    const calls = stubApi({ 'GET /api/machines': machinesOf([]) });
    renderWorkspace({ bridge: fakeBridge({ certificates: [elena] }).bridge });

    const list = await localList();
    await waitFor(() => expect((screen.getByLabelText('Nombre del dispositivo') as HTMLInputElement).value).toBe('PC-ANA'));
    fireEvent.change(screen.getByLabelText('Nombre del dispositivo'), { target: { value: '   ' } });
    fireEvent.click(within(list).getByRole('checkbox', { name: elena.commonName }));
    fireEvent.click(screen.getByRole('button', { name: 'Sincronizar' }));

    expect(await screen.findByText('Pon un nombre a este dispositivo para sincronizarlo')).toBeTruthy();
    expect(screen.getByLabelText('Nombre del dispositivo').getAttribute('aria-invalid')).toBe('true');
    expect(calls.some((call) => call.key.startsWith('POST'))).toBe(false);
  });

  it('asks to choose a certificate before syncing', async () => {
    const calls = stubApi({ 'GET /api/machines': machinesOf([]) });
    renderWorkspace({ bridge: fakeBridge({ certificates: [elena] }).bridge });
    await localList();
    fireEvent.click(screen.getByRole('button', { name: 'Sincronizar' }));
    expect(await screen.findByText('Selecciona al menos un certificado.')).toBeTruthy();
    expect(calls.some((call) => call.key.startsWith('POST'))).toBe(false);
  });

  it('unlocks a .p12 with the password asked in the prompt, showing a wrong password and reading the store again', async () => {
    stubApi({ 'GET /api/machines': machinesOf([]) });
    const state = { certificates: [elena], problems: [lockedP12] };
    const unlocked = localCertificate({ commonName: 'CERRADO DEMO - 99999999R', fingerprint: '9'.repeat(64), store: 'pkcs12', location: 'cerrado.pfx' });
    const { bridge, calls } = fakeBridge(state, {
      UnlockCertificateFile: ({ password }) => {
        if (password !== 'buena') return { ok: false, error: { code: 'WRONG_PASSWORD', message: 'La contraseña no es correcta' } };
        state.certificates = [elena, unlocked];
        state.problems = [];
        return { ok: true, data: { file: 'cerrado.pfx', certificates: 1 } };
      },
    });
    renderWorkspace({ bridge });

    await localList();
    expect(screen.getByText('Este archivo necesita su contraseña')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Desbloquear cerrado.pfx' }));
    const dialog = await screen.findByRole('dialog', { name: 'Desbloquear certificado' });
    fireEvent.change(within(dialog).getByLabelText('Contraseña de cerrado.pfx'), { target: { value: 'mala' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Desbloquear' }));
    expect(await screen.findByText('La contraseña no es correcta')).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Desbloquear cerrado.pfx' }));
    const again = await screen.findByRole('dialog', { name: 'Desbloquear certificado' });
    fireEvent.change(within(again).getByLabelText('Contraseña de cerrado.pfx'), { target: { value: 'buena' } });
    fireEvent.click(within(again).getByRole('button', { name: 'Desbloquear' }));

    expect(await screen.findByText('cerrado.pfx: se ha leído 1 certificado')).toBeTruthy();
    expect(await screen.findByText('CERRADO DEMO - 99999999R')).toBeTruthy();
    expect(screen.queryByText('Este archivo necesita su contraseña')).toBeNull();
    expect(calls.filter((call) => call.command === 'UnlockCertificateFile').map((call) => call.args)).toEqual([
      { file: 'cerrado.pfx', password: 'mala' },
      { file: 'cerrado.pfx', password: 'buena' },
    ]);
    expect(calls.filter((call) => call.command === 'GetCertificatesList')).toHaveLength(2);
  });

  it('saves and removes the .p12/.pfx folder', async () => {
    stubApi({ 'GET /api/machines': machinesOf([]) });
    const { bridge, calls } = fakeBridge({ certificates: [elena] });
    renderWorkspace({ bridge });
    await localList();

    fireEvent.click(screen.getByRole('button', { name: 'Guardar' }));
    expect(await screen.findByText('Escribe la ruta de la carpeta')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Ruta de la carpeta'), { target: { value: ' /home/ana/certificados ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Guardar' }));
    expect(await screen.findByText('Carpeta en uso: /home/ana/certificados')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Quitar' }));
    expect(await screen.findByText('No hay ninguna carpeta elegida.')).toBeTruthy();
    expect(calls.filter((call) => call.command === 'SetCertificateFolder').map((call) => call.args)).toEqual([
      { folder: '/home/ana/certificados' },
      { folder: null },
    ]);
  });

  it('says so when this PC has no certificates', async () => {
    stubApi({ 'GET /api/machines': machinesOf([]) });
    renderWorkspace({ bridge: fakeBridge({ certificates: [] }).bridge });
    expect(await screen.findByRole('region', { name: 'No tienes certificados' })).toBeTruthy();
  });
});

describe('Dispositivos, on the web', () => {
  it('says local certificates are not available, with the steps, and still lists the firm’s shared machines', async () => {
    stubApi({ 'GET /api/machines': machinesOf([oficina]) });
    renderWorkspace();

    const notice = screen.getByRole('article', { name: 'Certificados locales no disponibles' });
    expect(within(notice).getAllByRole('listitem')).toHaveLength(4);
    expect(notice.textContent).toContain('Instala la aplicación de escritorio');
    expect(screen.queryByText('Mis certificados en este dispositivo')).toBeNull();
    await screen.findByRole('heading', { name: 'Compartidos en tu despacho' });
    expect(cards('Compartidos en tu despacho')[0]?.textContent).toContain('PC Oficina');
    const detail = screen.getByRole('region', { name: 'PC Oficina' });
    expect(within(detail).getByText('SOCIEDAD DEMO SL')).toBeTruthy();
  });

  it('shows the empty states: nothing shared, a machine without certificates or configurations', async () => {
    stubApi({ 'GET /api/machines': machinesOf([portatil]) });
    renderWorkspace();
    expect(await screen.findByText('No hay compartidos en tu entorno de trabajo')).toBeTruthy();
    const detail = screen.getByRole('region', { name: 'Portátil de Ana' });
    expect(within(detail).getByRole('region', { name: 'Este dispositivo no tiene certificados compartidos' })).toBeTruthy();
    fireEvent.click(within(detail).getByRole('tab', { name: 'Configuraciones' }));
    expect(await within(detail).findByRole('region', { name: 'Este dispositivo no tiene configuraciones' })).toBeTruthy();
  });

  it('searches device plus certificate names without caring for case or spaces', async () => {
    stubApi({ 'GET /api/machines': machinesOf([portatil, { ...oficina, certificates: [...oficina.certificates] }]) });
    renderWorkspace();
    await screen.findByRole('heading', { name: 'Compartidos en tu despacho' });

    fireEvent.change(screen.getByRole('searchbox', { name: 'Buscar por dispositivo o certificado' }), { target: { value: 'pcoficina SOCIEDAD' } });
    expect(screen.queryByRole('heading', { name: 'Mis dispositivos' })).toBeNull();
    expect(cards('Compartidos en tu despacho')[0]?.textContent).toContain('1 de 1 certificado');

    fireEvent.change(screen.getByRole('searchbox', { name: 'Buscar por dispositivo o certificado' }), { target: { value: 'nadie' } });
    expect(screen.getByRole('region', { name: 'No hay resultados para «nadie»' })).toBeTruthy();
    expect(screen.queryByRole('list', { name: 'Dispositivos: Compartidos en tu despacho' })).toBeNull();
  });
});

describe('owner settings', () => {
  it('reports a failed delete with the spec’s toast and keeps the machine', async () => {
    const calls = stubApi({
      'GET /api/machines': machinesOf([portatil]),
      [`DELETE /api/machines/${portatil._id}`]: () => jsonResponse(500, { statusCode: 500, code: 'INTERNAL', message: 'x' }),
    });
    renderWorkspace();
    const detail = await screen.findByRole('region', { name: 'Portátil de Ana' });
    fireEvent.click(within(detail).getByRole('button', { name: 'Eliminar dispositivo' }));
    const dialog = await screen.findByRole('dialog', { name: 'Eliminar dispositivo' });
    expect(dialog.textContent).toContain('«Portátil de Ana»');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Eliminar' }));

    const toast = await screen.findByRole('alert');
    expect(toast.textContent).toContain('No se ha podido eliminar este dispositivo');
    expect(calls.filter((call) => call.key.startsWith('DELETE'))).toHaveLength(1);
    expect(screen.getByRole('region', { name: 'Portátil de Ana' })).toBeTruthy();
  });

  it('shares the machine with the firm and renames it', async () => {
    const calls = stubApi({
      'GET /api/machines': machinesOf([portatil]),
      [`PATCH /api/machines/${portatil._id}`]: (body) => jsonResponse(200, { ...portatil, ...(body as object) }),
    });
    renderWorkspace();
    const detail = await screen.findByRole('region', { name: 'Portátil de Ana' });
    fireEvent.click(within(detail).getByRole('switch', { name: 'Compartir con mi despacho' }));
    expect(await screen.findByText('Dispositivo compartido con tu despacho')).toBeTruthy();

    fireEvent.change(within(detail).getByLabelText('Nombre con el que lo ves'), { target: { value: '  ' } });
    fireEvent.click(within(detail).getByRole('button', { name: 'Guardar nombre' }));
    expect(await within(detail).findByText('Pon un nombre a este dispositivo para sincronizarlo')).toBeTruthy();
    fireEvent.change(within(detail).getByLabelText('Nombre con el que lo ves'), { target: { value: ' Portátil nuevo ' } });
    fireEvent.click(within(detail).getByRole('button', { name: 'Guardar nombre' }));
    expect(await screen.findByText('Nombre guardado')).toBeTruthy();
    expect(calls.filter((call) => call.key.startsWith('PATCH')).map((call) => call.body)).toEqual([{ shared: true }, { savedAs: 'Portátil nuevo' }]);
  });

  it('has no owner settings on someone else’s shared machine', async () => {
    stubApi({ 'GET /api/machines': machinesOf([oficina]) });
    renderWorkspace();
    const detail = await screen.findByRole('region', { name: 'PC Oficina' });
    expect(within(detail).queryByRole('button', { name: 'Eliminar dispositivo' })).toBeNull();
    expect(within(detail).queryByRole('switch')).toBeNull();
  });
});

describe('configurations', () => {
  it('lists them with a flagged one warned, checks CCCs before creating, and deletes after a confirm', async () => {
    const withConfigs = {
      ...portatil,
      configs: [
        { _id: 'k1', name: 'Nóminas', cccList: ['28123456742'], emailSettings: null, error: null, createdAt: '2025-03-01T10:00:00.000Z' },
        { _id: 'k2', name: 'Rota', cccList: [], emailSettings: null, error: 'Los ajustes guardados no son válidos', createdAt: '2025-03-01T10:00:00.000Z' },
      ],
    };
    const calls = stubApi({
      'GET /api/machines': machinesOf([withConfigs]),
      [`POST /api/machines/${portatil._id}/configs`]: () => jsonResponse(201, withConfigs.configs[0]),
      'DELETE /api/machines/configs/k1': () => new Response(null, { status: 204 }),
    });
    renderWorkspace();
    const detail = await screen.findByRole('region', { name: 'Portátil de Ana' });
    fireEvent.click(within(detail).getByRole('tab', { name: 'Configuraciones' }));
    const list = await within(detail).findByRole('list', { name: 'Configuraciones del dispositivo' });
    expect(list.textContent).toContain('CCC: 28123456742');
    expect(list.textContent).toContain('Esta configuración está dañada y no se puede usar: Los ajustes guardados no son válidos');

    fireEvent.click(within(detail).getByRole('button', { name: 'Crear configuración' }));
    expect(await within(detail).findByText('Pon un nombre a la configuración')).toBeTruthy();
    fireEvent.change(within(detail).getByLabelText('Nombre'), { target: { value: 'Seguros' } });
    fireEvent.change(within(detail).getByLabelText('CCC (uno por línea)'), { target: { value: '28123456742\n28123456700' } });
    fireEvent.click(within(detail).getByRole('button', { name: 'Crear configuración' }));
    expect(await within(detail).findByText('Introduce un CCC válido: 28123456700')).toBeTruthy();
    expect(calls.some((call) => call.key.startsWith('POST'))).toBe(false);

    fireEvent.change(within(detail).getByLabelText('CCC (uno por línea)'), { target: { value: '28123456742\n' } });
    fireEvent.click(within(detail).getByRole('button', { name: 'Crear configuración' }));
    expect(await screen.findByText('Configuración creada')).toBeTruthy();
    expect(calls.find((call) => call.key.startsWith('POST'))?.body).toEqual({ name: 'Seguros', cccList: ['28123456742'] });

    fireEvent.click(within(list).getByRole('button', { name: 'Eliminar la configuración Nóminas' }));
    const dialog = await screen.findByRole('dialog', { name: 'Eliminar configuración' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Eliminar' }));
    expect(await screen.findByText('Configuración eliminada')).toBeTruthy();
    expect(calls.some((call) => call.key === 'DELETE /api/machines/configs/k1')).toBe(true);
  });
});

describe('Caducidades', () => {
  const radar = (items: ExpiringCertificate[]) => () => jsonResponse(200, { items, days: 60 });

  it('opens from ?vista=caducidades and lists each certificate with its NIF, machine, date and days left', async () => {
    const items = [
      expiring({ commonName: 'CADUCADO DEMO', daysLeft: -5, threshold: 0 }),
      expiring({ commonName: 'PRONTO DEMO', daysLeft: 3, threshold: 7, nifVat: 'B00000000' }),
      expiring({ commonName: 'LEJOS DEMO', daysLeft: 45, threshold: 60 }),
    ];
    const calls = stubApi({ 'GET /api/certificates/expiring': radar(items) });
    renderWorkspace({ path: '/workspace?vista=caducidades' });

    expect(screen.getByRole('tab', { name: 'Caducidades' }).getAttribute('aria-selected')).toBe('true');
    const table = await screen.findByRole('table', { name: 'Certificados por caducar' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((row) => within(row).getAllByRole('cell')[0]?.textContent)).toEqual(['CADUCADO DEMO', 'PRONTO DEMO', 'LEJOS DEMO']);
    const pronto = within(rows[1] as HTMLElement).getAllByRole('cell').map((cell) => cell.textContent);
    const date = new Date(items[1]?.notAfter ?? '').toLocaleDateString('es-ES', { timeZone: 'Europe/Madrid', day: '2-digit', month: '2-digit', year: 'numeric' });
    expect(pronto).toEqual(['PRONTO DEMO', '3 días', date, 'B00000000', 'PC Oficina', '≤ 7 días']);
    expect(within(rows[0] as HTMLElement).getByText('Hace 5 días').className).toContain('ui-chip--danger');
    expect(within(rows[0] as HTMLElement).getByText('Caducado')).toBeTruthy();
    expect(within(rows[1] as HTMLElement).getByText('3 días').className).toContain('ui-chip--danger');
    expect(within(rows[2] as HTMLElement).getByText('45 días').className).toContain('ui-chip--notice');
    const summary = within(screen.getByRole('list', { name: 'Resumen por plazo' })).getAllByRole('listitem').map((item) => item.textContent);
    expect(summary).toEqual(['Caducado: 1', '≤ 7 días: 1', '≤ 60 días: 1']);
    expect(calls.map((call) => call.key)).toContain('GET /api/certificates/expiring?days=60');
  });

  it('says when nothing expires in the next 60 days', async () => {
    stubApi({ 'GET /api/certificates/expiring': radar([]), 'GET /api/machines': machinesOf([]) });
    renderWorkspace();
    fireEvent.click(screen.getByRole('tab', { name: 'Caducidades' }));
    expect(await screen.findByRole('region', { name: 'Ningún certificado caduca en los próximos 60 días' })).toBeTruthy();
  });
});

describe('connection', () => {
  const HERE = '33333333-3333-4333-8333-333333333333';
  const DEVICE_TOKEN = 'k'.repeat(43);
  const thisPc = (state: Partial<Machine>) => machine({ _id: HERE, savedAs: 'Mesa de Ana', machineHashCode: LOCAL_HASH, ...state });
  const unlinkedStatus = { linked: false, serverUrl: null, machine: null, problem: null };
  const linkedStatus = () => ({ linked: true, serverUrl: window.location.origin, machine: { _id: HERE, name: 'PC-ANA' }, problem: null });
  const lastLine = (card: HTMLElement | undefined) => card?.querySelector('.workspace-status')?.textContent;

  it('each card says whether its device is connected, since when it is not, or that it never was', async () => {
    stubApi({
      'GET /api/machines': machinesOf([
        { ...portatil, linked: true, online: true },
        { ...oficina, linked: true, online: false, lastSeenAt: '2025-07-14T07:05:00.000Z' },
        machine({ _id: '44444444-4444-4444-8444-444444444444', savedAs: 'Sin agente', mine: false, shared: true, owner: { email: 'eva@asesoria.es', name: 'Eva' } }),
      ]),
    });
    renderWorkspace();
    await screen.findByRole('list', { name: 'Dispositivos: Compartidos en tu despacho' });
    expect(lastLine(cards('Mis dispositivos')[0])).toBe('Conectado');
    expect(cards('Compartidos en tu despacho').map(lastLine)).toEqual(['Sin conexión desde 14/07/2025 09:05', 'No conectado']);
    // Someone else's machine: its state shows, but only its owner may revoke it.
    const detail = await screen.findByRole('region', { name: 'Portátil de Ana' });
    expect(within(detail).getByRole('button', { name: 'Revocar acceso' })).toBeTruthy();
    fireEvent.click(cards('Compartidos en tu despacho')[0] as HTMLElement);
    const shared = await screen.findByRole('region', { name: 'PC Oficina' });
    expect(within(shared).getByText('Sin conexión desde 14/07/2025 09:05')).toBeTruthy();
    expect(within(shared).queryByRole('button', { name: 'Revocar acceso' })).toBeNull();
    expect(within(shared).queryByRole('button', { name: 'Conectar este dispositivo' })).toBeNull();
  });

  it("'Conectar este dispositivo' links this PC: its hash and name to the server, the token to LinkDevice", async () => {
    let linked = false;
    const calls = stubApi({
      'GET /api/machines': () => jsonResponse(200, { items: [linked ? thisPc({ linked: true, online: true }) : thisPc({})] }),
      'POST /api/machines/link': () => {
        linked = true;
        return jsonResponse(200, { machine: { _id: HERE, name: 'PC-ANA' }, deviceToken: DEVICE_TOKEN });
      },
    });
    const { bridge, calls: bridgeCalls, commands } = fakeBridge({ certificates: [elena] }, {
      GetDeviceStatus: () => ({ ok: true, data: linked ? linkedStatus() : unlinkedStatus }),
      LinkDevice: (args) => ({ ok: true, data: { ...linkedStatus(), serverUrl: args.serverUrl } }),
    });
    renderWorkspace({ bridge });
    const detail = await screen.findByRole('region', { name: 'Mis certificados en este dispositivo' });
    expect(lastLine(cards('Este dispositivo')[0])).toBe('No conectado');
    expect(within(detail).getByText(/Conecta este dispositivo a tu cuenta/)).toBeTruthy();
    fireEvent.click(await within(detail).findByRole('button', { name: 'Conectar este dispositivo' }));

    expect(await screen.findByText('Dispositivo conectado')).toBeTruthy();
    expect(calls.filter((call) => call.key === 'POST /api/machines/link').map((call) => call.body)).toEqual([{ machineHashCode: LOCAL_HASH, machineName: 'PC-ANA' }]);
    expect(bridgeCalls.find((call) => call.command === 'LinkDevice')?.args).toEqual({ serverUrl: window.location.origin, deviceToken: DEVICE_TOKEN });
    await waitFor(() => expect(lastLine(cards('Este dispositivo')[0])).toBe('Conectado'));
    await waitFor(() => expect(within(detail).queryByRole('button', { name: 'Conectar este dispositivo' })).toBeNull());
    expect(commands().filter((command) => command === 'GetDeviceStatus').length).toBeGreaterThanOrEqual(2);
  });

  it('a refused link says why in a toast and keeps the button', async () => {
    stubApi({
      'GET /api/machines': machinesOf([]),
      'POST /api/machines/link': () => jsonResponse(400, { statusCode: 400, code: 'BAD_REQUEST', message: 'Pon un nombre a este dispositivo' }),
    });
    const { bridge, commands } = fakeBridge({ certificates: [] }, { GetDeviceStatus: () => ({ ok: true, data: unlinkedStatus }) });
    renderWorkspace({ bridge });
    fireEvent.click(await screen.findByRole('button', { name: 'Conectar este dispositivo' }));
    expect((await screen.findByRole('alert')).textContent).toBe('No se ha podido conectar este dispositivo: Pon un nombre a este dispositivo');
    expect(commands()).not.toContain('LinkDevice');
    expect(screen.getByRole('button', { name: 'Conectar este dispositivo' })).toBeTruthy();
  });

  it("'Revocar acceso' asks first, drops the token on the server, and this PC then shows the problem and can link again", async () => {
    let revoked = false;
    const calls = stubApi({
      'GET /api/machines': () => jsonResponse(200, { items: [revoked ? thisPc({ linked: false, online: false, lastSeenAt: '2025-07-14T07:05:00.000Z' }) : thisPc({ linked: true, online: true })] }),
      [`DELETE /api/machines/${HERE}/device-token`]: () => {
        revoked = true;
        return new Response(null, { status: 204 });
      },
    });
    const problem = 'Este dispositivo ya no está conectado a tu cuenta: vuelve a conectarlo desde la aplicación';
    const { bridge } = fakeBridge({ certificates: [elena] }, {
      GetDeviceStatus: () => ({ ok: true, data: revoked ? { ...linkedStatus(), problem } : linkedStatus() }),
    });
    renderWorkspace({ bridge });
    const detail = await screen.findByRole('region', { name: 'Mis certificados en este dispositivo' });
    await waitFor(() => expect(lastLine(cards('Este dispositivo')[0])).toBe('Conectado'));
    expect(within(detail).queryByRole('button', { name: 'Conectar este dispositivo' })).toBeNull();

    fireEvent.click(within(detail).getByRole('button', { name: 'Revocar acceso' }));
    const dialog = await screen.findByRole('dialog', { name: 'Revocar acceso' });
    expect(dialog.textContent).toContain('«Mesa de Ana» dejará de ejecutar robots de escritorio');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancelar' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(calls.some((call) => call.key.startsWith('DELETE'))).toBe(false);

    fireEvent.click(within(detail).getByRole('button', { name: 'Revocar acceso' }));
    fireEvent.click(within(await screen.findByRole('dialog', { name: 'Revocar acceso' })).getByRole('button', { name: 'Revocar' }));
    expect(await screen.findByText('Acceso revocado')).toBeTruthy();
    expect(await within(detail).findByText(problem)).toBeTruthy();
    await waitFor(() => expect(lastLine(cards('Este dispositivo')[0])).toBe('No conectado'));
    expect(within(detail).getByRole('button', { name: 'Conectar este dispositivo' })).toBeTruthy();
    expect(within(detail).queryByRole('button', { name: 'Revocar acceso' })).toBeNull();
  });

  it('a failed revoke says so and keeps the machine linked', async () => {
    stubApi({
      'GET /api/machines': machinesOf([{ ...portatil, linked: true, online: true }]),
      [`DELETE /api/machines/${portatil._id}/device-token`]: () => jsonResponse(500, { statusCode: 500, code: 'INTERNAL', message: 'Error' }),
    });
    renderWorkspace();
    const detail = await screen.findByRole('region', { name: 'Portátil de Ana' });
    fireEvent.click(within(detail).getByRole('button', { name: 'Revocar acceso' }));
    fireEvent.click(within(await screen.findByRole('dialog', { name: 'Revocar acceso' })).getByRole('button', { name: 'Revocar' }));
    expect((await screen.findByRole('alert')).textContent).toBe('No se ha podido revocar el acceso');
    expect(within(detail).getByRole('button', { name: 'Revocar acceso' })).toBeTruthy();
  });
});
