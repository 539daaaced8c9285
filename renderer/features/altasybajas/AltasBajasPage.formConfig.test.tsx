/** /altasybajas 'Configuración del formulario': title, URL with its prefix, logo rules, field settings, 409 and saving. */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { altasRoutes, answer, configuration, failure, renderAltas, settings, setUpAltasTests, shownToasts, stubApi } from './test/renderAltas.tsx';

setUpAltasTests();

// jsdom has no object URLs; the preview only needs an address for the chosen file.
beforeEach(() => {
  Object.defineProperty(URL, 'createObjectURL', { value: vi.fn(() => 'blob:logo-preview'), configurable: true, writable: true });
  Object.defineProperty(URL, 'revokeObjectURL', { value: vi.fn(), configurable: true, writable: true });
});

async function openFormConfig() {
  fireEvent.click(screen.getByRole('button', { name: 'Configuración del formulario' }));
  const dialog = await screen.findByRole('dialog', { name: 'Configuración del formulario' });
  await within(dialog).findByLabelText(/Título del formulario/);
  return within(dialog);
}

const multipart = (calls: { key: string; init: RequestInit | undefined }[]) =>
  calls.filter((call) => call.key === 'PUT /api/users/formToFlow').map((call) => call.init?.body as FormData);

describe('AltasBajasPage form configuration', () => {
  it('shows the URL after its /form/flows/ prefix and the public link with a copy button', async () => {
    const writeText = vi.fn(async () => undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    stubApi(altasRoutes());
    renderAltas();
    const dialog = await openFormConfig();
    expect(dialog.getByText('/form/flows/')).toBeTruthy();
    expect((dialog.getByLabelText(/URL del formulario/) as HTMLInputElement).value).toBe('lopez');
    expect((dialog.getByLabelText(/Título del formulario/) as HTMLInputElement).value).toBe('Altas de trabajadores');
    const link = dialog.getByRole('link', { name: `${window.location.origin}/form/flows/lopez` });
    expect(link.getAttribute('href')).toBe(`${window.location.origin}/form/flows/lopez`);
    fireEvent.click(dialog.getByRole('button', { name: 'Copiar enlace' }));
    await waitFor(() => expect(writeText).toHaveBeenCalledWith(`${window.location.origin}/form/flows/lopez`));
    expect(shownToasts()).toContainEqual({ kind: 'success', lines: ['Enlace copiado'] });
  });

  it('gives focus back to the button that opened it when it closes', async () => {
    stubApi(altasRoutes());
    renderAltas();
    const opener = screen.getByRole('button', { name: 'Configuración del formulario' });
    opener.focus();
    const dialog = await openFormConfig();
    fireEvent.click(dialog.getByRole('button', { name: 'Cancelar' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await waitFor(() => expect(document.activeElement).toBe(opener));
  });

  it('requires title and URL, and says when the URL is taken', async () => {
    const calls = stubApi(altasRoutes({}, { 'PUT /api/users/formToFlow': failure(409, 'La URL introducida ya existe.') }));
    renderAltas();
    const dialog = await openFormConfig();
    fireEvent.change(dialog.getByLabelText(/Título del formulario/), { target: { value: ' ' } });
    fireEvent.change(dialog.getByLabelText(/URL del formulario/), { target: { value: '' } });
    fireEvent.click(dialog.getByRole('button', { name: 'Guardar' }));
    expect(dialog.getAllByText('Este campo es obligatorio')).toHaveLength(2);
    expect(multipart(calls)).toHaveLength(0);

    fireEvent.change(dialog.getByLabelText(/Título del formulario/), { target: { value: 'Altas López' } });
    // Pasting the whole address keeps only the part after the prefix.
    fireEvent.change(dialog.getByLabelText(/URL del formulario/), { target: { value: '/form/flows/asesoria-lopez' } });
    expect((dialog.getByLabelText(/URL del formulario/) as HTMLInputElement).value).toBe('asesoria-lopez');
    fireEvent.click(dialog.getByRole('button', { name: 'Guardar' }));
    expect(await dialog.findByText('La URL introducida ya existe.')).toBeTruthy();
    expect(shownToasts()).toContainEqual({ kind: 'error', lines: ['La URL introducida ya existe.'] });
    await waitFor(() => expect(document.activeElement).toBe(dialog.getByLabelText(/URL del formulario/)));
    const [sent] = multipart(calls);
    expect(sent?.get('title')).toBe('Altas López');
    expect(sent?.get('url')).toBe('asesoria-lopez');
  });

  it('takes only images up to 1 MB as the logo, previews it and uploads it', async () => {
    const calls = stubApi(altasRoutes({}, { 'PUT /api/users/formToFlow': answer({ ...settings, logo: '/api/users/formToFlow/logo/l1' }) }));
    renderAltas();
    const dialog = await openFormConfig();
    const input = dialog.getByLabelText('Logo') as HTMLInputElement;
    fireEvent.change(input, { target: { files: [new File(['%PDF'], 'logo.pdf', { type: 'application/pdf' })] } });
    expect(dialog.getByText('El logo debe ser una imagen PNG, JPG, WEBP o GIF.')).toBeTruthy();
    fireEvent.change(input, { target: { files: [new File([new Uint8Array(1_000_001)], 'grande.png', { type: 'image/png' })] } });
    expect(dialog.getByText('El logo no puede superar 1 MB.')).toBeTruthy();
    const logo = new File([new Uint8Array(2000)], 'logo.png', { type: 'image/png' });
    fireEvent.change(input, { target: { files: [logo] } });
    expect(dialog.queryByText('El logo no puede superar 1 MB.')).toBeNull();
    expect(dialog.getByRole('img', { name: 'Vista previa del logo' }).getAttribute('src')).toBe('blob:logo-preview');
    fireEvent.click(dialog.getByRole('button', { name: 'Guardar' }));
    await waitFor(() => expect(shownToasts()).toContainEqual({ kind: 'success', lines: ['Configuración del formulario guardada correctamente.'] }));
    expect((multipart(calls)[0]?.get('logo') as File).name).toBe('logo.png');
    await waitFor(() => expect(document.activeElement).toBe(dialog.getByRole('button', { name: 'Copiar enlace' })));
    expect(dialog.getByRole('img', { name: 'Vista previa del logo' }).getAttribute('src')).toBe('/api/users/formToFlow/logo/l1');
    fireEvent.click(dialog.getByRole('button', { name: 'Quitar logo' }));
    expect(dialog.queryByRole('img', { name: 'Vista previa del logo' })).toBeNull();
    fireEvent.click(dialog.getByRole('button', { name: 'Guardar' }));
    await waitFor(() => expect(multipart(calls)).toHaveLength(2));
    expect(multipart(calls)[1]?.get('removeLogo')).toBe('true');
  });

  it('changes who fills a field and whether it is required; locked fields cannot change and say why', async () => {
    const calls = stubApi(altasRoutes({}, {
      'PUT /api/users/formToFlow': answer(settings),
      'PATCH /api/form-to-flow-configuration/alta-trabajador': answer(configuration),
    }));
    renderAltas();
    const dialog = await openFormConfig();
    const locked = dialog.getByRole('switch', { name: 'Obligatorio: Fecha de alta' }) as HTMLButtonElement;
    expect(locked.disabled).toBe(true);
    expect((dialog.getByRole('combobox', { name: 'Lo rellena: Fecha de alta' }) as HTMLSelectElement).disabled).toBe(true);
    expect(dialog.getAllByText(/Lo necesita el registro en el Sistema RED/).length).toBe(3);
    fireEvent.click(dialog.getByRole('switch', { name: 'Obligatorio: Nombre' }));
    fireEvent.change(dialog.getByRole('combobox', { name: 'Lo rellena: Jornada' }), { target: { value: 'client' } });
    fireEvent.click(dialog.getByRole('button', { name: 'Guardar' }));
    await waitFor(() => expect(shownToasts()).toContainEqual({ kind: 'success', lines: ['Configuración del formulario guardada correctamente.'] }));
    const patch = calls.find((call) => call.key === 'PATCH /api/form-to-flow-configuration/alta-trabajador');
    expect(patch?.body).toEqual({
      name: 'Altas', formPages: configuration.formPages, fields: { nombre: { required: false }, Jornada: { fieldWriter: 'client' } },
    });
  });
});
