/** Mis recursos: the firm's own email configs (on no device, issue 43), and 'Editar' on a saved config. */
import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { MachineConfig } from '#shared/api/machines.ts';
import { jsonResponse } from '../../test/renderApp.tsx';
import { machinesOf, renderWorkspace, setUpWorkspacePageTests, stubApi } from './test/renderWorkspace.tsx';
import { portatil } from './testData.ts';

setUpWorkspacePageTests();

const config: MachineConfig = {
  _id: 'cfg-9', name: 'Resultados a clientes', cccList: [], error: null, createdAt: '2026-11-27T08:00:00.000Z',
  emailSettings: { subject: 'Informe', body: 'Hola', provider: 'google', email: 'despacho@asesoria.es', replyTo: '' },
};

describe("the firm's email configs", () => {
  it('lists them for a firm with no device, each with Editar and Eliminar, and a way to add one', async () => {
    const calls = stubApi({
      'GET /api/machines': machinesOf([]),
      'GET /api/configs': () => jsonResponse(200, { items: [config] }),
      'DELETE /api/machines/configs/cfg-9': () => new Response(null, { status: 204 }),
    });
    renderWorkspace();
    const section = await screen.findByRole('region', { name: 'Configuraciones de correo de la asesoría' });
    const list = await within(section).findByRole('list', { name: 'Configuraciones de correo de la asesoría' });
    expect(list.textContent).toContain('Resultados a clientes');
    expect(list.textContent).toContain('Correo: despacho@asesoria.es (Google)');
    expect(within(section).getByRole('link', { name: 'Editar la configuración Resultados a clientes' }).getAttribute('href')).toBe('/email?config=cfg-9');
    expect(within(section).getByRole('link', { name: 'Nueva configuración de correo' }).getAttribute('href')).toBe('/email');

    fireEvent.click(within(section).getByRole('button', { name: 'Eliminar la configuración Resultados a clientes' }));
    const dialog = await screen.findByRole('dialog', { name: 'Eliminar configuración' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Eliminar' }));
    await waitFor(() => expect(calls.some((call) => call.key === 'DELETE /api/machines/configs/cfg-9')).toBe(true));
  });

  it('says when there are none, and when they cannot be loaded', async () => {
    stubApi({ 'GET /api/machines': machinesOf([]) });
    const { unmount } = renderWorkspace();
    expect(await screen.findByText('Aún no hay configuraciones de correo de la asesoría.')).toBeTruthy();
    unmount();
    stubApi({ 'GET /api/machines': machinesOf([]), 'GET /api/configs': () => jsonResponse(500, { statusCode: 500, code: 'INTERNAL', message: 'x' }) });
    renderWorkspace();
    expect((await screen.findByRole('alert')).textContent).toContain('No se han podido cargar las configuraciones de correo.');
  });
});

describe("a device's configs", () => {
  it('offer Editar on an email config, in the wizard on that device', async () => {
    stubApi({ 'GET /api/machines': machinesOf([{ ...portatil, configs: [{ ...config, _id: 'cfg-pc' }, { ...config, _id: 'cfg-ccc', name: 'Solo CCC', emailSettings: null }] }]) });
    renderWorkspace({ path: `/workspace?dispositivo=${portatil._id}&detalle=configuraciones` });
    const detail = await screen.findByRole('region', { name: 'Portátil de Ana' });
    const edit = await within(detail).findByRole('link', { name: 'Editar la configuración Resultados a clientes' });
    expect(edit.getAttribute('href')).toBe(`/email?machine=${portatil._id}&config=cfg-pc`);
    expect(within(detail).queryByRole('link', { name: 'Editar la configuración Solo CCC' })).toBeNull();
  });
});
