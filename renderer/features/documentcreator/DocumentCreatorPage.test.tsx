/** /documentcreator: the templates and their editor, generating, the documents list and sharing, on a stubbed API. */
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { Category, GeneratedDocument, Template, TemplateSummary } from '#shared/api/documents.ts';
import type { ObjectShares } from '#shared/api/share.ts';
import { STYLE_PRESETS } from '#shared/documents/blocks.ts';
import { preloadModal } from '../../ui/Modal.tsx';
import { jsonResponse, renderWithApp, signedInState } from '../../test/renderApp.tsx';
import { answer, stubApi, type StubbedHandler as Handler } from '../../test/stubApi.ts';
import DocumentCreatorPage from './DocumentCreatorPage.tsx';

// Each test renders the whole screen: on a loaded 2-core machine it takes seconds, and answers take a moment.
vi.setConfig({ testTimeout: 15_000 });
const slow = { timeout: 4000 };
beforeAll(() => preloadModal(), 30_000);
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const categories: Category[] = [{ id: 'c1', name: 'Laboral', templates: 1 }];
const red: Template = {
  id: 't1', name: 'Autorización RED', description: 'Mandato para el Sistema RED', categoryId: 'c1', placeholders: ['Empresa', 'NIF trabajador'],
  takesSignature: true, access: 'owner', ownerName: 'Ana', updatedAt: '2026-11-30T10:00:00.000Z',
  content: {
    styles: STYLE_PRESETS[0]!.styles,
    blocks: [
      { type: 'heading', level: 1, text: 'Autorización RED' },
      { type: 'paragraph', text: '[[Empresa]] autoriza con NIF [[NIF trabajador]].' },
      { type: 'signature', label: 'Firma' },
    ],
  },
};
const summary = ({ content: _content, ...rest }: Template): TemplateSummary => rest;
const sharedView: Template = { ...red, id: 't2', name: 'Consentimiento RGPD', access: 'view', ownerName: 'Luis', categoryId: null };

function baseRoutes(extra: Record<string, Handler> = {}): Record<string, Handler> {
  return {
    'GET /api/documentcreator/categories': answer({ items: categories }),
    'GET /api/documentcreator/templates': answer({ items: [summary(red), summary(sharedView)] }),
    'GET /api/documentcreator/templates/t1': answer(red),
    'GET /api/documentcreator/templates/t2': answer(sharedView),
    'GET /api/documentcreator/styles': answer({ items: STYLE_PRESETS }),
    'GET /api/documentcreator/starters': answer({ items: [{ key: 'red', name: 'Autorización RED', description: 'Mandato RED', placeholders: ['Empresa'] }] }),
    'GET /api/documentcreator/documents': answer({ items: [], total: 0, page: 1, pageSize: 50 }),
    ...extra,
  };
}

const renderPage = (path = '/documentcreator') => renderWithApp(<DocumentCreatorPage />, { path, toasts: true, preloadedState: signedInState() });
const preview = () => screen.getByRole('article', { name: 'Vista previa del documento' });

describe('DocumentCreatorPage templates', () => {
  it('lists categories with counts and templates with owner and access, and filters by category in the address', async () => {
    const calls = stubApi(baseRoutes());
    renderPage();
    expect(screen.getByRole('tab', { name: 'Plantillas', selected: true })).toBeTruthy();
    expect(await screen.findByRole('button', { name: 'Autorización RED' }, slow)).toBeTruthy();
    const shared = screen.getByRole('button', { name: 'Consentimiento RGPD' }).closest('li')!;
    expect(within(shared).getByText('Solo lectura')).toBeTruthy();
    expect(within(shared).getByText('De Luis')).toBeTruthy();
    expect(within(shared).getByRole('button', { name: 'Duplicar' })).toBeTruthy();
    expect(within(shared).queryByRole('button', { name: 'Compartir' })).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: /^Laboral/ }));
    await waitFor(() => expect(calls.some((call) => call.key === 'GET /api/documentcreator/templates' && call.url.searchParams.get('categoryId') === 'c1')).toBe(true));
  });

  it('offers the starters when there is no template, and opens the copy it makes', async () => {
    const calls = stubApi(baseRoutes({
      'GET /api/documentcreator/templates': answer({ items: [] }),
      'POST /api/documentcreator/starters/red': answer(red, 201),
    }));
    renderPage();
    expect(await screen.findByRole('heading', { name: 'Aún no tienes plantillas' }, slow)).toBeTruthy();
    fireEvent.click(screen.getAllByRole('button', { name: 'Empezar con una plantilla de ejemplo' })[0]!);
    fireEvent.click(await screen.findByRole('button', { name: 'Usar la plantilla de ejemplo Autorización RED' }, slow));
    expect(await screen.findByRole('heading', { level: 2, name: 'Plantilla: Autorización RED' }, slow)).toBeTruthy();
    expect(calls.filter((call) => call.key === 'POST /api/documentcreator/starters/red')).toHaveLength(1);
  });

  it('builds a new template: a block, a field inserted at the cursor, the live preview, and the server errors under the block', async () => {
    let answerWith: Handler = answer({ statusCode: 400, code: 'VALIDATION', message: 'Revisa los datos enviados', issues: [{ path: 'content.blocks.0.text', message: 'Como mucho 20.000 caracteres' }] }, 400);
    const calls = stubApi(baseRoutes({ 'POST /api/documentcreator/templates': (call) => answerWith(call) }));
    renderPage('/documentcreator?template=nueva');
    expect(await screen.findByRole('heading', { level: 2, name: 'Nueva plantilla' }, slow)).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Nombre *'), { target: { value: 'Contrato' } });
    fireEvent.change(screen.getByRole('combobox', { name: 'Añadir' }), { target: { value: 'paragraph' } });
    fireEvent.click(screen.getByRole('button', { name: 'Añadir bloque: Párrafo' }));
    const text = screen.getByRole('textbox', { name: 'Texto' }) as HTMLTextAreaElement;
    fireEvent.change(text, { target: { value: 'Hola , bienvenido' } });
    fireEvent.focus(text);
    text.setSelectionRange(5, 5);
    fireEvent.change(screen.getByPlaceholderText('p. ej. Nombre trabajador'), { target: { value: 'Nombre' } });
    fireEvent.click(screen.getByRole('button', { name: 'Campo' }));
    expect(text.value).toBe('Hola [[Nombre]], bienvenido');
    expect(within(preview()).getByText('Nombre').tagName).toBe('MARK');
    expect(screen.getByRole('button', { name: 'Insertar [[Nombre]]' })).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Guardar' }));
    expect(await screen.findByText('Como mucho 20.000 caracteres', undefined, slow)).toBeTruthy();
    const sent = calls.find((call) => call.key === 'POST /api/documentcreator/templates')?.body;
    expect(sent).toMatchObject({ name: 'Contrato', categoryId: null, content: { blocks: [{ type: 'paragraph', text: 'Hola [[Nombre]], bienvenido' }] } });

    answerWith = answer({ ...red, id: 't9', name: 'Contrato' }, 201);
    fireEvent.click(screen.getByRole('button', { name: 'Guardar' }));
    await waitFor(() => expect(calls.filter((call) => call.key === 'POST /api/documentcreator/templates')).toHaveLength(2));
    expect(await screen.findByText('Plantilla creada', undefined, slow)).toBeTruthy();
  });

  it('moves and deletes blocks with buttons, and asks before leaving unsaved changes', async () => {
    stubApi(baseRoutes());
    renderPage('/documentcreator?template=t1');
    expect(await screen.findByRole('heading', { level: 2, name: 'Plantilla: Autorización RED' }, slow)).toBeTruthy();
    const blockTitles = () => [...document.querySelectorAll('.dc-block__title')].map((node) => node.textContent);
    expect(blockTitles()).toEqual(['1. Título', '2. Párrafo', '3. Firma']);
    fireEvent.click(screen.getByRole('button', { name: 'Subir el bloque 3' }));
    expect(blockTitles()).toEqual(['1. Título', '2. Firma', '3. Párrafo']);
    await waitFor(() => expect(document.activeElement?.getAttribute('aria-label')).toBe('Subir el bloque 2'));
    fireEvent.click(screen.getByRole('button', { name: 'Eliminar el bloque 1' }));
    expect(blockTitles()).toEqual(['1. Firma', '2. Párrafo']);

    // Another tab asks first too; staying keeps the changes.
    fireEvent.click(screen.getByRole('tab', { name: 'Documentos' }));
    fireEvent.click(within(await screen.findByRole('dialog', { name: 'Cambios sin guardar' }, slow)).getByRole('button', { name: 'Cancelar' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(screen.getByRole('tab', { name: 'Plantillas', selected: true })).toBeTruthy();
    expect(blockTitles()).toEqual(['1. Firma', '2. Párrafo']);

    fireEvent.click(screen.getByRole('button', { name: 'Volver a las plantillas' }));
    const dialog = await screen.findByRole('dialog', { name: 'Cambios sin guardar' }, slow);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Salir sin guardar' }));
    expect(await screen.findByRole('button', { name: 'Nueva plantilla' }, slow)).toBeTruthy();
  });

  it('opens a template shared for reading as read-only, and duplicates it', async () => {
    const calls = stubApi(baseRoutes({ 'POST /api/share/clone/template/t2': answer({ kind: 'template', id: 't1' }, 201) }));
    renderPage('/documentcreator?template=t2');
    expect(await screen.findByRole('heading', { level: 2, name: 'Plantilla: Consentimiento RGPD (solo lectura)' }, slow)).toBeTruthy();
    expect((screen.getByLabelText('Nombre *') as HTMLInputElement).readOnly).toBe(true);
    expect(screen.queryByRole('button', { name: 'Guardar' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Subir el bloque 2' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Duplicar' }));
    await waitFor(() => expect(calls.map((call) => call.key)).toContain('POST /api/share/clone/template/t2'));
    expect(await screen.findByRole('heading', { level: 2, name: 'Plantilla: Autorización RED' }, slow)).toBeTruthy();
    expect(calls.some((call) => call.key === 'POST /api/share/clone/template/t2')).toBe(true);
  });
});

describe('DocumentCreatorPage generating and documents', () => {
  it('checks each field as it is typed, sends the values and shows the Documentos tab', async () => {
    const generated: GeneratedDocument = {
      id: 'd1', name: 'Autorización RED', company: 'Levante S.L.', templateId: 't1', templateName: 'Autorización RED', submissionId: null,
      status: 'generating', error: null, pdfSize: null, docxSize: null, createdAt: '2026-12-02T08:30:00.000Z',
    };
    const calls = stubApi(baseRoutes({ 'POST /api/documentcreator/documents': answer(generated, 201) }));
    renderPage();
    const card = (await screen.findByRole('button', { name: 'Autorización RED' }, slow)).closest('li')!;
    fireEvent.click(within(card).getByRole('button', { name: 'Generar documento' }));
    const dialog = await screen.findByRole('dialog', { name: 'Generar documento: Autorización RED' }, slow);
    const inside = within(dialog);
    fireEvent.change(inside.getByLabelText('NIF trabajador'), { target: { value: '12345678A' } });
    expect(inside.getByText('La letra del NIF no es correcta')).toBeTruthy();
    fireEvent.change(inside.getByLabelText('NIF trabajador'), { target: { value: '12345678z' } });
    expect(inside.queryByText('La letra del NIF no es correcta')).toBeNull();
    fireEvent.change(inside.getByLabelText('Empresa'), { target: { value: 'Levante S.L.' } });
    fireEvent.change(inside.getByLabelText('Empresa cliente'), { target: { value: 'Levante S.L.' } });
    fireEvent.click(inside.getByRole('button', { name: 'Generar' }));
    await waitFor(() => expect(screen.getByRole('tab', { name: 'Documentos', selected: true })).toBeTruthy());
    expect(calls.find((call) => call.key === 'POST /api/documentcreator/documents')?.body).toEqual({
      templateId: 't1', name: '', company: 'Levante S.L.', values: { Empresa: 'Levante S.L.', 'NIF trabajador': '12345678Z' },
    });
  });

  it('lists documents with their status and downloads, and deletes one after confirming', async () => {
    const ready: GeneratedDocument = {
      id: 'd1', name: 'Alta Lucía', company: 'Levante S.L.', templateId: 't1', templateName: 'Autorización RED', submissionId: null,
      status: 'ready', error: null, pdfSize: 20_480, docxSize: 10_240, createdAt: '2026-12-02T08:30:00.000Z',
    };
    const making: GeneratedDocument = { ...ready, id: 'd2', name: 'Alta Pablo', status: 'generating', pdfSize: null, docxSize: null };
    const calls = stubApi(baseRoutes({
      'GET /api/documentcreator/documents': answer({ items: [making, ready], total: 2, page: 1, pageSize: 50 }),
      'DELETE /api/documentcreator/documents/d1': () => new Response(null, { status: 204 }),
    }));
    renderPage('/documentcreator?tab=documentos');
    const row = (await screen.findByRole('rowheader', { name: 'Alta Lucía' }, slow)).closest('tr')!;
    expect(within(row).getByText('Listo')).toBeTruthy();
    expect(within(row).getByText('02/12/2026 09:30')).toBeTruthy();
    expect(within(row).getByRole('link', { name: 'Descargar Alta Lucía en PDF' }).getAttribute('href')).toBe('/api/documentcreator/documents/d1/pdf');
    expect(within(row).getByRole('link', { name: 'Descargar Alta Lucía en Word' }).getAttribute('href')).toBe('/api/documentcreator/documents/d1/docx');
    const pending = screen.getByRole('rowheader', { name: 'Alta Pablo' }).closest('tr')!;
    expect(within(pending).getByText(/Generando…/)).toBeTruthy();
    expect(within(pending).queryByRole('link')).toBeNull();

    fireEvent.click(within(row).getByRole('button', { name: 'Eliminar Alta Lucía' }));
    fireEvent.click(within(await screen.findByRole('dialog', { name: 'Eliminar documento' }, slow)).getByRole('button', { name: 'Eliminar' }));
    await waitFor(() => expect(calls.some((call) => call.key === 'DELETE /api/documentcreator/documents/d1')).toBe(true));
  });

  it('says what to do next when no document was generated yet', async () => {
    stubApi(baseRoutes());
    renderPage('/documentcreator?tab=documentos');
    expect(await screen.findByRole('heading', { name: 'Aún no has generado documentos' }, slow)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Ir a las plantillas' }));
    expect(await screen.findByRole('tab', { name: 'Plantillas', selected: true }, slow)).toBeTruthy();
  });
});

describe('ShareDialog', () => {
  it('adds a colleague, changes access and saves the grants', async () => {
    const shares: ObjectShares = {
      kind: 'template', id: 't1',
      grants: [{ userId: 'u2', name: 'Luis', email: 'luis@asesoria.es', access: 'view' }],
      colleagues: [{ userId: 'u2', name: 'Luis', email: 'luis@asesoria.es' }, { userId: 'u3', name: 'Marta', email: 'marta@asesoria.es' }],
    };
    const calls = stubApi(baseRoutes({
      'GET /api/share/object/template/t1': answer(shares),
      'PUT /api/share/object/template/t1': () => jsonResponse(200, shares),
    }));
    renderPage();
    const card = (await screen.findByRole('button', { name: 'Autorización RED' }, slow)).closest('li')!;
    fireEvent.click(within(card).getByRole('button', { name: 'Compartir' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Compartir «Autorización RED»' }, slow));
    expect(await dialog.findByText('Luis', undefined, slow)).toBeTruthy();
    fireEvent.change(dialog.getByRole('combobox', { name: 'Permiso de Luis' }), { target: { value: 'edit' } });
    fireEvent.change(dialog.getByRole('combobox', { name: 'Permiso' }), { target: { value: 'view' } });
    fireEvent.click(dialog.getByRole('button', { name: 'Añadir' }));
    expect(dialog.getByText('Marta')).toBeTruthy();
    fireEvent.click(dialog.getByRole('button', { name: 'Guardar' }));
    await waitFor(() => expect(calls.some((call) => call.key === 'PUT /api/share/object/template/t1')).toBe(true));
    expect(calls.find((call) => call.key === 'PUT /api/share/object/template/t1')?.body).toEqual({
      grants: [{ userId: 'u2', access: 'edit' }, { userId: 'u3', access: 'view' }],
    });
  });
});
