/** /altasybajas 'Nueva Alta' / 'Ver Alta': company and group, fields by page and type, validation, saving, the server's field errors. */
import { describe, expect, it } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { altasRoutes, answer, failure, renderAltas, rowOf, setUpAltasTests, shownToasts, stubApi, submission } from './test/renderAltas.tsx';

setUpAltasTests();

const withPhoto = submission({
  fieldsValues: { ...submission().fieldsValues, 'Foto DNI': { fileId: 'f1', name: 'dni.jpg', size: 2000, type: 'image/jpeg' } },
});

async function openNewAlta() {
  await waitFor(() => expect((screen.getByRole('button', { name: 'Nueva Alta' }) as HTMLButtonElement).disabled).toBe(false));
  fireEvent.click(screen.getByRole('button', { name: 'Nueva Alta' }));
  return within(await screen.findByRole('dialog', { name: 'Nueva Alta' }));
}

describe('AltasBajasPage registration modal', () => {
  it('shows every field by page, typed, with asterisks on required ones and file fields as links', async () => {
    stubApi(altasRoutes({ submissions: [withPhoto] }));
    renderAltas();
    await screen.findByText(withPhoto.title);
    fireEvent.click(rowOf(withPhoto.title).getByRole('button', { name: 'Ver Alta' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Ver Alta' }));
    expect(dialog.getByRole('group', { name: 'Datos personales' })).toBeTruthy();
    expect(dialog.getByRole('group', { name: 'Contrato' })).toBeTruthy();
    const nombre = dialog.getByRole('textbox', { name: 'Nombre' }) as HTMLInputElement;
    expect(nombre.value).toBe('Lucía');
    expect(nombre.getAttribute('aria-required')).toBe('true');
    // The asterisk is shown; screen readers hear aria-required instead.
    expect(nombre.labels?.[0]?.textContent).toBe('Nombre *');
    expect((dialog.getByRole('textbox', { name: 'Número de documento' }) as HTMLInputElement).labels?.[0]?.textContent).toBe('Número de documento *');
    expect((dialog.getByLabelText(/Fecha de alta/) as HTMLInputElement).type).toBe('date');
    expect((dialog.getByLabelText(/Fecha de alta/) as HTMLInputElement).value).toBe('2026-11-20');
    const ccc = dialog.getByRole('combobox', { name: /Cuenta de cotización/ }) as HTMLSelectElement;
    expect(ccc.value).toBe('46123456752');
    expect(within(ccc).getAllByRole('option').map((option) => option.textContent)).toEqual(['Elige una opción', 'Valencia (46123456752)']);
    expect((dialog.getByRole('combobox', { name: /Tipo de contrato/ }) as HTMLSelectElement).value).toBe('100');
    expect(dialog.getByRole('link', { name: 'dni.jpg' }).getAttribute('href')).toBe('/api/form-to-flow-submission/s1/files/f1');
    expect((dialog.getByRole('combobox', { name: /^Empresa/ }) as HTMLSelectElement).disabled).toBe(true);
  });

  it('makes a choice among more than 5 options searchable, and saves the chosen key', async () => {
    const calls = stubApi(altasRoutes({ submissions: [submission()] }, { 'PATCH /api/form-to-flow-submission/s1': answer(submission()) }));
    renderAltas();
    await screen.findByText(submission().title);
    fireEvent.click(rowOf(submission().title).getByRole('button', { name: 'Ver Alta' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Ver Alta' }));
    const search = dialog.getByRole('combobox', { name: 'Grupo de cotización' }) as HTMLInputElement;
    expect(search.tagName).toBe('INPUT');
    act(() => search.focus());
    fireEvent.change(search, { target: { value: 'subal' } });
    const option = await screen.findByRole('option', { name: 'Subalternos' });
    expect(screen.queryByRole('option', { name: 'Ingenieros técnicos' })).toBeNull();
    fireEvent.click(option);
    fireEvent.click(dialog.getByRole('button', { name: 'Guardar' }));
    await waitFor(() => expect(calls.find((call) => call.key === 'PATCH /api/form-to-flow-submission/s1')?.body).toMatchObject({ 'Grupo Cotización': '06' }));
  });

  it('validates under each field before saving, and creates the alta with the group’s values', async () => {
    const calls = stubApi(altasRoutes({}, { 'POST /api/form-to-flow-submission': answer(submission(), 201) }));
    renderAltas();
    const dialog = await openNewAlta();
    fireEvent.click(dialog.getByRole('button', { name: 'Guardar' }));
    const company = dialog.getByRole('combobox', { name: /^Empresa/ });
    expect(company.getAttribute('aria-invalid')).toBe('true');
    // The first error takes the focus (spec §5).
    await waitFor(() => expect(document.activeElement).toBe(company));
    const nombre = dialog.getByRole('textbox', { name: 'Nombre' });
    expect(document.getElementById(nombre.getAttribute('aria-describedby') ?? '')?.textContent).toBe('Este campo es obligatorio');
    expect(calls.some((call) => call.key === 'POST /api/form-to-flow-submission')).toBe(false);

    fireEvent.change(company, { target: { value: 'c1' } });
    fireEvent.change(dialog.getByRole('combobox', { name: 'Grupo' }), { target: { value: '0b0f8a52-7a0e-4c86-9a4e-1f7f5b1d2c3a' } });
    expect((dialog.getByRole('combobox', { name: /Jornada/ }) as HTMLSelectElement).value).toBe('completa');
    expect((dialog.getByRole('combobox', { name: /Tipo de contrato/ }) as HTMLSelectElement).value).toBe('100');
    fireEvent.change(nombre, { target: { value: 'Lucía' } });
    fireEvent.change(dialog.getByRole('textbox', { name: /Número de documento/ }), { target: { value: '1234' } });
    fireEvent.change(dialog.getByLabelText(/Fecha de alta/), { target: { value: '2026-11-20' } });
    fireEvent.change(dialog.getByRole('combobox', { name: /Cuenta de cotización/ }), { target: { value: '46123456752' } });
    fireEvent.click(dialog.getByRole('button', { name: 'Guardar' }));
    expect(dialog.getByText('Introduce un NIF o NIE válido')).toBeTruthy();
    fireEvent.change(dialog.getByRole('textbox', { name: /Número de documento/ }), { target: { value: '12345678Z' } });
    expect(dialog.queryByText('Introduce un NIF o NIE válido')).toBeNull();
    fireEvent.click(dialog.getByRole('button', { name: 'Guardar' }));

    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(calls.find((call) => call.key === 'POST /api/form-to-flow-submission')?.body).toEqual({
      companyId: 'c1', groupKey: '0b0f8a52-7a0e-4c86-9a4e-1f7f5b1d2c3a',
      fieldsValues: { Jornada: 'completa', 'Tipo Contrato*': '100', nombre: 'Lucía', NIF: '12345678Z', 'Fecha Alta': '2026-11-20', CCC: '46123456752' },
    });
    expect(shownToasts()).toContainEqual({ kind: 'success', lines: ['Alta actualizada correctamente'] });
  });

  it('saves changes with PATCH, and shows the server’s per-field messages of a 400 under the fields', async () => {
    let reject = true;
    const calls = stubApi(altasRoutes({ submissions: [withPhoto] }, {
      'PATCH /api/form-to-flow-submission/s1': (call) => (reject
        ? failure(400, 'Revisa los datos del alta', { issues: [{ path: 'CCC', message: 'La cuenta de cotización no es de esta empresa' }] })
        : answer(withPhoto))(call),
    }));
    renderAltas();
    await screen.findByText(withPhoto.title);
    fireEvent.click(rowOf(withPhoto.title).getByRole('button', { name: 'Ver Alta' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Ver Alta' }));
    fireEvent.change(dialog.getByRole('combobox', { name: /Jornada/ }), { target: { value: 'parcial' } });
    // The contract chosen for 'completa' is not offered for 'parcial': it is cleared and asked for again.
    expect((dialog.getByRole('combobox', { name: /Tipo de contrato/ }) as HTMLSelectElement).value).toBe('');
    fireEvent.change(dialog.getByRole('combobox', { name: /Tipo de contrato/ }), { target: { value: '200' } });
    fireEvent.click(dialog.getByRole('button', { name: 'Guardar' }));
    expect(await dialog.findByText('La cuenta de cotización no es de esta empresa')).toBeTruthy();
    expect(shownToasts()).toContainEqual({ kind: 'error', lines: ['No se ha podido actualizar'] });
    const patch = calls.find((call) => call.key === 'PATCH /api/form-to-flow-submission/s1');
    expect(patch?.body).toMatchObject({ Jornada: 'parcial', 'Tipo Contrato*': '200', 'Foto DNI': { fileId: 'f1' } });

    reject = false;
    fireEvent.click(dialog.getByRole('button', { name: 'Guardar' }));
    await waitFor(() => expect(shownToasts()).toContainEqual({ kind: 'success', lines: ['Alta actualizada correctamente'] }));
  });
});
