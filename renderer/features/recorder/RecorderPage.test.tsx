/** /recorder: the web app's explanation, and in the desktop app a recording listed live and saved as a macro. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Route, Routes, useLocation } from 'react-router-dom';
import type { Macro } from '#shared/api/macros.ts';
import type { MacroDefinition, MacroStep } from '#shared/macros/definition.ts';
import type { BridgeClient } from '../../bridge/client.ts';
import { jsonResponse, renderWithApp, signedInState } from '../../test/renderApp.tsx';
import { stubApi } from '../../test/stubApi.ts';
import RecorderPage from './RecorderPage.tsx';

vi.setConfig({ testTimeout: 15_000 });
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

/** A bridge answering the recorder's commands; GetMacroRecording returns one more step per call. */
function recorderBridge(recorded: MacroStep[], stopped: MacroDefinition) {
  const calls: { command: string; args: unknown }[] = [];
  let polls = 0;
  const answers: Record<string, (args: unknown) => unknown> = {
    StartMacroRecording: () => ({ ok: true, data: { recordingId: 'rec-1' } }),
    GetMacroRecording: () => {
      polls += 1;
      return { ok: true, data: { steps: recorded.slice(0, polls), open: true } };
    },
    StopMacroRecording: () => ({ ok: true, data: { macro: stopped } }),
  };
  const bridge = {
    kind: 'agent',
    available: true,
    invoke: async (command: string, args: unknown) => {
      calls.push({ command, args });
      return answers[command]?.(args) ?? { ok: false, error: { code: 'UNKNOWN_COMMAND', message: 'No' } };
    },
    on: () => () => undefined,
  } as unknown as BridgeClient;
  return { bridge, calls };
}

const steps: MacroStep[] = [
  { id: 'r1', type: 'goto', url: { kind: 'text', text: 'https://portal.example/login' } },
  { id: 'r2', type: 'fill', target: 'internal:label="Usuario"i', value: { kind: 'text', text: 'ana' } },
  { id: 'r3', type: 'click', target: 'internal:role=button[name="Entrar"i]' },
];
const recordedMacro: MacroDefinition = {
  schemaVersion: 1, name: 'Grabación del 2 de diciembre', description: '', startUrl: 'https://portal.example/login', inputs: [], steps,
  charge: { per: 'run', slans: 1 }, outputFileName: 'resultado.xlsx', timeLimitSeconds: 600,
};
const ID = '33333333-3333-4333-8333-333333333333';
const created: Macro = {
  id: ID, flowId: `macro-${ID}`, name: recordedMacro.name, description: '', version: 1, steps: 3, runsOn: 'desktop', access: 'owner', ownerName: 'Ana',
  updatedAt: '2026-12-02T10:00:00.000Z', definition: recordedMacro, versions: [{ version: 1, note: '', createdAt: '2026-12-02T10:00:00.000Z', createdBy: 'Ana' }],
};

function Where() {
  const location = useLocation();
  return <p role="status" aria-label="ruta">{`${location.pathname}${location.search}`}</p>;
}
const renderRecorder = (bridge?: BridgeClient, embedded = false) =>
  renderWithApp(
    <Routes>
      <Route path="/recorder" element={<RecorderPage />} />
      <Route path="/smartbuilder" element={<Where />} />
    </Routes>,
    { path: '/recorder', preloadedState: signedInState(), ...(bridge && { bridge }), embedded },
  );
const subscription = (active: boolean) => () => jsonResponse(200, { active, trialing: false, name: active ? 'Profesional' : 'Prueba', balance: 100 });

describe('RecorderPage', () => {
  it('explains in the web app that recording needs the desktop app, with the steps to get it', async () => {
    stubApi({ 'GET /api/subscriptions/launcher': subscription(true) });
    renderRecorder();
    const card = screen.getByRole('article', { name: 'Grabar una tarea necesita la aplicación de escritorio' });
    expect(within(card).getAllByRole('listitem')).toHaveLength(3);
    expect(within(card).getByRole('link', { name: 'Ir a Mis recursos' }).getAttribute('href')).toBe('/workspace');
    expect(screen.queryByRole('button', { name: 'Grabar' })).toBeNull();
  });

  it('records, lists the steps live, and stops into a new macro opened in SmartBuilder', async () => {
    const calls = stubApi({ 'GET /api/subscriptions/launcher': subscription(true), 'POST /api/macro': () => jsonResponse(201, created) });
    const { bridge, calls: bridgeCalls } = recorderBridge(steps, recordedMacro);
    renderRecorder(bridge);
    fireEvent.click(screen.getByRole('button', { name: 'Grabar' }));
    expect(await screen.findByText('La dirección debe empezar por https:// o http://')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Dirección donde empieza la tarea'), { target: { value: 'https://portal.example/login' } });
    fireEvent.click(screen.getByRole('button', { name: 'Grabar' }));
    expect(await screen.findByRole('heading', { name: 'Grabando' })).toBeTruthy();
    expect(bridgeCalls[0]).toEqual({ command: 'StartMacroRecording', args: { startUrl: 'https://portal.example/login' } });

    // One poll a second: the list grows as the recording does.
    const list = await screen.findByRole('list', { name: 'Pasos grabados' }, { timeout: 3000 });
    expect(within(list).getByText('Ir a una dirección: https://portal.example/login')).toBeTruthy();
    await waitFor(() => expect(within(screen.getByRole('list', { name: 'Pasos grabados' })).getAllByRole('listitem')).toHaveLength(2), { timeout: 3000 });
    expect(screen.getByText('Escribir: campo «Usuario»')).toBeTruthy();
    expect(screen.getByText('2 pasos grabados')).toBeTruthy();
    expect(bridgeCalls.filter((call) => call.command === 'GetMacroRecording').every((call) => (call.args as { recordingId: string }).recordingId === 'rec-1')).toBe(true);

    fireEvent.click(screen.getByRole('button', { name: 'Detener y guardar' }));
    await waitFor(() => expect(screen.getByRole('status', { name: 'ruta' }).textContent).toBe(`/smartbuilder?robot=${ID}`));
    expect(bridgeCalls.some((call) => call.command === 'StopMacroRecording')).toBe(true);
    expect(calls.find((call) => call.key === 'POST /api/macro')?.body).toEqual({ source: 'recording', definition: recordedMacro });
  });

  it('without a paid plan says editing needs one, but the robot is saved and can be launched', async () => {
    stubApi({ 'GET /api/subscriptions/launcher': subscription(false), 'POST /api/macro': () => jsonResponse(201, created) });
    const { bridge } = recorderBridge(steps, recordedMacro);
    renderRecorder(bridge, true);
    fireEvent.change(screen.getByLabelText('Dirección donde empieza la tarea'), { target: { value: 'https://portal.example/login' } });
    fireEvent.click(screen.getByRole('button', { name: 'Grabar' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Detener y guardar' }));
    expect(await screen.findByRole('heading', { name: 'Robot «Grabación del 2 de diciembre» guardado' })).toBeTruthy();
    expect(screen.getByText(/necesitas un plan de pago, pero el robot ya está guardado/)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Abrir en el lanzador' }).getAttribute('href')).toBe(`/launcher/macro-${ID}`);
  });

  it('keeps a stopped recording when the server refuses it, and saves it on the next try without recording again', async () => {
    let refuse = true;
    const calls = stubApi({
      'GET /api/subscriptions/launcher': subscription(true),
      'POST /api/macro': () => (refuse
        ? jsonResponse(402, { statusCode: 402, code: 'PAYMENT_REQUIRED', message: 'Crear y editar robots propios necesita un plan de pago activo. Elige un plan en Pagos para continuar' })
        : jsonResponse(201, created)),
    });
    const { bridge, calls: bridgeCalls } = recorderBridge(steps, recordedMacro);
    renderRecorder(bridge, true);
    fireEvent.change(screen.getByLabelText('Dirección donde empieza la tarea'), { target: { value: 'https://portal.example/login' } });
    fireEvent.click(screen.getByRole('button', { name: 'Grabar' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Detener y guardar' }));
    expect((await screen.findByRole('alert')).textContent).toMatch(/necesita un plan de pago activo/);
    expect(within(screen.getByRole('list', { name: 'Pasos grabados' })).getAllByRole('listitem')).toHaveLength(3);
    refuse = false;
    fireEvent.click(screen.getByRole('button', { name: 'Guardar el robot' }));
    expect(await screen.findByRole('heading', { name: 'Robot «Grabación del 2 de diciembre» guardado' })).toBeTruthy();
    expect(bridgeCalls.filter((call) => call.command === 'StopMacroRecording')).toHaveLength(1);
    expect(calls.filter((call) => call.key === 'POST /api/macro')).toHaveLength(2);
  });
});
