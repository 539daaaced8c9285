/** The 'Formularios' tab on a stubbed fetch: the list, a new form from a template, the editor's save and publish, the submissions and their export. */
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Route, Routes, useLocation } from 'react-router-dom';
import type { TemplateSummary } from '#shared/api/documents.ts';
import type { FormSubmission, OnlineForm, OnlineFormSummary } from '#shared/api/onlineforms.ts';
import { jsonResponse, renderWithApp, signedInState } from '../../../test/renderApp.tsx';
import { preloadModal } from '../../../ui/Modal.tsx';
import FormsTab from './FormsTab.tsx';

interface Call { key: string; url: URL; body: unknown }
type Handler = (call: Call) => Response;

function stubApi(routes: Record<string, Handler>) {
  const calls: Call[] = [];
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost');
    const key = `${init?.method ?? 'GET'} ${decodeURIComponent(url.pathname)}`;
    const call = { key, url, body: typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined };
    calls.push(call);
    const handler = routes[key];
    return handler ? handler(call) : jsonResponse(404, { statusCode: 404, code: 'NOT_FOUND', message: 'No encontrado' });
  });
  return calls;
}
const ok = (body: unknown, status = 200): Handler => () => jsonResponse(status, body);

const summary: OnlineFormSummary = {
  id: 'f1', title: 'Datos de alta', templateId: 't1', templateName: 'Solicitud de datos de alta', status: 'published', publicPath: '/online-form/pub123',
  submissions: 2, lastSubmissionAt: '2026-12-01T09:30:00.000Z', access: 'owner', ownerName: 'Ana', updatedAt: '2026-11-30T09:00:00.000Z',
};
const form = (overrides: Partial<OnlineForm> = {}): OnlineForm => ({
  ...summary, status: 'draft', submissions: 0, lastSubmissionAt: null, description: '', requireSignature: true,
  fields: [
    { key: 'Nombre', label: 'Nombre', type: 'text', required: true },
    { key: 'NIF', label: 'NIF', type: 'nif', required: true },
  ],
  ...overrides,
});
const template: TemplateSummary = {
  id: 't1', name: 'Solicitud de datos de alta', description: '', categoryId: null, placeholders: ['Nombre', 'NIF', 'Fecha de alta'], takesSignature: true,
  access: 'owner', ownerName: 'Ana', updatedAt: '2026-11-30T09:00:00.000Z',
};
const submission = (overrides: Partial<FormSubmission> = {}): FormSubmission => ({
  id: 's1', formId: 'f1', values: { Nombre: 'María García', NIF: '12345678Z' }, signerName: 'María García', hasSignature: true,
  documentId: 'd1', documentStatus: 'ready', createdAt: '2026-12-01T09:30:00.000Z', ...overrides,
});
const page = (items: FormSubmission[]) => ({ items, total: items.length, page: 1, pageSize: 50 });

function Where() {
  const location = useLocation();
  return <output data-testid="where">{location.search}</output>;
}

function renderTab(path = '/documentcreator?tab=formularios') {
  return renderWithApp(
    <Routes>
      <Route path="/documentcreator" element={<><FormsTab /><Where /></>} />
    </Routes>,
    { path, preloadedState: signedInState(), toasts: true },
  );
}

beforeAll(() => preloadModal(), 30_000);
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

// The first render loads the modal and RTK Query; a loaded 2-core machine needs more than the default 5 s.
describe('FormsTab', { timeout: 30_000 }, () => {
  it('lists the forms with their status, answers and owner, and opens one into the address', async () => {
    stubApi({
      'GET /api/documentcreator/forms': ok({ items: [summary, { ...summary, id: 'f2', title: 'RGPD', status: 'draft', submissions: 0, lastSubmissionAt: null, access: 'view', ownerName: 'Luis' }] }),
      'GET /api/documentcreator/forms/f1': ok(form({ status: 'published' })),
      'GET /api/documentcreator/forms/f1/submissions': ok(page([])),
      'GET /api/documentcreator/templates': ok({ items: [template] }),
    });
    renderTab();
    const table = await screen.findByRole('table', { name: 'Formularios online' });
    const rows = within(table).getAllByRole('row');
    expect(within(rows[1] as HTMLElement).getByText('Publicado')).toBeTruthy();
    expect(within(rows[1] as HTMLElement).getByText('Tuyo')).toBeTruthy();
    expect(within(rows[2] as HTMLElement).getByText('Borrador')).toBeTruthy();
    expect(within(rows[2] as HTMLElement).getByText(/Compartido \(lectura\)/)).toBeTruthy();
    expect(within(rows[2] as HTMLElement).getByText('Sin respuestas')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Abrir el formulario «Datos de alta»' }));
    await waitFor(() => expect(screen.getByTestId('where').textContent).toBe('?tab=formularios&form=f1'));
    expect(await screen.findByRole('heading', { name: 'Datos de alta' })).toBeTruthy();
  });

  it('says so when there are no forms yet, and when the list fails', async () => {
    stubApi({ 'GET /api/documentcreator/forms': ok({ items: [] }) });
    const view = renderTab();
    expect(await screen.findByRole('heading', { name: 'Todavía no tienes formularios' })).toBeTruthy();
    view.unmount();
    stubApi({ 'GET /api/documentcreator/forms': ok({ statusCode: 500, code: 'ERROR', message: 'Error' }, 500) });
    renderTab();
    expect(await screen.findByText(/No se han podido cargar los formularios/)).toBeTruthy();
  });

  it("makes a new form from a template's placeholders and opens it", async () => {
    const calls = stubApi({
      'GET /api/documentcreator/forms': ok({ items: [] }),
      'GET /api/documentcreator/templates': ok({ items: [template, { ...template, id: 't2', name: 'Sin campos', placeholders: [] }] }),
      'POST /api/documentcreator/forms': ok(form({ id: 'f9' }), 201),
      'GET /api/documentcreator/forms/f9': ok(form({ id: 'f9' })),
      'GET /api/documentcreator/forms/f9/submissions': ok(page([])),
    });
    renderTab();
    fireEvent.click((await screen.findAllByRole('button', { name: 'Nuevo formulario' }))[0] as HTMLElement);
    const dialog = await screen.findByRole('dialog');
    const select = await within(dialog).findByLabelText('Plantilla');
    fireEvent.change(select, { target: { value: 't2' } });
    expect(within(dialog).getByText(/no tiene campos/)).toBeTruthy();
    expect((within(dialog).getByRole('button', { name: 'Crear formulario' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.change(select, { target: { value: 't1' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Crear formulario' }));
    await waitFor(() => expect(screen.getByTestId('where').textContent).toBe('?tab=formularios&form=f9'));
    const sent = calls.find((call) => call.key === 'POST /api/documentcreator/forms');
    expect(sent?.body).toEqual({
      templateId: 't1', title: 'Solicitud de datos de alta', description: '', requireSignature: true,
      fields: [
        { key: 'Nombre', label: 'Nombre', type: 'text', required: true },
        { key: 'NIF', label: 'NIF', type: 'nif', required: true },
        { key: 'Fecha de alta', label: 'Fecha de alta', type: 'date', required: true },
      ],
    });
  });

  it('edits the fields (question, type, options, order), saves the draft and publishes', async () => {
    let saved = form();
    const calls = stubApi({
      'GET /api/documentcreator/forms/f1': () => jsonResponse(200, saved),
      'PUT /api/documentcreator/forms/f1': (call) => {
        saved = { ...saved, ...(call.body as Partial<OnlineForm>) };
        return jsonResponse(200, saved);
      },
      'POST /api/documentcreator/forms/f1/publish': () => {
        saved = { ...saved, status: 'published' };
        return jsonResponse(200, saved);
      },
      'GET /api/documentcreator/forms/f1/submissions': ok(page([])),
      'GET /api/documentcreator/templates': ok({ items: [template] }),
    });
    renderTab('/documentcreator?tab=formularios&form=f1');
    await screen.findByRole('heading', { name: 'Datos de alta' });
    expect((screen.getByRole('button', { name: 'Guardar borrador' }) as HTMLButtonElement).disabled).toBe(true);
    const questions = screen.getAllByLabelText('Pregunta');
    fireEvent.change(questions[0] as HTMLElement, { target: { value: '' } });
    fireEvent.change(screen.getAllByLabelText('Tipo')[1] as HTMLElement, { target: { value: 'select' } });
    fireEvent.click(screen.getByRole('button', { name: 'Guardar borrador' }));
    expect(await screen.findByText('Escribe la pregunta del campo')).toBeTruthy();
    expect(screen.getByText('Escribe al menos una opción')).toBeTruthy();
    expect(calls.filter((call) => call.key === 'PUT /api/documentcreator/forms/f1')).toHaveLength(0);

    fireEvent.change(screen.getAllByLabelText('Pregunta')[0] as HTMLElement, { target: { value: 'Nombre completo' } });
    fireEvent.change(screen.getByLabelText('Opciones (una por línea)'), { target: { value: 'DNI\nNIE' } });
    fireEvent.click(screen.getByRole('button', { name: 'Bajar «Nombre completo»' }));
    fireEvent.click(screen.getByRole('button', { name: 'Añadir [[Fecha de alta]]' }));
    fireEvent.click(screen.getByRole('switch', { name: 'Pedir firma' }));
    fireEvent.click(screen.getByRole('button', { name: 'Publicar' }));
    await screen.findByText('Formulario publicado: ya admite respuestas');
    const put = calls.find((call) => call.key === 'PUT /api/documentcreator/forms/f1');
    expect(put?.body).toEqual({
      templateId: 't1', title: 'Datos de alta', description: '', requireSignature: false,
      fields: [
        { key: 'NIF', label: 'NIF', type: 'select', required: true, options: ['DNI', 'NIE'] },
        { key: 'Nombre', label: 'Nombre completo', type: 'text', required: true },
        { key: 'Fecha de alta', label: 'Fecha de alta', type: 'date', required: true },
      ],
    });
    // Saved before publishing, so the published form is what the editor shows.
    const keys = calls.map((call) => call.key);
    expect(keys.indexOf('PUT /api/documentcreator/forms/f1')).toBeLessThan(keys.indexOf('POST /api/documentcreator/forms/f1/publish'));
    expect(await screen.findByRole('button', { name: 'Publicar cambios' })).toBeTruthy();
  });

  it('shows a shared read-only form without the editing actions', async () => {
    stubApi({
      'GET /api/documentcreator/forms/f1': ok(form({ access: 'view', ownerName: 'Luis', status: 'published' })),
      'GET /api/documentcreator/forms/f1/submissions': ok(page([submission()])),
      'GET /api/documentcreator/templates': ok({ items: [] }),
    });
    renderTab('/documentcreator?tab=formularios&form=f1');
    await screen.findByText('Este formulario está compartido contigo solo para leer.');
    expect(screen.queryByRole('button', { name: 'Publicar cambios' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Compartir' })).toBeNull();
    // A published form opens on its answers; the editor is the other section.
    await screen.findByRole('table', { name: 'Respuestas del formulario' });
    expect(screen.queryByRole('button', { name: /^Eliminar la respuesta/ })).toBeNull();
    fireEvent.click(screen.getByRole('radio', { name: 'Editar formulario' }));
    expect((screen.getAllByLabelText('Pregunta')[0] as HTMLInputElement).closest('fieldset')?.disabled).toBe(true);
  });

  it('lists the submissions with their document, filters them and exports the same filters', async () => {
    const calls = stubApi({
      'GET /api/documentcreator/forms/f1': ok(form({ status: 'published' })),
      'GET /api/documentcreator/forms/f1/submissions': ok(page([
        submission(),
        submission({ id: 's2', values: { Nombre: 'Luis Pérez', NIF: '00000000T' }, signerName: null, hasSignature: false, documentId: null, documentStatus: 'generating' }),
      ])),
      'GET /api/documentcreator/templates': ok({ items: [template] }),
      'DELETE /api/documentcreator/submissions/s1': () => new Response(null, { status: 204 }),
    });
    renderTab('/documentcreator?tab=formularios&form=f1');
    const table = await screen.findByRole('table', { name: 'Respuestas del formulario' });
    expect(within(table).getAllByText('María García')).toHaveLength(2);
    expect(within(table).getByText('Generando…')).toBeTruthy();
    const pdf = within(table).getByRole('link', { name: /Descargar el PDF/ });
    expect(pdf.getAttribute('href')).toBe('/api/documentcreator/documents/d1/pdf');
    expect(within(table).getAllByRole('button', { name: /Ver la firma/ })).toHaveLength(1);

    fireEvent.change(screen.getByLabelText('Desde'), { target: { value: '2026-11-01' } });
    fireEvent.change(screen.getByLabelText('Hasta'), { target: { value: '2026-11-30' } });
    await waitFor(() => expect(calls.at(-1)?.url.search).toBe('?from=2026-11-01&to=2026-11-30'));
    expect(screen.getByRole('link', { name: 'Exportar a Excel' }).getAttribute('href')).toBe('/api/documentcreator/forms/f1/submissions.xlsx?from=2026-11-01&to=2026-11-30');

    fireEvent.click(within(table).getByRole('button', { name: /Ver la firma/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Firma' });
    expect(within(dialog).getByRole('img', { name: 'Firma dibujada de María García' }).getAttribute('src')).toBe('/api/documentcreator/submissions/s1/signature');
    fireEvent.click(within(dialog).getAllByRole('button', { name: 'Cerrar' }).at(-1) as HTMLElement);

    fireEvent.click(within(screen.getByRole('table', { name: 'Respuestas del formulario' })).getAllByRole('button', { name: /Eliminar la respuesta/ })[0] as HTMLElement);
    const confirm = await screen.findByRole('dialog', { name: 'Eliminar la respuesta' });
    fireEvent.click(within(confirm).getByRole('button', { name: 'Eliminar' }));
    await waitFor(() => expect(calls.some((call) => call.key === 'DELETE /api/documentcreator/submissions/s1')).toBe(true));
  });

  it('mails the link to the recipients typed, checking them first', async () => {
    const calls = stubApi({
      'GET /api/documentcreator/forms/f1': ok(form({ status: 'published' })),
      'GET /api/documentcreator/forms/f1/submissions': ok(page([])),
      'GET /api/documentcreator/templates': ok({ items: [template] }),
      'POST /api/documentcreator/forms/f1/send': ok({ sent: 2 }),
    });
    renderTab('/documentcreator?tab=formularios&form=f1');
    expect((await screen.findByLabelText('Enlace público') as HTMLInputElement).value).toBe('http://localhost:3000/online-form/pub123'.replace('http://localhost:3000', window.location.origin));
    fireEvent.click(screen.getByRole('button', { name: 'Enviar por correo' }));
    const dialog = await screen.findByRole('dialog', { name: 'Enviar el enlace por correo' });
    fireEvent.change(within(dialog).getByLabelText('Correos de los destinatarios'), { target: { value: 'ana@talleres.es, luis@' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Enviar' }));
    expect(await within(dialog).findByText('Revisa estas direcciones: luis@')).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText('Correos de los destinatarios'), { target: { value: 'ana@talleres.es\nluis@talleres.es' } });
    fireEvent.change(within(dialog).getByLabelText('Mensaje (opcional)'), { target: { value: 'Hola, rellena el formulario.' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Enviar' }));
    expect(await screen.findByText('Enlace enviado a 2 destinatarios')).toBeTruthy();
    expect(calls.find((call) => call.key === 'POST /api/documentcreator/forms/f1/send')?.body).toEqual({ emails: ['ana@talleres.es', 'luis@talleres.es'], message: 'Hola, rellena el formulario.' });
  });
});
