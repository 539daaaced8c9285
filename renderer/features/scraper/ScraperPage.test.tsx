/** /scraper: the web app's explanation, and in the desktop app a page analysed, previewed and saved as a macro. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { Macro } from '#shared/api/macros.ts';
import { parseMacro } from '#shared/macros/definition.ts';
import type { MacroDefinition } from '#shared/macros/definition.ts';
import type { ScrapeCandidate } from '../../api/macrosBridge.ts';
import type { BridgeClient } from '../../bridge/client.ts';
import { jsonResponse, renderWithApp, signedInState } from '../../test/renderApp.tsx';
import { stubApi } from '../../test/stubApi.ts';
import ScraperPage from './ScraperPage.tsx';

vi.setConfig({ testTimeout: 15_000 });
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const candidates: ScrapeCandidate[] = [
  {
    kind: 'table', target: 'internal:role=table[name="Afiliados"i]', header: ['NIF', 'Nombre', 'Alta'], total: 42,
    rows: Array.from({ length: 8 }, (_, index) => [`0000000${index}T`, `Trabajador ${index}`, '01/12/2026']),
  },
  {
    kind: 'list', target: '.resultado', header: ['Título', 'Fecha'], total: 12,
    fields: [{ column: 'Título', target: 'h3' }, { column: 'Fecha', target: '.fecha' }],
    rows: [['Aviso de embargo', '02/12/2026'], ['Requerimiento', '01/12/2026']],
  },
];

function scraperBridge() {
  const calls: { command: string; args: unknown }[] = [];
  const bridge = {
    kind: 'agent',
    available: true,
    invoke: async (command: string, args: unknown) => {
      calls.push({ command, args });
      return command === 'PreviewScrape' ? { ok: true, data: { candidates } } : { ok: false, error: { code: 'UNKNOWN_COMMAND', message: 'No' } };
    },
    on: () => () => undefined,
  } as unknown as BridgeClient;
  return { bridge, calls };
}

const ID = '44444444-4444-4444-8444-444444444444';
const createdFrom = (definition: MacroDefinition): Macro => ({
  id: ID, flowId: `macro-${ID}`, name: definition.name, description: definition.description, version: 1, steps: 3, runsOn: 'desktop', access: 'owner',
  ownerName: 'Ana', updatedAt: '2026-12-02T10:00:00.000Z', definition, versions: [],
});
const subscription = () => jsonResponse(200, { active: true, trialing: false, name: 'Profesional', balance: 100 });

describe('ScraperPage', () => {
  it('explains in the web app that analysing a page needs the desktop app', () => {
    stubApi({ 'GET /api/subscriptions/launcher': subscription });
    renderWithApp(<ScraperPage />, { path: '/scraper', preloadedState: signedInState() });
    const card = screen.getByRole('article', { name: 'Analizar una página necesita la aplicación de escritorio' });
    expect(within(card).getAllByRole('listitem')).toHaveLength(3);
    expect(screen.queryByRole('button', { name: 'Analizar página' })).toBeNull();
  });

  it('previews the page\'s tables and lists and saves the chosen list as a paginated macro', async () => {
    const calls = stubApi({
      'GET /api/subscriptions/launcher': subscription,
      'POST /api/macro': ({ body }) => jsonResponse(201, createdFrom((body as { definition: MacroDefinition }).definition)),
    });
    const { bridge, calls: bridgeCalls } = scraperBridge();
    renderWithApp(<ScraperPage />, { path: '/scraper', preloadedState: signedInState(), bridge });
    fireEvent.change(screen.getByLabelText('Dirección de la página'), { target: { value: 'https://portal.example/afiliados' } });
    fireEvent.click(screen.getByRole('button', { name: 'Analizar página' }));

    const found = await screen.findByRole('radiogroup', { name: 'Datos encontrados en la página' });
    expect(bridgeCalls).toEqual([{ command: 'PreviewScrape', args: { url: 'https://portal.example/afiliados' } }]);
    const table = within(found).getByRole('region', { name: 'Vista previa de los datos 1' });
    expect(within(table).getAllByRole('row')).toHaveLength(6);
    expect(within(table).getByText('Primeras 5 de 42 filas')).toBeTruthy();
    expect(within(found).getByRole('radio', { name: 'Tabla 1: 42 filas' })).toHaveProperty('checked', true);

    fireEvent.click(within(found).getByRole('radio', { name: 'Lista 2: 12 filas' }));
    fireEvent.change(screen.getByLabelText('Columna 1'), { target: { value: 'Asunto' } });
    expect((screen.getByLabelText('Nombre del robot') as HTMLInputElement).value).toBe('Datos de portal.example');
    fireEvent.click(screen.getByRole('checkbox', { name: 'Seguir por las páginas' }));
    fireEvent.change(screen.getByLabelText('Nombre accesible'), { target: { value: 'Página siguiente' } });
    fireEvent.click(screen.getByRole('button', { name: 'Guardar como robot' }));

    expect(await screen.findByRole('heading', { name: 'Robot «Datos de portal.example» guardado' })).toBeTruthy();
    const body = calls.find((call) => call.key === 'POST /api/macro')!.body as { source: string; definition: MacroDefinition };
    expect(body.source).toBe('scraper');
    expect(parseMacro(body.definition).ok).toBe(true);
    expect(body.definition).toMatchObject({ startUrl: 'https://portal.example/afiliados', outputFileName: 'datos-de-portal-example.xlsx', inputs: [] });
    expect(body.definition.steps).toEqual([
      { id: expect.any(String), type: 'goto', url: { kind: 'text', text: 'https://portal.example/afiliados' } },
      {
        id: expect.any(String), type: 'repeatWhile', target: 'internal:role=link[name="Página siguiente"i]', maxTimes: 50,
        steps: [{ id: expect.any(String), type: 'extractList', target: '.resultado', fields: [{ column: 'Asunto', target: 'h3' }, { column: 'Fecha', target: '.fecha' }] }],
      },
    ]);
    expect(screen.getByRole('link', { name: 'Programar' }).getAttribute('href')).toBe(`/launcher/macro-${ID}`);
    await waitFor(() => expect(screen.getByRole('link', { name: 'Editar en Smart Builder' }).getAttribute('href')).toBe(`/smartbuilder?robot=${ID}`));
  });
});
