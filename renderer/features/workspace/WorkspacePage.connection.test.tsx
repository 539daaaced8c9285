/** Mis recursos, the device link: each card's connection, linking this PC and revoking a device's access. */
import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { Machine } from '#shared/api/machines.ts';
import { jsonResponse } from '../../test/renderApp.tsx';
import { cards, fakeBridge, machinesOf, renderWorkspace, setUpWorkspacePageTests, stubApi } from './test/renderWorkspace.tsx';
import { elena, LOCAL_HASH, machine, oficina, portatil } from './testData.ts';

setUpWorkspacePageTests();

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
