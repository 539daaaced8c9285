/** /form/:context/:id: filling and sending an alta (fields by page, validators, dependent choices, files, the server's answers). */
import { describe, expect, it } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { ADMINISTRATIVO, FORM_PATH, MECANICO, answer, apiError, field, fillValidAlta, publicForm, renderForm, sent, setUpFormTests, stubFetch, type } from './test/publicForm.tsx';

setUpFormTests();

const FILES_PATH = `POST ${FORM_PATH}/files`;
const SUBMIT = `POST ${FORM_PATH}`;
const uploaded = { fileId: 'f-77', name: 'dni.jpg', size: 234_567, type: 'image/jpeg' };
const optionsOf = (label: string) => Array.from(field(label).options).map((option) => option.textContent);
const section = (title: string) => screen.getByRole('region', { name: title });

async function openSignedIn(routes: Parameters<typeof stubFetch>[0] = {}) {
  const calls = stubFetch({ [`GET ${FORM_PATH}`]: answer(200, publicForm()), ...routes });
  renderForm();
  await screen.findByRole('heading', { name: 'Nueva alta' });
  return calls;
}

describe('FormPage: the alta form', () => {
  it('draws the definition’s pages as sections with their fields, typed, and an asterisk on required ones', async () => {
    await openSignedIn();
    const personal = section('Datos personales');
    expect(within(personal).getAllByRole('textbox').map((box) => box.getAttribute('name'))).toEqual(['nombre', 'PrimerApellido', 'NIF', 'email']);
    expect(within(personal).getByLabelText('Email del trabajador')).toBeTruthy();
    expect(within(personal).getByRole('combobox', { name: 'Tipo de documento *' })).toBeTruthy();
    const contract = section('Contrato');
    expect((within(contract).getByLabelText('Fecha de alta *') as HTMLInputElement).type).toBe('date');
    expect(within(contract).getByRole('checkbox', { name: 'Los datos son correctos *' })).toBeTruthy();
    expect(within(within(contract).getByRole('group', { name: 'Foto del DNI' })).getByRole('group', { name: 'Adjuntar Foto del DNI' })).toBeTruthy();
    // The company's CCC list is the CCC field's choice; the profile is one of its groups.
    expect(optionsOf('Cuenta de cotización *')).toEqual(['Elige una opción', 'Taller · 28123456789', 'Oficina · 28987654321']);
    expect(optionsOf('Perfil del puesto *')).toEqual(['Elige una opción', 'Mecánico', 'Administrativo']);
    // One company: no company choice.
    expect(screen.queryByLabelText('Empresa *')).toBeNull();
  });

  it('a bad NIF says "Introduce un NIF válido" under the field and nothing is sent; the first error gets the focus', async () => {
    const calls = await openSignedIn();
    fillValidAlta();
    type('Número de documento *', '1234567A');
    fireEvent.click(screen.getByRole('button', { name: 'Enviar alta' }));
    const nif = field('Número de documento *');
    await waitFor(() => expect(nif.getAttribute('aria-invalid')).toBe('true'));
    expect(document.getElementById(nif.getAttribute('aria-describedby') ?? '')?.textContent).toBe('Introduce un NIF válido');
    expect(document.activeElement).toBe(nif);
    expect(within(screen.getByRole('alert')).getByText('Revisa los campos marcados antes de enviar el alta.')).toBeTruthy();
    expect(sent(calls, SUBMIT)).toEqual([]);

    // The document type decides the validator: the same text is judged as a NIE once 'N.I.E.' is chosen.
    type('Tipo de documento *', '6');
    expect(document.getElementById(nif.getAttribute('aria-describedby') ?? '')?.textContent).toBe('Introduce un NIE válido');
    type('Número de documento *', 'X1234567L');
    expect(nif.getAttribute('aria-invalid')).toBeNull();
  });

  it('marks every empty required field, profile included', async () => {
    const calls = await openSignedIn();
    fireEvent.click(screen.getByRole('button', { name: 'Enviar alta' }));
    await waitFor(() => expect(field('Nombre *').getAttribute('aria-invalid')).toBe('true'));
    for (const label of ['Perfil del puesto *', 'Primer apellido *', 'Tipo de documento *', 'Número de documento *', 'Fecha de alta *', 'Cuenta de cotización *', 'Los datos son correctos *']) {
      expect(field(label).getAttribute('aria-invalid'), label).toBe('true');
    }
    expect(field('Email del trabajador').getAttribute('aria-invalid')).toBeNull();
    expect(document.activeElement).toBe(field('Perfil del puesto *'));
    expect(sent(calls, SUBMIT)).toEqual([]);
  });

  it('a dependent choice waits for its field, offers that value’s options and empties when it changes', async () => {
    await openSignedIn();
    const town = field('Municipio del centro');
    expect(town.disabled).toBe(true);
    expect(screen.getByText('Elige antes Provincia del centro.')).toBeTruthy();
    type('Provincia del centro', '28');
    expect(town.disabled).toBe(false);
    expect(optionsOf('Municipio del centro')).toEqual(['Elige una opción', 'Madrid', 'Alcalá de Henares']);
    type('Municipio del centro', '28005');
    type('Provincia del centro', '08');
    expect(optionsOf('Municipio del centro')).toEqual(['Elige una opción', 'Barcelona', "L'Hospitalet de Llobregat"]);
    expect(field('Municipio del centro').value).toBe('');
  });

  it('uploads a chosen file at once and shows its name and size; removing it empties the field', async () => {
    const calls = await openSignedIn({ [FILES_PATH]: answer(201, uploaded) });
    const photo = new File(['x'.repeat(10)], 'dni.jpg', { type: 'image/jpeg' });
    fireEvent.change(screen.getByTestId('file-input'), { target: { files: [photo] } });
    expect(await screen.findByText('dni.jpg')).toBeTruthy();
    expect(screen.getByText('234,6 kB')).toBeTruthy();
    const upload = sent(calls, FILES_PATH)[0];
    expect(upload?.body).toBeInstanceOf(FormData);
    expect(((upload?.body as FormData).get('file') as File).name).toBe('dni.jpg');

    fireEvent.click(screen.getByRole('button', { name: 'Quitar dni.jpg' }));
    expect(screen.queryByText('dni.jpg')).toBeNull();
    expect(screen.getByTestId('file-input')).toBeTruthy();
  });

  it('refuses a file that is not an image or a PDF without uploading it', async () => {
    const calls = await openSignedIn();
    const sheet = new File(['a;b'], 'datos.csv', { type: 'text/csv' });
    fireEvent.change(screen.getByTestId('file-input'), { target: { files: [sheet] } });
    expect(await screen.findByRole('alert')).toBeTruthy();
    expect(sent(calls, FILES_PATH)).toEqual([]);
  });

  it('sends exactly the values (trimmed, ISO date, the uploaded file, null when empty) and confirms; the list comes back from the server', async () => {
    const afterSend = publicForm({
      submissions: [{ _id: 's9', title: 'María García - Talleres Norte SL', company: 'Talleres Norte SL', createdAt: '2026-11-26T10:00:00.000Z', registered: false, status: 'received' }],
    });
    const calls = stubFetch({
      [`GET ${FORM_PATH}`]: [answer(200, publicForm()), answer(200, afterSend)],
      [FILES_PATH]: answer(201, uploaded),
      [SUBMIT]: answer(201, { _id: 's9' }),
    });
    renderForm();
    await screen.findByRole('heading', { name: 'Nueva alta' });
    fillValidAlta();
    type('Nombre *', '  María ');
    type('Perfil del puesto *', ADMINISTRATIVO);
    type('Provincia del centro', '28');
    type('Municipio del centro', '28079');
    fireEvent.change(screen.getByTestId('file-input'), { target: { files: [new File(['x'], 'dni.jpg', { type: 'image/jpeg' })] } });
    await screen.findByText('dni.jpg');
    fireEvent.click(screen.getByRole('button', { name: 'Enviar alta' }));

    expect(await screen.findByText('Hemos recibido el alta de María García. Tu asesoría la tramitará en la Seguridad Social.')).toBeTruthy();
    expect(sent(calls, SUBMIT).map((call) => call.body)).toEqual([{
      companyId: 'c1',
      groupKey: ADMINISTRATIVO,
      fieldsValues: {
        nombre: 'María', PrimerApellido: 'García', 'Tipo de documento': '1', NIF: '12345678Z', email: null,
        'Fecha Alta': '2026-12-01', CCC: '28987654321', Provincia: '28', Municipio: '28079', 'Foto DNI': uploaded, conforme: true,
      },
    }]);
    expect(await screen.findByText('María García - Talleres Norte SL')).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Enviar otra alta' }));
    expect(field('Nombre *').value).toBe('');
    expect(field('Perfil del puesto *').value).toBe(ADMINISTRATIVO);
  });

  it('puts a 400’s per-field messages under their fields', async () => {
    const calls = await openSignedIn({ [SUBMIT]: apiError(400, 'Datos no válidos', [{ path: 'fieldsValues.NIF', message: 'Este NIF ya tiene un alta hoy' }]) });
    fillValidAlta();
    fireEvent.click(screen.getByRole('button', { name: 'Enviar alta' }));
    await waitFor(() => expect(field('Número de documento *').getAttribute('aria-invalid')).toBe('true'));
    expect(screen.getByText('Este NIF ya tiene un alta hoy')).toBeTruthy();
    expect(sent(calls, SUBMIT)).toHaveLength(1);
  });

  it('a session that ended while filling asks to sign in again', async () => {
    await openSignedIn({ [SUBMIT]: apiError(401, 'No autorizado') });
    fillValidAlta();
    fireEvent.click(screen.getByRole('button', { name: 'Enviar alta' }));
    expect(await screen.findByText('Tu sesión ha terminado. Vuelve a entrar para enviar el alta.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Entrar' })).toBeTruthy();
  });

  it('a choice of more than 5 options is searchable, shows its error tied to it and is sent by key', async () => {
    const base = publicForm();
    const categories = ['Oficial 1ª', 'Oficial 2ª', 'Oficial 3ª', 'Peón', 'Aprendiz', 'Encargado'].map((name, index) => ({ key: `C${index + 1}`, text: name }));
    const withCategory = publicForm({
      fields: { ...base.session!.fields, categoria: { fieldType: 'dropdown', title: 'Categoría profesional', required: true, fieldWriter: 'client', validValues: categories } },
      formPages: [{ title: 'Puesto', fields: ['categoria'] }],
    });
    const calls = await openSignedIn({ [`GET ${FORM_PATH}`]: answer(200, withCategory), [SUBMIT]: answer(201, { _id: 's1' }) });
    type('Perfil del puesto *', MECANICO);
    const input = screen.getByRole('combobox', { name: 'Categoría profesional *' });
    expect(input.tagName).toBe('INPUT');
    fireEvent.click(screen.getByRole('button', { name: 'Enviar alta' }));
    await waitFor(() => expect(input.getAttribute('aria-invalid')).toBe('true'));
    const described = (input.getAttribute('aria-describedby') ?? '').split(' ').map((id) => document.getElementById(id)?.textContent);
    expect(described).toContain('Este campo es obligatorio');
    expect(document.activeElement).toBe(input);

    fireEvent.change(input, { target: { value: 'peon' } });
    await screen.findByRole('listbox');
    expect(screen.getAllByRole('option').map((option) => option.textContent)).toEqual(['Peón']);
    fireEvent.keyDown(input, { key: 'ArrowDown' });
    fireEvent.keyDown(input, { key: 'Enter' });
    await waitFor(() => expect(input.getAttribute('aria-invalid')).toBeNull());
    act(() => input.blur());
    fireEvent.click(screen.getByRole('button', { name: 'Enviar alta' }));
    await waitFor(() => expect(sent(calls, SUBMIT)).toHaveLength(1));
    expect(sent(calls, SUBMIT)[0]?.body).toEqual({ companyId: 'c1', groupKey: MECANICO, fieldsValues: { categoria: 'C4' } });
  });

  it('with several companies the company is chosen first, and its CCC list and profiles follow it', async () => {
    const base = publicForm();
    const first = base.session!.companies[0]!;
    const two = publicForm({ companies: [first, { _id: 'c2', name: 'Panadería Sur SL', ccc: [{ label: 'Obrador', key: '41111111111' }], groups: [{ key: MECANICO, text: 'Repartidor' }] }] });
    await openSignedIn({ [`GET ${FORM_PATH}`]: answer(200, two) });
    expect(field('Perfil del puesto *').disabled).toBe(true);
    type('Empresa *', 'c2');
    expect(optionsOf('Cuenta de cotización *')).toEqual(['Elige una opción', 'Obrador · 41111111111']);
    // Its one profile is chosen for it.
    await waitFor(() => expect(field('Perfil del puesto *').value).toBe(MECANICO));
  });
});
