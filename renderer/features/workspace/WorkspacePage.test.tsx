/** Mis recursos, Dispositivos: this PC's certificates and syncing them (desktop app), the machine lists and search (desktop and web). */
import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { certificateMetadataSchema } from '#shared/certificates/certificate.ts';
import { jsonResponse } from '../../test/renderApp.tsx';
import { cards, fakeBridge, localList, machinesOf, renderWorkspace, setUpWorkspacePageTests, stubApi } from './test/renderWorkspace.tsx';
import { elena, empresa, LOCAL_HASH, localCertificate, lockedP12, machine, oficina, portatil, synced } from './testData.ts';

setUpWorkspacePageTests();

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
