/** /email step 2: the firm's accounts, linking on the web (draft kept, browser sent away) and in the desktop app (bridge), unlinking. */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { MailAccount } from '#shared/api/mail.ts';
import { jsonResponse } from '../../test/renderApp.tsx';
import { DRAFT_STORAGE_KEY, loadDraft } from './draft.ts';
import { browserPage } from './leavePage.ts';
import { account, baseRoutes, DESKTOP_CLIENTS, fakeBridge, ok, relinkAccount, renderWizard, setUpEmailTests, stubApi, MACHINE_ID } from './test/renderEmail.tsx';

setUpEmailTests();

let leaveFor: ReturnType<typeof vi.fn>;
beforeEach(() => {
  leaveFor = vi.spyOn(browserPage, 'leaveFor').mockImplementation(() => undefined) as unknown as ReturnType<typeof vi.fn>;
});

const VERIFIER = 'v'.repeat(43);
const desktopResult = { provider: 'microsoft', code: 'one-time-code', codeVerifier: VERIFIER, redirectUri: 'http://127.0.0.1:53121/oauth' };

async function toAccountStep() {
  fireEvent.change(await screen.findByLabelText('Nombre de la configuración'), { target: { value: 'Resultados' } });
  await screen.findByText('PC Oficina');
  fireEvent.click(screen.getByRole('button', { name: 'Siguiente' }));
  await screen.findByRole('heading', { name: 'Conecta la cuenta' });
}

describe('the account step', () => {
  it('lists the accounts: who linked each, and a re-link with its problem for one the provider refused', async () => {
    stubApi(baseRoutes([account(), relinkAccount]));
    renderWizard();
    await toAccountStep();
    const list = await screen.findByRole('list', { name: 'Cuentas de correo de tu asesoría' });
    const [mine, refused] = within(list).getAllByRole('listitem');
    expect(mine?.textContent).toContain('despacho@asesoria.es');
    expect(mine?.textContent).toContain('Google · Vinculada por ti');
    expect(mine?.textContent).toContain('Conectada');
    expect(refused?.textContent).toContain('Microsoft · Vinculada por Luis');
    expect(refused?.textContent).toContain('Necesita volver a conectarse');
    expect(refused?.textContent).toContain('el proveedor ha retirado el permiso');
    expect((within(refused!).getByRole('radio') as HTMLInputElement).disabled).toBe(true);
    expect(within(refused!).getByRole('button', { name: 'Volver a conectar nominas@asesoria.es' })).toBeTruthy();
  });

  it('says when there is none yet', async () => {
    stubApi(baseRoutes([]));
    renderWizard();
    await toAccountStep();
    expect(await screen.findByRole('region', { name: 'Aún no has conectado ninguna cuenta de correo' })).toBeTruthy();
  });

  it('reports a list that fails to load, with a retry', async () => {
    stubApi(baseRoutes([], { 'GET /api/mail/accounts': () => jsonResponse(500, { statusCode: 500, code: 'INTERNAL', message: 'x' }) }));
    renderWizard();
    await toAccountStep();
    expect((await screen.findByRole('alert')).textContent).toContain('No se han podido cargar las cuentas de correo.');
    expect(screen.getByRole('button', { name: 'Reintentar' })).toBeTruthy();
  });

  it('on the web, starts the server flow, keeps the draft for the way back and sends the browser to the provider', async () => {
    const calls = stubApi(baseRoutes([], { 'POST /api/mail/oauth/start': ok({ authorizationUrl: 'https://accounts.example.test/auth?state=s' }) }));
    renderWizard();
    await toAccountStep();
    fireEvent.click(screen.getByRole('button', { name: 'Conectar con Google' }));
    await waitFor(() => expect(leaveFor).toHaveBeenCalledWith('https://accounts.example.test/auth?state=s'));
    expect(calls.find((call) => call.key === 'POST /api/mail/oauth/start')?.body).toEqual({ provider: 'google' });
    expect(window.sessionStorage.getItem(DRAFT_STORAGE_KEY)).not.toBeNull();
    expect(loadDraft()).toMatchObject({ step: 'auth', machineId: MACHINE_ID, fields: { name: 'Resultados' } });
  });

  it('re-links a refused account with its address as the login hint', async () => {
    const calls = stubApi(baseRoutes([relinkAccount], { 'POST /api/mail/oauth/start': ok({ authorizationUrl: 'https://login.example.test/a' }) }));
    renderWizard();
    await toAccountStep();
    fireEvent.click(await screen.findByRole('button', { name: 'Volver a conectar nominas@asesoria.es' }));
    await waitFor(() => expect(leaveFor).toHaveBeenCalledWith('https://login.example.test/a'));
    expect(calls.find((call) => call.key === 'POST /api/mail/oauth/start')?.body).toEqual({ provider: 'microsoft', loginHint: 'nominas@asesoria.es' });
  });

  it('shows the server’s refusal to start', async () => {
    stubApi(baseRoutes([], {
      'POST /api/mail/oauth/start': () => jsonResponse(400, { statusCode: 400, code: 'BAD_REQUEST', message: 'Este servidor no tiene configurada la conexión con este proveedor de correo.' }),
    }));
    renderWizard();
    await toAccountStep();
    fireEvent.click(screen.getByRole('button', { name: 'Conectar con Microsoft' }));
    expect((await screen.findByRole('alert')).textContent).toContain('Este servidor no tiene configurada la conexión con este proveedor de correo.');
    expect(leaveFor).not.toHaveBeenCalled();
  });

  it('in the desktop app, waits on OAuthConnect, posts what it returns and selects the new account', async () => {
    let finish: (value: unknown) => void = () => undefined;
    const { bridge, invoke } = fakeBridge(() => new Promise((resolve) => (finish = resolve)));
    const linked = account({ _id: 'acc-9', provider: 'microsoft', email: 'nuevo@asesoria.es' });
    const listed: MailAccount[] = [];
    const calls = stubApi(baseRoutes([], {
      'GET /api/mail/accounts': () => jsonResponse(200, { items: listed }),
      'POST /api/mail/oauth/desktop': () => {
        listed.push(linked);
        return jsonResponse(201, linked);
      },
    }));
    renderWizard(undefined, bridge);
    await toAccountStep();
    fireEvent.click(screen.getByRole('button', { name: 'Conectar con Microsoft' }));
    expect(await screen.findByText('Completa la conexión en el navegador…')).toBeTruthy();
    expect(invoke).toHaveBeenCalledWith('OAuthConnect', { provider: 'microsoft', scope: 'sendemail', prompt: 'consent', client: DESKTOP_CLIENTS.microsoft });

    finish({ ok: true, data: desktopResult });
    expect(await screen.findByText('Cuenta conectada: nuevo@asesoria.es')).toBeTruthy();
    expect(calls.filter((call) => call.key === 'POST /api/mail/oauth/desktop').map((call) => call.body)).toEqual([desktopResult]);
    const radio = (await screen.findByRole('radio', { name: 'Usar nuevo@asesoria.es' })) as HTMLInputElement;
    await waitFor(() => expect(radio.checked).toBe(true));
    expect(screen.queryByText('Completa la conexión en el navegador…')).toBeNull();
    expect(leaveFor).not.toHaveBeenCalled();
  });

  it.each([
    ['DENIED', 'No se ha concedido el permiso para enviar correo. Vuelve a intentarlo y acepta el permiso.'],
    ['TIMEOUT', 'Se ha agotado el tiempo para completar la conexión en el navegador. Vuelve a intentarlo.'],
    ['UNAVAILABLE', 'Esta versión de la aplicación de escritorio no puede conectar cuentas de correo. Actualízala o hazlo desde la web.'],
  ])('says what a %s from the bridge means and posts nothing', async (code, message) => {
    const { bridge } = fakeBridge(async () => ({ ok: false, error: { code, message: 'texto del puente' } }));
    const calls = stubApi(baseRoutes([]));
    renderWizard(undefined, bridge);
    await toAccountStep();
    fireEvent.click(screen.getByRole('button', { name: 'Conectar con Google' }));
    expect((await screen.findByRole('alert')).textContent).toContain(message);
    expect(calls.some((call) => call.key.startsWith('POST'))).toBe(false);
  });

  it('cancels the wait and ignores what the bridge answers afterwards', async () => {
    let finish: (value: unknown) => void = () => undefined;
    const { bridge } = fakeBridge(() => new Promise((resolve) => (finish = resolve)));
    const calls = stubApi(baseRoutes([]));
    renderWizard(undefined, bridge);
    await toAccountStep();
    fireEvent.click(screen.getByRole('button', { name: 'Conectar con Google' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Cancelar' }));
    expect(await screen.findByText('Se ha cancelado la conexión de la cuenta')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Conectar con Google' }) as HTMLButtonElement).disabled).toBe(false);
    finish({ ok: true, data: desktopResult });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(calls.some((call) => call.key === 'POST /api/mail/oauth/desktop')).toBe(false);
  });

  it('unlinks an account after a confirm', async () => {
    const listed = [account()];
    const calls = stubApi(baseRoutes([], {
      'GET /api/mail/accounts': () => jsonResponse(200, { items: listed }),
      'DELETE /api/mail/accounts/acc-1': () => {
        listed.pop();
        return new Response(null, { status: 204 });
      },
    }));
    renderWizard();
    await toAccountStep();
    fireEvent.click(await screen.findByRole('button', { name: 'Eliminar la cuenta despacho@asesoria.es' }));
    const dialog = await screen.findByRole('dialog', { name: 'Eliminar cuenta de correo' });
    expect(dialog.textContent).toContain('Se desconectará despacho@asesoria.es');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Eliminar' }));
    expect(await screen.findByText('Cuenta de correo eliminada')).toBeTruthy();
    expect(calls.filter((call) => call.key.startsWith('DELETE'))).toHaveLength(1);
    expect(await screen.findByRole('region', { name: 'Aún no has conectado ninguna cuenta de correo' })).toBeTruthy();
  });
});
