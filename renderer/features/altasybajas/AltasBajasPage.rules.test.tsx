/** /altasybajas, issue 44 item 4: a group's coefficient against its jornada, a nameless CCC row and the form URL's rule, each said under its field. */
import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { FormDefinition } from '#shared/api/altas.ts';
import { FULL_TIME_COEFFICIENT_MESSAGE, PART_TIME_COEFFICIENT_MISSING_MESSAGE } from '#shared/altas/alta-rules.ts';
import { CCC_LABEL_MISSING_MESSAGE } from '#shared/altas/ccc-rows.ts';
import { FORM_URL_FORMAT_MESSAGE } from '#shared/forms/index.ts';
import { altasRoutes, answer, company, definition, failure, renderAltas, setUpAltasTests, shownToasts, stubApi } from './test/renderAltas.tsx';

setUpAltasTests();

const norte = company({ _id: 'c2', groups: [] }, { nombreEmpresa: 'Talleres Norte S.L.', email: 'admin@norte.es', CCC: [] });
const GROUPS_PATH = 'POST /api/form-to-flow-client-group/c2/groups';
/** The test form with the built-in coefficient field the advisor fills per group. */
const withCoefficient: FormDefinition = {
  ...definition,
  fieldsOrder: [...definition.fieldsOrder, 'Coeficiente Parcialidad'],
  fields: { ...definition.fields, 'Coeficiente Parcialidad': { fieldType: 'text', title: 'Coeficiente de parcialidad (‰)', validate: 'parcialidad', fieldWriter: 'userBefore' } },
};

async function newGroupDialog(extra: Parameters<typeof altasRoutes>[1] = {}) {
  const calls = stubApi(altasRoutes({ companies: [norte] }, { 'GET /api/form-to-flow/alta-trabajador': answer(withCoefficient), ...extra }));
  renderAltas();
  fireEvent.click(screen.getByRole('button', { name: 'Configuración de empresas y grupos' }));
  fireEvent.click(await screen.findByRole('button', { name: /^Talleres Norte S\.L\./ }));
  fireEvent.click(screen.getByRole('button', { name: 'Nuevo grupo' }));
  const dialog = within(await screen.findByRole('dialog', { name: 'Nuevo grupo' }));
  fireEvent.change(dialog.getByLabelText('Nombre del grupo *'), { target: { value: 'Cocinero/a' } });
  return { calls, dialog };
}

/** The error line an input points to (the last of its aria-describedby ids: the URL's first one is its prefix). */
const errorOf = (input: HTMLElement) => document.getElementById((input.getAttribute('aria-describedby') ?? '').split(' ').at(-1) ?? '')?.textContent ?? '';

describe("a group's coefficient against its jornada (RED refuses the others)", () => {
  it('refuses Completa with 500 ‰ under the coefficient, and saves it with none', async () => {
    const { calls, dialog } = await newGroupDialog({ [GROUPS_PATH]: answer(norte) });
    fireEvent.change(dialog.getByRole('combobox', { name: /Jornada/ }), { target: { value: 'completa' } });
    fireEvent.change(dialog.getByRole('combobox', { name: /Tipo de contrato/ }), { target: { value: '100' } });
    const coefficient = dialog.getByLabelText('Coeficiente de parcialidad (‰)');
    fireEvent.change(coefficient, { target: { value: '500' } });
    fireEvent.click(dialog.getByRole('button', { name: 'Guardar' }));
    expect(coefficient.getAttribute('aria-invalid')).toBe('true');
    expect(errorOf(coefficient)).toBe(FULL_TIME_COEFFICIENT_MESSAGE);
    expect(calls.some((call) => call.key === GROUPS_PATH)).toBe(false);

    fireEvent.change(coefficient, { target: { value: '' } });
    fireEvent.click(dialog.getByRole('button', { name: 'Guardar' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const body = calls.find((call) => call.key === GROUPS_PATH)?.body as Record<string, { fieldsValues: Record<string, unknown> }>;
    expect(Object.values(body)[0]?.fieldsValues).toEqual({ Jornada: 'completa', 'Tipo Contrato*': '100', 'Coeficiente Parcialidad': '' });
  });

  it('refuses Parcial without a coefficient', async () => {
    const { calls, dialog } = await newGroupDialog();
    fireEvent.change(dialog.getByRole('combobox', { name: /Jornada/ }), { target: { value: 'parcial' } });
    fireEvent.change(dialog.getByRole('combobox', { name: /Tipo de contrato/ }), { target: { value: '200' } });
    fireEvent.click(dialog.getByRole('button', { name: 'Guardar' }));
    expect(errorOf(dialog.getByLabelText('Coeficiente de parcialidad (‰)'))).toBe(PART_TIME_COEFFICIENT_MISSING_MESSAGE);
    expect(calls.some((call) => call.key === GROUPS_PATH)).toBe(false);
  });

  it("shows the server's refusal of a group ('<key>.fieldsValues.<field>') under that field", async () => {
    const { dialog } = await newGroupDialog({
      // The group's key is a new uuid: the answer names the field under the key the modal sent.
      [GROUPS_PATH]: (call) => {
        const [key] = Object.keys(call.body as object);
        return failure(400, 'Revisa los datos enviados', { issues: [{ path: `${key}.fieldsValues.Coeficiente Parcialidad`, message: 'Un mensaje del servidor' }] })(call);
      },
    });
    fireEvent.change(dialog.getByRole('combobox', { name: /Jornada/ }), { target: { value: 'parcial' } });
    fireEvent.change(dialog.getByRole('combobox', { name: /Tipo de contrato/ }), { target: { value: '200' } });
    fireEvent.change(dialog.getByLabelText('Coeficiente de parcialidad (‰)'), { target: { value: '500' } });
    fireEvent.click(dialog.getByRole('button', { name: 'Guardar' }));
    await waitFor(() => expect(errorOf(dialog.getByLabelText('Coeficiente de parcialidad (‰)'))).toBe('Un mensaje del servidor'));
  });
});

describe('a CCC row with no name', () => {
  it('says on that row that its name is missing, on the name input', async () => {
    const calls = stubApi(altasRoutes({ companies: [] }));
    renderAltas();
    fireEvent.click(screen.getByRole('button', { name: 'Configuración de empresas y grupos' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Nueva Empresa' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Nueva Empresa' }));
    fireEvent.change(dialog.getByLabelText('Nombre de la empresa *'), { target: { value: 'Hostelería Levante S.L.' } });
    fireEvent.change(dialog.getByLabelText('Email de la empresa *'), { target: { value: 'rrhh@levante.es' } });
    fireEvent.change(dialog.getByRole('textbox', { name: 'CCC 1' }), { target: { value: '46123456752' } });
    fireEvent.click(dialog.getByRole('button', { name: 'Guardar' }));
    const name = dialog.getByRole('textbox', { name: 'Nombre 1' });
    expect(name.getAttribute('aria-invalid')).toBe('true');
    expect(errorOf(name)).toBe(CCC_LABEL_MISSING_MESSAGE);
    expect(dialog.queryByText('Comprueba la información')).toBeNull();
    await waitFor(() => expect(document.activeElement).toBe(name));
    expect(calls.some((call) => call.key === 'POST /api/form-to-flow-user/client')).toBe(false);
  });
});

describe("the form URL's rule", () => {
  async function openFormConfig(extra: Parameters<typeof altasRoutes>[1] = {}) {
    const calls = stubApi(altasRoutes({}, extra));
    renderAltas();
    fireEvent.click(screen.getByRole('button', { name: 'Configuración del formulario' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Configuración del formulario' }));
    await dialog.findByLabelText(/Título del formulario/);
    return { calls, dialog };
  }

  it('says the rule under the URL before sending (it said only "Revisa los datos enviados")', async () => {
    const { calls, dialog } = await openFormConfig();
    const url = dialog.getByLabelText(/URL del formulario/);
    fireEvent.change(url, { target: { value: 'Asesoría López' } });
    fireEvent.click(dialog.getByRole('button', { name: 'Guardar' }));
    expect(errorOf(url)).toBe(FORM_URL_FORMAT_MESSAGE);
    expect(url.getAttribute('aria-invalid')).toBe('true');
    expect(calls.some((call) => call.key === 'PUT /api/users/formToFlow')).toBe(false);
  });

  it("puts the server's per-field message under the URL, not only in a toast", async () => {
    const { dialog } = await openFormConfig({ 'PUT /api/users/formToFlow': failure(400, 'Revisa los datos enviados', { issues: [{ path: 'url', message: 'La URL no vale por otra razón' }] }) });
    const url = dialog.getByLabelText(/URL del formulario/);
    fireEvent.change(url, { target: { value: 'asesoria-lopez' } });
    fireEvent.click(dialog.getByRole('button', { name: 'Guardar' }));
    await waitFor(() => expect(errorOf(url)).toBe('La URL no vale por otra razón'));
    expect(shownToasts()).toContainEqual({ kind: 'error', lines: ['La URL no vale por otra razón'] });
  });
});
