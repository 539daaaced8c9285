/** Mis recursos, a machine selected: its owner's settings (rename, share, delete) and its configurations. */
import { describe, expect, it } from 'vitest';
import { fireEvent, screen, within } from '@testing-library/react';
import { jsonResponse } from '../../test/renderApp.tsx';
import { machinesOf, renderWorkspace, setUpWorkspacePageTests, stubApi } from './test/renderWorkspace.tsx';
import { oficina, portatil } from './testData.ts';

setUpWorkspacePageTests();

describe('opened from the email wizard', () => {
  it('selects the machine of ?dispositivo= and opens its configurations with ?detalle=configuraciones', async () => {
    stubApi({ 'GET /api/machines': machinesOf([oficina, portatil]) });
    renderWorkspace({ path: `/workspace?dispositivo=${portatil._id}&detalle=configuraciones` });
    const detail = await screen.findByRole('region', { name: 'Portátil de Ana' });
    expect(within(detail).getByRole('tab', { name: 'Configuraciones' }).getAttribute('aria-selected')).toBe('true');
    expect(within(detail).getByText('Este dispositivo no tiene configuraciones')).toBeTruthy();
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
  it('leads to the email wizard for this machine and shows a config’s mail provider and address', async () => {
    const withMail = {
      ...portatil,
      configs: [{
        _id: 'k3', name: 'Resultados', cccList: [], error: null, createdAt: '2025-03-01T10:00:00.000Z',
        emailSettings: { subject: 'Resultado de [[ROBOT]]', body: 'Hola', provider: 'microsoft' as const, email: 'despacho@asesoria.es', replyTo: '' },
      }],
    };
    stubApi({ 'GET /api/machines': machinesOf([withMail]) });
    renderWorkspace();
    const detail = await screen.findByRole('region', { name: 'Portátil de Ana' });
    fireEvent.click(within(detail).getByRole('tab', { name: 'Configuraciones' }));
    const list = await within(detail).findByRole('list', { name: 'Configuraciones del dispositivo' });
    expect(list.textContent).toContain('Correo: despacho@asesoria.es (Microsoft)');
    const link = within(detail).getByRole('link', { name: 'Configurar correo' });
    expect(link.getAttribute('href')).toBe(`/email?machine=${portatil._id}`);
    expect(within(detail).queryByText(/se podrá configurar cuando/)).toBeNull();
  });

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
