/** /email for a firm with no device, editing a saved config, the CCC list, and 'Siguiente' going to the first error (issue 43). */
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import type { MachineConfig } from '#shared/api/machines.ts';
import { DEFAULT_MAIL_BODY } from '#shared/mail/template.ts';
import { account, baseRoutes, machine, ok, renderWizard, setUpEmailTests, stubApi, MACHINE_ID } from './test/renderEmail.tsx';

setUpEmailTests();

const VALID_CCC = '28255627528';
const firmConfig: MachineConfig = {
  _id: 'cfg-9', name: 'Resultados a clientes', cccList: [VALID_CCC], error: null, createdAt: '2026-11-27T08:00:00.000Z',
  emailSettings: { subject: 'Informe de [[ROBOT]]', body: 'Hola:\n[[RESULTADO]]', provider: 'google', email: 'despacho@asesoria.es', replyTo: '', senderName: 'Asesoría' },
};

describe('a firm with no device', () => {
  it('says before step 1 that the config is the whole firm’s, and saves it there with its CCCs', async () => {
    const calls = stubApi(baseRoutes([account()], { 'GET /api/machines': ok({ items: [] }), 'POST /api/configs': ok({ ...firmConfig, _id: 'cfg-new' }, 201) }));
    renderWizard('/email');
    expect(await screen.findByText('Toda la asesoría')).toBeTruthy();
    expect(screen.getByText(/también los que se ejecutan en el servidor. No necesitas ningún dispositivo/)).toBeTruthy();
    expect(screen.queryByText('No tienes dispositivos')).toBeNull();

    fireEvent.change(screen.getByLabelText('Nombre de la configuración'), { target: { value: 'Resultados' } });
    fireEvent.change(screen.getByLabelText('CCC (opcional, uno por línea)'), { target: { value: `${VALID_CCC}\n\n` } });
    fireEvent.click(screen.getByRole('button', { name: 'Siguiente' }));
    fireEvent.click(await screen.findByRole('radio', { name: 'Usar despacho@asesoria.es' }));
    fireEvent.click(screen.getByRole('button', { name: 'Siguiente' }));
    await screen.findByRole('heading', { name: 'Revisa y guarda' });
    expect(screen.getAllByRole('definition')[0]?.textContent).toBe('Toda la asesoría');
    fireEvent.click(screen.getByRole('button', { name: 'Guardar' }));
    expect(await screen.findByText('Configuración de correo guardada')).toBeTruthy();
    expect(await screen.findByText('En Mis recursos /workspace')).toBeTruthy();
    expect(calls.find((call) => call.key === 'POST /api/configs')?.body).toMatchObject({ name: 'Resultados', cccList: [VALID_CCC], emailSettings: { email: 'despacho@asesoria.es', body: DEFAULT_MAIL_BODY } });
    expect(calls.some((call) => call.key.startsWith('POST /api/machines'))).toBe(false);
  });
});

describe("'Siguiente' with something wrong", () => {
  it('brings the first wrong field into view with the focus, its error under it', async () => {
    // jsdom has no layout: the call is what can be seen.
    const scrolled = vi.fn();
    const original = Element.prototype.scrollIntoView;
    Element.prototype.scrollIntoView = scrolled;
    onTestFinished(() => {
      Element.prototype.scrollIntoView = original;
    });
    stubApi(baseRoutes([]));
    renderWizard();
    await screen.findByText('PC Oficina');
    fireEvent.change(screen.getByLabelText('CCC (opcional, uno por línea)'), { target: { value: '123' } });
    fireEvent.click(screen.getByRole('button', { name: 'Siguiente' }));
    const name = screen.getByLabelText('Nombre de la configuración');
    await waitFor(() => expect(document.activeElement).toBe(name));
    expect(scrolled.mock.contexts[0]).toBe(name);
    // The error is said under its own field.
    expect(name.closest('.app-field')?.textContent).toContain('Pon un nombre a la configuración');
    expect(screen.getByText(`Introduce un CCC válido: 123`)).toBeTruthy();

    // With the name given, the CCC is the first wrong one.
    fireEvent.change(name, { target: { value: 'Resultados' } });
    fireEvent.click(screen.getByRole('button', { name: 'Siguiente' }));
    await waitFor(() => expect(document.activeElement).toBe(screen.getByLabelText('CCC (opcional, uno por línea)')));
    expect(screen.getByRole('heading', { name: 'Prepara el mensaje' })).toBeTruthy();
  });
});

describe('editing a saved config', () => {
  it('fills the wizard with it, keeps it where it is and saves it in place', async () => {
    const calls = stubApi(baseRoutes([account()], { 'GET /api/configs': ok({ items: [firmConfig] }), 'PUT /api/machines/configs/cfg-9': ok(firmConfig) }));
    renderWizard('/email?config=cfg-9');
    expect(await screen.findByRole('heading', { level: 1, name: 'Editar configuración de correo' })).toBeTruthy();
    const name = (await screen.findByLabelText('Nombre de la configuración')) as HTMLInputElement;
    expect(name.value).toBe('Resultados a clientes');
    expect((screen.getByLabelText('CCC (opcional, uno por línea)') as HTMLTextAreaElement).value).toBe(VALID_CCC);
    expect((screen.getByLabelText('Asunto') as HTMLInputElement).value).toBe('Informe de [[ROBOT]]');
    expect(screen.getByText('Toda la asesoría')).toBeTruthy();
    expect(screen.queryByLabelText('Dónde se guarda')).toBeNull();

    fireEvent.change(name, { target: { value: 'Resultados de marzo' } });
    fireEvent.click(screen.getByRole('button', { name: 'Siguiente' }));
    // The account it sends from comes chosen.
    expect(((await screen.findByRole('radio', { name: 'Usar despacho@asesoria.es' })) as HTMLInputElement).checked).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Siguiente' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Guardar' }));
    expect(await screen.findByText('Configuración de correo actualizada')).toBeTruthy();
    expect(calls.find((call) => call.key === 'PUT /api/machines/configs/cfg-9')?.body).toMatchObject({ name: 'Resultados de marzo', cccList: [VALID_CCC], emailSettings: { subject: 'Informe de [[ROBOT]]' } });
    expect(calls.some((call) => call.key.startsWith('POST '))).toBe(false);
  });

  it("edits a device's config on that device, and says so when the config is gone", async () => {
    const onDevice = machine({ _id: MACHINE_ID, savedAs: 'PC Oficina', configs: [{ ...firmConfig, _id: 'cfg-pc' }] });
    stubApi(baseRoutes([account()], { 'GET /api/machines': ok({ items: [onDevice] }) }));
    const { unmount } = renderWizard(`/email?machine=${MACHINE_ID}&config=cfg-pc`);
    expect(((await screen.findByLabelText('Nombre de la configuración')) as HTMLInputElement).value).toBe('Resultados a clientes');
    expect(screen.getByText('PC Oficina')).toBeTruthy();
    unmount();

    renderWizard('/email?config=cfg-gone');
    expect(await screen.findByText('Esta configuración ya no existe o no la puedes ver.')).toBeTruthy();
  });
});
