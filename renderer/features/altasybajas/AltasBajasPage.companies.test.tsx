/** /altasybajas 'Configuración de empresas y grupos': companies, CCC rows, Enviar Email, groups (new, edit, copy, delete). */
import { describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { altasRoutes, answer, company, failure, noContent, renderAltas, setUpAltasTests, shownToasts, stubApi } from './test/renderAltas.tsx';

setUpAltasTests();

const levante = company();
const norte = company({ _id: 'c2', groups: [] }, { nombreEmpresa: 'Talleres Norte S.L.', email: 'admin@norte.es', CCC: [] });
const groupKey = '0b0f8a52-7a0e-4c86-9a4e-1f7f5b1d2c3a';
const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

async function openCompanies() {
  fireEvent.click(screen.getByRole('button', { name: 'Configuración de empresas y grupos' }));
  expect(screen.getByRole('heading', { level: 1, name: 'Configuración de empresas y grupos' })).toBeTruthy();
}

const companyToggle = (name: RegExp) => screen.getByRole('button', { name });

describe('AltasBajasPage companies', () => {
  it('shows the empty state, and the back arrow returns to the dashboard', async () => {
    stubApi(altasRoutes({ companies: [] }));
    renderAltas();
    await openCompanies();
    expect(await screen.findByRole('heading', { name: 'Todavía no tienes ninguna empresa registrada.' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Volver' }));
    expect(screen.getByRole('heading', { level: 1, name: 'Altas y bajas' })).toBeTruthy();
  });

  it('lists companies with their group count, expanding with a button that says so', async () => {
    stubApi(altasRoutes({ companies: [levante, norte] }));
    renderAltas();
    await openCompanies();
    const toggle = await screen.findByRole('button', { name: /Hostelería Levante S\.L\.\s*1 grupo/ });
    expect(companyToggle(/Talleres Norte S\.L\.\s*0 grupos/)).toBeTruthy();
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    fireEvent.click(toggle);
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    const groups = screen.getByRole('group', { name: 'Grupos de Hostelería Levante S.L.' });
    expect(within(groups).getByText('Camarero/a')).toBeTruthy();
    expect(within(groups).getByRole('button', { name: 'Nuevo grupo' })).toBeTruthy();
  });

  it('creates a company with its CCC rows, checking each row and clearing the last one instead of removing it', async () => {
    const calls = stubApi(altasRoutes({ companies: [] }, { 'POST /api/form-to-flow-user/client': answer(levante, 201) }));
    renderAltas();
    await openCompanies();
    fireEvent.click(await screen.findByRole('button', { name: 'Nueva Empresa' }));
    const dialog = await screen.findByRole('dialog', { name: 'Nueva Empresa' });
    const inside = within(dialog);
    fireEvent.change(inside.getByRole('textbox', { name: 'Nombre 1' }), { target: { value: 'Valencia' } });
    fireEvent.click(inside.getByRole('button', { name: 'Quitar la fila 1' }));
    expect((inside.getByRole('textbox', { name: 'Nombre 1' }) as HTMLInputElement).value).toBe('');
    fireEvent.click(inside.getByRole('button', { name: 'Guardar' }));
    expect(inside.getAllByText('Este campo es obligatorio')).toHaveLength(2);

    fireEvent.change(inside.getByLabelText('Nombre de la empresa *'), { target: { value: 'Hostelería Levante S.L.' } });
    fireEvent.change(inside.getByLabelText('Email de la empresa *'), { target: { value: 'RRHH@levante.es' } });
    fireEvent.change(inside.getByRole('textbox', { name: 'Nombre 1' }), { target: { value: 'Valencia' } });
    fireEvent.click(inside.getByRole('button', { name: 'Guardar' }));
    // The row says what it lacks (issue 44: it said only 'Comprueba la información'), on the input at fault.
    expect(inside.getByText('Falta el número de CCC de esta cuenta')).toBeTruthy();
    expect(inside.getByRole('textbox', { name: 'CCC 1' }).getAttribute('aria-invalid')).toBe('true');
    expect(inside.getByRole('textbox', { name: 'Nombre 1' }).getAttribute('aria-invalid')).toBeNull();
    fireEvent.change(inside.getByRole('textbox', { name: 'CCC 1' }), { target: { value: '46123456789' } });
    fireEvent.click(inside.getByRole('button', { name: 'Guardar' }));
    expect(inside.getByText('Introduce un CCC válido')).toBeTruthy();
    fireEvent.change(inside.getByRole('textbox', { name: 'CCC 1' }), { target: { value: '46123456752' } });
    fireEvent.click(inside.getByRole('button', { name: 'Añadir CCC' }));
    fireEvent.click(inside.getByRole('button', { name: 'Guardar' }));
    expect(inside.getByText('Escribe el nombre y el CCC, o quita esta fila')).toBeTruthy();
    fireEvent.click(inside.getByRole('button', { name: 'Quitar la fila 2' }));
    fireEvent.click(inside.getByRole('button', { name: 'Guardar' }));

    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(calls.find((call) => call.key === 'POST /api/form-to-flow-user/client')?.body).toEqual({
      name: 'Hostelería Levante S.L.', email: 'rrhh@levante.es', cccList: [{ label: 'Valencia', key: '46123456752' }],
    });
    expect(shownToasts()).toContainEqual({ kind: 'success', lines: ['Empresa creada correctamente'] });
  });

  it('edits a company, and says when its email is already in use', async () => {
    let clash = true;
    stubApi(altasRoutes({ companies: [levante] }, {
      'PATCH /api/form-to-flow-user/client/c1': () => (clash ? failure(409, 'Este email ya está en uso') : answer(levante))({} as never),
    }));
    renderAltas();
    await openCompanies();
    fireEvent.click(await screen.findByRole('button', { name: 'Editar Hostelería Levante S.L.' }));
    const dialog = await screen.findByRole('dialog', { name: 'Editar empresa' });
    expect((within(dialog).getByRole('textbox', { name: 'CCC 1' }) as HTMLInputElement).value).toBe('46123456752');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Guardar' }));
    expect(await within(dialog).findByText('Este email ya está en uso')).toBeTruthy();
    await waitFor(() => expect(document.activeElement).toBe(within(dialog).getByLabelText('Email de la empresa *')));
    expect(shownToasts()).toContainEqual({ kind: 'error', lines: ['Este email ya está en uso'] });
    clash = false;
    fireEvent.click(within(dialog).getByRole('button', { name: 'Guardar' }));
    await waitFor(() => expect(shownToasts()).toContainEqual({ kind: 'success', lines: ['Empresa actualizada correctamente'] }));
  });

  it('shows the server’s message under the CCC row it refused', async () => {
    stubApi(altasRoutes({ companies: [levante] }, {
      'PATCH /api/form-to-flow-user/client/c1': failure(400, 'Revisa los datos enviados', { issues: [{ path: 'cccList.0', message: 'Esta cuenta de cotización ya es de otra empresa' }] }),
    }));
    renderAltas();
    await openCompanies();
    fireEvent.click(await screen.findByRole('button', { name: 'Editar Hostelería Levante S.L.' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Editar empresa' }));
    fireEvent.click(dialog.getByRole('button', { name: 'Guardar' }));
    expect(await dialog.findByText('Esta cuenta de cotización ya es de otra empresa')).toBeTruthy();
    expect(shownToasts()).toContainEqual({ kind: 'error', lines: ['No se ha podido actualizar'] });
    await waitFor(() => expect(document.activeElement).toBe(dialog.getByRole('textbox', { name: 'Nombre 1' })));
    fireEvent.change(dialog.getByRole('textbox', { name: 'Nombre 1' }), { target: { value: 'Valencia centro' } });
    expect(dialog.queryByText('Esta cuenta de cotización ya es de otra empresa')).toBeNull();
  });

  it('sends the email: the server’s 409 opens the company, success names the address for 4 s, a failure says so', async () => {
    const timers = vi.spyOn(globalThis, 'setTimeout');
    let reply = failure(409, 'Necesitas crear al menos un grupo en la empresa Talleres Norte S.L. para continuar.');
    stubApi(altasRoutes({ companies: [norte] }, { 'PUT /api/form-to-flow-user/sendemail/c2': (call) => reply(call) }));
    renderAltas();
    await openCompanies();
    const toggle = await screen.findByRole('button', { name: /^Talleres Norte S\.L\./ });
    fireEvent.click(screen.getByRole('button', { name: 'Enviar Email' }));
    await waitFor(() => expect(toggle.getAttribute('aria-expanded')).toBe('true'));
    expect(shownToasts()).toEqual([{ kind: 'error', lines: ['Necesitas crear al menos un grupo en la empresa Talleres Norte S.L. para continuar.'] }]);

    reply = answer({ email: 'admin@norte.es' });
    fireEvent.click(screen.getByRole('button', { name: 'Enviar Email' }));
    await waitFor(() => expect(shownToasts()).toContainEqual({ kind: 'success', lines: ['El email se ha enviado correctamente a admin@norte.es'] }));
    expect(timers.mock.calls.some(([, delay]) => delay === 4000)).toBe(true);

    reply = failure(502, 'Ha ocurrido un error al enviar el correo');
    fireEvent.click(screen.getByRole('button', { name: 'Enviar Email' }));
    await waitFor(() => expect(shownToasts()).toContainEqual({ kind: 'error', lines: ['Ha ocurrido un error al enviar el correo'] }));
  });

  it('deletes a company after confirming', async () => {
    const calls = stubApi(altasRoutes({ companies: [levante] }, { 'DELETE /api/form-to-flow-user/client/c1': noContent }));
    renderAltas();
    await openCompanies();
    fireEvent.click(await screen.findByRole('button', { name: 'Eliminar Hostelería Levante S.L.' }));
    const dialog = await screen.findByRole('dialog', { name: 'Eliminar empresa' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Eliminar' }));
    await waitFor(() => expect(calls.some((call) => call.key === 'DELETE /api/form-to-flow-user/client/c1')).toBe(true));
    await waitFor(() => expect(shownToasts()).toContainEqual({ kind: 'success', lines: ['Empresa eliminada correctamente'] }));
  });

  it('creates a group with a new uuid and its advisor fields, dependent options following Jornada', async () => {
    const calls = stubApi(altasRoutes({ companies: [norte] }, { 'POST /api/form-to-flow-client-group/c2/groups': answer(norte) }));
    renderAltas();
    await openCompanies();
    fireEvent.click(await screen.findByRole('button', { name: /^Talleres Norte S\.L\./ }));
    fireEvent.click(screen.getByRole('button', { name: 'Nuevo grupo' }));
    const dialog = await screen.findByRole('dialog', { name: 'Nuevo grupo' });
    const inside = within(dialog);
    const contract = inside.getByRole('combobox', { name: /Tipo de contrato/ }) as HTMLSelectElement;
    expect(contract.disabled).toBe(true);
    expect(contract.textContent).toContain('Elige antes «Jornada»');
    fireEvent.click(inside.getByRole('button', { name: 'Guardar' }));
    expect(inside.getAllByText('Este campo es obligatorio').length).toBeGreaterThanOrEqual(2);
    fireEvent.change(inside.getByLabelText('Nombre del grupo *'), { target: { value: 'Cocinero/a' } });
    fireEvent.change(inside.getByRole('combobox', { name: /Jornada/ }), { target: { value: 'parcial' } });
    expect(within(contract).getAllByRole('option').map((option) => option.textContent)).toEqual(['Elige una opción', 'Indefinido a tiempo parcial']);
    fireEvent.change(contract, { target: { value: '200' } });
    fireEvent.click(inside.getByRole('button', { name: 'Guardar' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const body = calls.find((call) => call.key === 'POST /api/form-to-flow-client-group/c2/groups')?.body as Record<string, unknown>;
    const [key] = Object.keys(body);
    expect(key).toMatch(uuidPattern);
    expect(body[key!]).toEqual({ text: 'Cocinero/a', fieldsValues: { Jornada: 'parcial', 'Tipo Contrato*': '200' } });
    expect(shownToasts()).toContainEqual({ kind: 'success', lines: ['El grupo se ha creado correctamente'] });
  });

  it('edits a group under its key, copies one to another company with a new key, and deletes the selected ones', async () => {
    const calls = stubApi(altasRoutes({ companies: [levante, norte] }, {
      'PATCH /api/form-to-flow-client-group/c1/groups': answer(levante),
      'POST /api/form-to-flow-client-group/c2/groups': answer(norte),
      [`DELETE /api/form-to-flow-client-group/c1/groups/${groupKey}`]: answer({ ...levante, groups: [] }),
    }));
    renderAltas();
    await openCompanies();
    fireEvent.click(await screen.findByRole('button', { name: /^Hostelería Levante S\.L\./ }));

    fireEvent.click(screen.getByRole('button', { name: 'Editar el grupo Camarero/a' }));
    const edit = await screen.findByRole('dialog', { name: 'Editar grupo' });
    expect((within(edit).getByRole('combobox', { name: /Tipo de contrato/ }) as HTMLSelectElement).value).toBe('100');
    fireEvent.click(within(edit).getByRole('button', { name: 'Guardar' }));
    await waitFor(() => expect(shownToasts()).toContainEqual({ kind: 'success', lines: ['El grupo se ha actualizado correctamente'] }));
    expect(Object.keys(calls.find((call) => call.key.startsWith('PATCH'))?.body as object)).toEqual([groupKey]);

    fireEvent.click(screen.getByRole('button', { name: 'Copiar el grupo Camarero/a a otra empresa' }));
    const copy = await screen.findByRole('dialog', { name: 'Copiar grupo' });
    expect(within(within(copy).getByRole('combobox', { name: 'Empresa de destino' })).getAllByRole('option').map((option) => option.textContent)).toEqual(['Talleres Norte S.L.']);
    fireEvent.click(within(copy).getByRole('button', { name: 'Copiar' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const pasted = calls.find((call) => call.key === 'POST /api/form-to-flow-client-group/c2/groups')?.body as Record<string, unknown>;
    const [newKey] = Object.keys(pasted);
    expect(newKey).toMatch(uuidPattern);
    expect(newKey).not.toBe(groupKey);
    expect(pasted[newKey!]).toEqual({ text: 'Camarero/a', fieldsValues: { Jornada: 'completa', 'Tipo Contrato*': '100' } });

    const remove = screen.getByRole('button', { name: 'Eliminar grupos seleccionados' }) as HTMLButtonElement;
    expect(remove.disabled).toBe(true);
    fireEvent.click(screen.getByRole('checkbox', { name: 'Seleccionar Camarero/a' }));
    fireEvent.click(remove);
    fireEvent.click(within(await screen.findByRole('dialog', { name: 'Eliminar grupos' })).getByRole('button', { name: 'Eliminar' }));
    await waitFor(() => expect(calls.some((call) => call.key === `DELETE /api/form-to-flow-client-group/c1/groups/${groupKey}`)).toBe(true));
    await waitFor(() => expect(shownToasts()).toContainEqual({ kind: 'success', lines: ['Grupos eliminados correctamente'] }));
  });
});
