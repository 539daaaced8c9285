import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { MachineConfig } from '#shared/api/machines.ts';
import { jsonResponse } from '../../../test/renderApp.tsx';
import { preloadModal } from '../../../ui/Modal.tsx';
import { emailResultFlow } from '../test/flowFixture.ts';
import { runState } from '../test/launcherApi.ts';
import { emailConfig, machineWith, mailAccounts, mailMachines } from '../test/mailData.ts';
import { executionPath, fillFormFlow, launchButton, renderLauncher } from '../test/renderLauncher.tsx';

beforeAll(() => Promise.all([preloadModal(), import('../SchedulerModal.tsx')]));
afterEach(() => vi.unstubAllGlobals());

const LAUNCH = `POST ${executionPath('alta-rapida')}`;

function renderWithMail(machines = mailMachines, accounts = mailAccounts, firmConfigs: MachineConfig[] = []) {
  return renderLauncher(emailResultFlow(), {
    'GET /api/machines': () => jsonResponse(200, { items: machines }),
    'GET /api/configs': () => jsonResponse(200, { items: firmConfigs }),
    'GET /api/mail/accounts': () => jsonResponse(200, { items: accounts }),
    [LAUNCH]: () => jsonResponse(202, runState({ state: 'queued' })),
  });
}

const toggle = () => screen.getByRole('checkbox', { name: 'Enviar resultado por email' });
const configSelect = () => screen.findByRole('combobox', { name: 'Configuración de correo *' });
const recipientsBox = () => screen.getByRole('textbox', { name: 'Destinatarios *' });
const chips = () => within(screen.getByRole('list', { name: 'Destinatarios añadidos' })).getAllByRole('listitem').map((chip) => chip.firstChild?.textContent);
const launchBody = (api: ReturnType<typeof renderWithMail>['api']) => api.posts(executionPath('alta-rapida'))[0]?.body as { inputs: Record<string, unknown> } | undefined;

// Whole launcher screens in jsdom: slow on a busy machine.
describe("'Enviar resultado por email' in the launcher", { timeout: 15_000 }, () => {
  it('is off by default: the launch carries null, and no configuration is asked for', async () => {
    const { api } = renderWithMail();
    await fillFormFlow();
    expect(toggle()).toHaveProperty('checked', false);
    fireEvent.click(launchButton());
    await waitFor(() => expect(launchBody(api)).toBeDefined());
    expect(launchBody(api)?.inputs.emailResult).toBeNull();
    expect(api.calls.some((call) => call.path === '/api/machines' || call.path === '/api/mail/accounts')).toBe(false);
  });

  it('offers every email configuration, those that cannot send disabled with the reason, and launches with the one chosen and the recipients', async () => {
    const { api } = renderWithMail();
    await fillFormFlow();
    fireEvent.click(toggle());
    const select = await configSelect();
    const options = within(select).getAllByRole('option');
    expect(options.map((option) => [option.textContent, (option as HTMLOptionElement).disabled])).toEqual([
      ['Elige una configuración', true],
      ['Resultados clientes — asesoria@gmail.com (Google (Gmail))', false],
      ['Avisos — avisos@asesoria.es (Microsoft (Outlook)) · La cuenta de correo necesita volver a conectarse: el proveedor ha retirado el permiso.', true],
      ['Rota · La configuración de correo guardada no es válida', true],
    ]);
    fireEvent.change(select, { target: { value: 'cfg-gmail' } });

    const box = recipientsBox();
    fireEvent.change(box, { target: { value: 'cliente@empresa.es, ' } });
    expect(chips()).toEqual(['cliente@empresa.es']);
    expect((box as HTMLInputElement).value).toBe('');
    // Typed but still in the box when 'Lanzar tarea' is pressed: it goes too.
    fireEvent.change(box, { target: { value: 'jefe@empresa.es' } });
    fireEvent.click(launchButton());
    await waitFor(() => expect(launchBody(api)).toBeDefined());
    expect(launchBody(api)?.inputs.emailResult).toEqual({ configId: 'cfg-gmail', recipients: ['cliente@empresa.es', 'jefe@empresa.es'] });
  });

  it("blocks 'Lanzar tarea' while on without a configuration or recipients, and says which", async () => {
    const { api } = renderWithMail();
    await fillFormFlow();
    fireEvent.click(toggle());
    await configSelect();
    fireEvent.click(launchButton());
    expect(await screen.findByText('Elige la configuración de correo con la que se envía')).toBeTruthy();
    expect(screen.getByText('Indica al menos un destinatario')).toBeTruthy();
    fireEvent.change(await configSelect(), { target: { value: 'cfg-gmail' } });
    await waitFor(() => expect(screen.queryByText('Elige la configuración de correo con la que se envía')).toBeNull());
    fireEvent.click(launchButton());
    expect(await screen.findByText('Indica al menos un destinatario')).toBeTruthy();
    expect(api.posts(executionPath('alta-rapida'))).toHaveLength(0);

    // Turned off again, nothing is missing.
    fireEvent.click(toggle());
    fireEvent.click(launchButton());
    await waitFor(() => expect(launchBody(api)?.inputs.emailResult).toBeNull());
  });

  it('checks each address with the email rule; removing the wrong one clears the error', async () => {
    const { api } = renderWithMail();
    await fillFormFlow();
    fireEvent.click(toggle());
    fireEvent.change(await configSelect(), { target: { value: 'cfg-gmail' } });
    const box = recipientsBox();
    fireEvent.change(box, { target: { value: 'ana@empresa.es; luis@' } });
    fireEvent.keyDown(box, { key: 'Enter' });
    fireEvent.blur(box);
    expect(await screen.findByText('Introduce una dirección de correo electrónico válida')).toBeTruthy();
    expect(chips()).toEqual(['ana@empresa.es', 'luis@']);
    expect(screen.getByText('(dirección no válida)')).toBeTruthy();
    expect(box.getAttribute('aria-invalid')).toBe('true');
    fireEvent.click(launchButton());
    await waitFor(() => expect(screen.getByText('Introduce una dirección de correo electrónico válida')).toBeTruthy());
    expect(api.posts(executionPath('alta-rapida'))).toHaveLength(0);

    fireEvent.click(screen.getByRole('button', { name: 'Quitar luis@' }));
    await waitFor(() => expect(screen.queryByText('Introduce una dirección de correo electrónico válida')).toBeNull());
    fireEvent.click(launchButton());
    await waitFor(() => expect(launchBody(api)?.inputs.emailResult).toEqual({ configId: 'cfg-gmail', recipients: ['ana@empresa.es'] }));
  });

  it('takes a pasted list of up to 20 addresses, one per line, and refuses more', async () => {
    const { api } = renderWithMail();
    await fillFormFlow();
    fireEvent.click(toggle());
    fireEvent.change(await configSelect(), { target: { value: 'cfg-gmail' } });
    const addresses = Array.from({ length: 21 }, (_, index) => `cliente${index + 1}@empresa.es`);
    fireEvent.paste(recipientsBox(), { clipboardData: { getData: () => addresses.slice(0, 20).join('\r\n') } });
    expect(chips()).toHaveLength(20);
    expect(screen.getByText(/20 de 20 destinatarios/)).toBeTruthy();
    fireEvent.change(recipientsBox(), { target: { value: `${addresses[20]!},` } });
    fireEvent.blur(recipientsBox());
    expect(await screen.findByText('Hasta 20 destinatarios')).toBeTruthy();
    fireEvent.click(launchButton());
    await waitFor(() => expect(screen.getByText('Hasta 20 destinatarios')).toBeTruthy());
    expect(api.posts(executionPath('alta-rapida'))).toHaveLength(0);
    fireEvent.click(screen.getByRole('button', { name: `Quitar ${addresses[0]!}` }));
    fireEvent.click(launchButton());
    await waitFor(() => expect((launchBody(api)?.inputs.emailResult as { recipients: string[] }).recipients).toEqual(addresses.slice(1)));
  });

  it("offers the firm's own configurations to a firm with no device, and launches with one (issue 43)", async () => {
    const { api } = renderWithMail([], mailAccounts, [emailConfig('cfg-firm', 'De la asesoría', 'asesoria@gmail.com', 'google')]);
    await fillFormFlow();
    fireEvent.click(toggle());
    const select = await configSelect();
    expect(within(select).getAllByRole('option').map((option) => option.textContent)).toEqual(['Elige una configuración', 'De la asesoría — asesoria@gmail.com (Google (Gmail))']);
    fireEvent.change(select, { target: { value: 'cfg-firm' } });
    fireEvent.change(recipientsBox(), { target: { value: 'cliente@empresa.es' } });
    fireEvent.click(launchButton());
    await waitFor(() => expect(launchBody(api)).toBeDefined());
    expect(launchBody(api)?.inputs.emailResult).toEqual({ configId: 'cfg-firm', recipients: ['cliente@empresa.es'] });
  });

  it('says when there is no email configuration yet, with a link to set one up', async () => {
    renderWithMail([machineWith('m1', [emailConfig('cfg-ccc', 'Solo CCC', 'x@x.es', 'google', { emailSettings: null })])], []);
    await fillFormFlow();
    fireEvent.click(toggle());
    expect(await screen.findByText('Aún no tienes ninguna configuración de correo.')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Configurar correo' }).getAttribute('href')).toBe('/email');
  });

  it('a config whose mailbox is not linked at all cannot be chosen', async () => {
    renderWithMail(mailMachines, []);
    await fillFormFlow();
    fireEvent.click(toggle());
    const gmail = within(await configSelect()).getByRole('option', { name: /^Resultados clientes/ }) as HTMLOptionElement;
    await waitFor(() => expect(gmail.textContent).toBe('Resultados clientes — asesoria@gmail.com (Google (Gmail)) · La cuenta de correo no está conectada'));
    expect(gmail.disabled).toBe(true);
  });

  it('past five configurations the choice is searchable, unusable ones still disabled', async () => {
    const many = machineWith('m1', [
      ...['Norte', 'Sur', 'Este', 'Oeste', 'Centro'].map((name) => emailConfig(`cfg-${name}`, name, 'asesoria@gmail.com', 'google')),
      emailConfig('cfg-avisos', 'Avisos', 'avisos@asesoria.es', 'microsoft'),
    ]);
    const { api } = renderWithMail([many]);
    await fillFormFlow();
    fireEvent.click(toggle());
    const combo = await configSelect();
    expect(combo.tagName).toBe('INPUT');
    act(() => combo.focus());
    fireEvent.change(combo, { target: { value: 'avi' } });
    const avisos = await screen.findByRole('option', { name: /^Avisos/ });
    expect(avisos.getAttribute('aria-disabled')).toBe('true');
    fireEvent.change(combo, { target: { value: 'sur' } });
    fireEvent.click(await screen.findByRole('option', { name: 'Sur — asesoria@gmail.com (Google (Gmail))' }));
    fireEvent.change(recipientsBox(), { target: { value: 'cliente@empresa.es' } });
    fireEvent.click(launchButton());
    await waitFor(() => expect(launchBody(api)?.inputs.emailResult).toEqual({ configId: 'cfg-Sur', recipients: ['cliente@empresa.es'] }));
  });

  it("goes into a schedule's flowInputs like the other inputs", async () => {
    const { api } = renderLauncher(emailResultFlow(), {
      'GET /api/machines': () => jsonResponse(200, { items: mailMachines }),
      'GET /api/mail/accounts': () => jsonResponse(200, { items: mailAccounts }),
      'POST /api/browserflow/schedule/alta-rapida': (call) => jsonResponse(201, {
        _id: 's1', browserFlowName: 'Alta rápida', browserFlow: 'alta-rapida', localProcess: null,
        scheduledDate: (call.body as { scheduledDate: string }).scheduledDate, repeat: false, every: 1, interval: 'days',
        user: { email: 'ana@asesoria.es', name: 'Ana' }, machine: null, flowInputs: (call.body as { flowInputs: unknown }).flowInputs,
        sendOutputToServer: true, updatedAt: '2025-03-01T10:00:00.000Z',
      }),
    });
    await fillFormFlow();
    fireEvent.click(toggle());
    fireEvent.change(await configSelect(), { target: { value: 'cfg-gmail' } });
    fireEvent.change(recipientsBox(), { target: { value: 'cliente@empresa.es' } });
    fireEvent.click(screen.getByRole('button', { name: 'Programar' }));
    const dialog = await screen.findByRole('dialog', { name: 'Elige fecha y hora' }, { timeout: 10_000 });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Programar tarea' }));
    await waitFor(() => expect(api.posts('/api/browserflow/schedule/alta-rapida')).toHaveLength(1));
    expect(api.posts('/api/browserflow/schedule/alta-rapida')[0]?.body).toMatchObject({
      flowInputs: { emailResult: { configId: 'cfg-gmail', recipients: ['cliente@empresa.es'] } },
    });
    expect(await screen.findByText(/^Robot programado para el/)).toBeTruthy();
  });
});
