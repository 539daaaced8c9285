import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Route, Routes, useLocation } from 'react-router-dom';
import type { FlowSummary } from '#shared/api/flows.ts';
import type { FlowDefinition } from '#shared/flows/definition.ts';
import { preloadModal } from '../../ui/Modal.tsx';
import { jsonResponse, mockApi, renderWithApp, signedInState, testUser } from '../../test/renderApp.tsx';
import RobotekaPage from './RobotekaPage.tsx';

// The dialog and react-markdown load lazily; fetch them once up front so no test races a cold import.
beforeAll(() => Promise.all([preloadModal(), import('../../ui/Markdown.tsx')]), 30_000);
afterEach(() => vi.unstubAllGlobals());

const robot = (overrides: Partial<FlowSummary>): FlowSummary => ({
  id: 'validar-identificadores',
  name: 'Validar identificadores',
  description: 'Comprueba los NIF/NIE, NAF, IBAN y CCC de un listado de trabajadores.',
  group: 'Laboral',
  usageRatio: 1,
  usageMeasureUnit: 'bloque de 100 filas|bloques de 100 filas',
  runsOn: 'server',
  hasTemplate: true,
  hasInstructions: true,
  ...overrides,
});

const catalogue = [
  robot({ limits: 'Excel, ODS o CSV.' }),
  robot({ id: 'fie-a3', name: 'FIE a incidencias A3', description: 'Convierte los ficheros FIE de SILTRA.', usageRatio: 0.5, usageMeasureUnit: 'entrada|entradas', hasInstructions: false }),
  robot({ id: 'modelo-111', name: 'Modelo 111', description: 'Presenta la declaración de retenciones.', group: 'Fiscal', usageRatio: 2, usageMeasureUnit: 'declaración|declaraciones', runsOn: 'desktop', hasInstructions: false }),
];

const definition: FlowDefinition = {
  id: 'validar-identificadores',
  name: 'Validar identificadores',
  description: '',
  group: 'Laboral',
  instructions: '## Pasos\n\n1. Sube el libro.\n\n<script>alert(1)</script>\n\n[Ayuda](https://autoasesor.es/ayuda)',
  usageRatio: 1,
  usageMeasureUnit: 'fila|filas',
  runsOn: 'server',
  timeLimitSeconds: 120,
  flowInputs: [],
  sectionSetup: { builder: [{ ref: 'datos', template: 'InputComponents', title: 'Datos', builder: [] }] },
};

function CurrentPath() {
  return <output aria-label="ruta">{useLocation().pathname}</output>;
}

function renderRoboteka(routes: Parameters<typeof mockApi>[0]) {
  vi.stubGlobal('fetch', mockApi(routes).fetchMock);
  return renderWithApp(
    <Routes>
      <Route path="/roboteka" element={<RobotekaPage />} />
      <Route path="/launcher/:id" element={<CurrentPath />} />
    </Routes>,
    { path: '/roboteka', preloadedState: signedInState(testUser({}, { currencies: 'crédito|créditos' })) },
  );
}

const cardNames = () => within(screen.getByRole('list', { name: 'Robots del catálogo' })).getAllByRole('heading', { level: 2 }).map((heading) => heading.textContent);

describe('RobotekaPage', () => {
  it('shows every robot as a card with its group, cost, where it runs and limits', async () => {
    renderRoboteka({ 'GET /api/browserflow/flow': () => jsonResponse(200, { items: catalogue }) });
    expect(screen.getByRole('heading', { level: 1, name: 'Roboteka' })).toBeTruthy();
    await screen.findByRole('list', { name: 'Robots del catálogo' });
    // Groups in order, robots by name inside each.
    expect(cardNames()).toEqual(['Modelo 111', 'FIE a incidencias A3', 'Validar identificadores']);
    expect(screen.getByText('3 robots')).toBeTruthy();
    const card = screen.getByRole('article', { name: 'Validar identificadores' });
    expect(card.textContent).toContain('Laboral');
    expect(card.textContent).toContain('1 crédito por bloque de 100 filas');
    expect(card.textContent).toContain('En el servidor');
    expect(card.textContent).toContain('Excel, ODS o CSV.');
    const desktop = screen.getByRole('article', { name: 'Modelo 111' });
    expect(desktop.textContent).toContain('2 créditos por declaración');
    expect(desktop.textContent).toContain('En el escritorio');
    expect(within(desktop).queryByRole('button', { name: /Ver instrucciones/ })).toBeNull();
  });

  it('filters by search (case and accents ignored) and by group', async () => {
    renderRoboteka({ 'GET /api/browserflow/flow': () => jsonResponse(200, { items: catalogue }) });
    await screen.findByRole('list', { name: 'Robots del catálogo' });
    fireEvent.change(screen.getByRole('searchbox', { name: 'Buscar robots' }), { target: { value: 'DECLARACION' } });
    expect(cardNames()).toEqual(['Modelo 111']);
    fireEvent.change(screen.getByRole('searchbox', { name: 'Buscar robots' }), { target: { value: '' } });
    fireEvent.change(screen.getByRole('combobox', { name: 'Grupo' }), { target: { value: 'Laboral' } });
    expect(cardNames()).toEqual(['FIE a incidencias A3', 'Validar identificadores']);
    expect(screen.getByText('2 robots')).toBeTruthy();
    fireEvent.change(screen.getByRole('searchbox', { name: 'Buscar robots' }), { target: { value: 'retenciones' } });
    expect(screen.getByText('Ningún robot coincide con tu búsqueda.')).toBeTruthy();
  });

  it('opens a robot in the launcher', async () => {
    renderRoboteka({ 'GET /api/browserflow/flow': () => jsonResponse(200, { items: catalogue }) });
    fireEvent.click(await screen.findByRole('link', { name: 'Abrir FIE a incidencias A3' }));
    expect(screen.getByRole('status', { name: 'ruta' }).textContent).toBe('/launcher/fie-a3');
  });

  it('shows the instructions in a dialog, without raw HTML', async () => {
    renderRoboteka({
      'GET /api/browserflow/flow': () => jsonResponse(200, { items: catalogue }),
      'GET /api/browserflow/flow/validar-identificadores': () => jsonResponse(200, definition),
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Ver instrucciones de Validar identificadores' }));
    const dialog = await screen.findByRole('dialog', { name: 'Instrucciones: Validar identificadores' });
    expect(await within(dialog).findByRole('heading', { name: 'Pasos' })).toBeTruthy();
    expect(dialog.querySelector('script')).toBeNull();
    expect(within(dialog).getByRole('link', { name: 'Ayuda' }).getAttribute('target')).toBe('_blank');
  });

  it('says when the firm has no robots', async () => {
    renderRoboteka({ 'GET /api/browserflow/flow': () => jsonResponse(200, { items: [] }) });
    expect(await screen.findByRole('region', { name: 'Todavía no hay robots disponibles para tu asesoría.' })).toBeTruthy();
  });

  it('says when the catalogue cannot be loaded, and retries', async () => {
    let fail = true;
    renderRoboteka({
      'GET /api/browserflow/flow': () => (fail ? jsonResponse(500, { statusCode: 500, code: 'INTERNAL', message: 'x' }) : jsonResponse(200, { items: catalogue })),
    });
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('No se ha podido cargar el catálogo de robots.');
    fail = false;
    fireEvent.click(within(alert).getByRole('button', { name: 'Reintentar' }));
    await waitFor(() => expect(cardNames()).toHaveLength(3));
  });
});
