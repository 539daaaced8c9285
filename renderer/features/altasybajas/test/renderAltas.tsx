import { afterEach, beforeAll, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import type { ClientCompany, FormConfiguration, FormDefinition, FormSettings, Submission } from '#shared/api/altas.ts';
import type { ExecutionStateResponse } from '#shared/api/flows.ts';
import type { Machine } from '#shared/api/machines.ts';
import type { BridgeCommand } from '#shared/bridge/contract.ts';
import type { BridgeClient } from '../../../bridge/client.ts';
import { preloadModal } from '../../../ui/Modal.tsx';
import { jsonResponse, renderWithApp, signedInState } from '../../../test/renderApp.tsx';
import AltasBajasPage from '../AltasBajasPage.tsx';

/** AltasBajasPage's tests: the page on a stubbed fetch, fixtures in the API's shapes, and readers of the page. */

export function setUpAltasTests() {
  beforeAll(() => preloadModal(), 30_000);
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });
}

export interface Call {
  key: string;
  url: URL;
  init: RequestInit | undefined;
  /** The JSON body, parsed (undefined for none or multipart). */
  body: unknown;
}

export type Handler = (call: Call) => Response | Promise<Response>;

/** fetch answering by "METHOD /path" (query apart); every call is recorded. Missing routes answer 404. */
export function stubApi(routes: Record<string, Handler>) {
  const calls: Call[] = [];
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost');
    const key = `${init?.method ?? 'GET'} ${decodeURIComponent(url.pathname)}`;
    const body: unknown = typeof init?.body === 'string' ? JSON.parse(init.body) : undefined;
    const call = { key, url, init, body };
    calls.push(call);
    const handler = routes[key];
    return handler ? handler(call) : jsonResponse(404, { statusCode: 404, code: 'NOT_FOUND', message: 'No encontrado' });
  });
  return calls;
}

export const answer = (body: unknown, status = 200): Handler => () => jsonResponse(status, body);
export const failure = (status: number, message: string, extra: Record<string, unknown> = {}): Handler =>
  () => jsonResponse(status, { statusCode: status, code: 'ERROR', message, ...extra });
export const noContent: Handler = () => new Response(null, { status: 204 });

export function company(overrides: Partial<ClientCompany> = {}, fields: Partial<ClientCompany['fieldsValues']> = {}): ClientCompany {
  return {
    _id: 'c1',
    credentials: { client: 'u-c1', enabled: false, emailSentAt: null },
    formToFlowConfiguration: 'cfg1',
    fieldsValues: { nombreEmpresa: 'Hostelería Levante S.L.', email: 'rrhh@levante.es', CCC: [{ label: 'Valencia', key: '46123456752' }], ...fields },
    groups: [{ key: '0b0f8a52-7a0e-4c86-9a4e-1f7f5b1d2c3a', text: 'Camarero/a', fieldsValues: { Jornada: 'completa', 'Tipo Contrato*': '100' } }],
    open: false,
    removed: false,
    createdAt: '2026-11-01T09:00:00.000Z',
    ...overrides,
  };
}

export function submission(overrides: Partial<Submission> = {}): Submission {
  return {
    _id: 's1', title: 'Lucía Martín Pérez - Hostelería Levante S.L.', flowId: 'alta-trabajador',
    company: { _id: 'c1', name: 'Hostelería Levante S.L.' }, groupKey: null,
    fieldsValues: { nombre: 'Lucía', NIF: '12345678Z', 'Fecha Alta': '2026-11-20', CCC: '46123456752', Jornada: 'completa', 'Tipo Contrato*': '100' },
    processed: { syncSistemaRed: null, syncA3: null },
    chain: { receivedAt: '2026-11-19T08:05:00.000Z', redAt: null, a3At: null, companyNotifiedAt: null },
    redResolution: null, afiFile: null, lastError: null, lastErrorAt: null, manualRegistration: null, createdBy: 'client', createdAt: '2026-11-19T08:05:00.000Z', removed: false,
    ...overrides,
  };
}

export function registered(overrides: Partial<Submission> = {}): Submission {
  return submission({
    _id: 's9', title: 'Pablo Ruiz - Hostelería Levante S.L.',
    processed: { syncSistemaRed: '2026-11-18T10:00:00.000Z', syncA3: null },
    chain: { receivedAt: '2026-11-17T08:00:00.000Z', redAt: '2026-11-18T10:00:00.000Z', a3At: null, companyNotifiedAt: '2026-11-18T10:01:00.000Z' },
    ...overrides,
  });
}

/** A machine of the user's (or shared with the firm) as GET /api/machines lists it. */
export function machine(overrides: Partial<Machine> = {}): Machine {
  return {
    _id: '11111111-1111-4111-8111-111111111111', name: 'PC-OFICINA', savedAs: 'PC Oficina', machineHashCode: 'f'.repeat(64), sync: false, shared: true, mine: false,
    owner: { email: 'luis@asesoria.es', name: 'Luis' }, certificates: [], configs: [], lastSyncAt: null, linked: true, online: true, lastSeenAt: '2026-11-20T09:00:00.000Z',
    createdAt: '2026-11-01T09:00:00.000Z', ...overrides,
  };
}

/** A run's state as the execution and state routes answer it: queued, or finished with this summary. */
export function runState(summary?: Record<string, string | number>, overrides: Partial<ExecutionStateResponse> = {}): ExecutionStateResponse {
  return {
    executionToken: 'token-1', runId: 'run-1', state: summary ? 'finished' : 'queued', successfulIterations: 0, totalIterations: 0, consoleLog: [],
    ...(summary && { output: { status: 200, executionToken: 'token-1', consoleLog: [], data: { runId: 'run-1', files: [], usageUnits: 1, usageRatio: 1, cost: 1, summary } } }),
    ...overrides,
  };
}

const contracts = {
  completa: [{ key: '100', text: 'Indefinido a tiempo completo' }, { key: '402', text: 'Temporal a tiempo completo' }],
  parcial: [{ key: '200', text: 'Indefinido a tiempo parcial' }],
};

/** More than 5 options: the field is a searchable ComboBox. */
const cotizationGroups = ['Ingenieros y licenciados', 'Ingenieros técnicos', 'Jefes administrativos', 'Ayudantes no titulados', 'Oficiales administrativos', 'Subalternos']
  .map((name, index) => ({ key: String(index + 1).padStart(2, '0'), text: name }));

export const definition: FormDefinition = {
  flowId: 'alta-trabajador', title: 'Altas', url: '/form/flows/lopez', logo: null,
  fieldsOrder: ['nombre', 'NIF', 'Fecha Alta', 'CCC', 'Jornada', 'Tipo Contrato*', 'Grupo Cotización', 'Foto DNI'],
  fields: {
    nombre: { fieldType: 'text', title: 'Nombre', required: true, fieldWriter: 'client' },
    NIF: { fieldType: 'text', title: 'Número de documento', required: true, validate: 'nienif', fieldWriter: 'client' },
    'Fecha Alta': { fieldType: 'date', title: 'Fecha de alta', required: true, locked: true, fieldWriter: 'client' },
    CCC: { fieldType: 'dropdown', title: 'Cuenta de cotización (CCC)', required: true, locked: true, validValuesFromExtraFields: { field: 'CCC' }, fieldWriter: 'client' },
    Jornada: { fieldType: 'dropdown', title: 'Jornada', required: true, fieldWriter: 'userBefore', validValues: [{ key: 'completa', text: 'Completa' }, { key: 'parcial', text: 'Parcial' }] },
    'Tipo Contrato*': { fieldType: 'dropdown', title: 'Tipo de contrato', required: true, locked: true, fieldWriter: 'userBefore', dependentKey: 'Jornada', dependentOptions: contracts },
    'Grupo Cotización': { fieldType: 'dropdown', title: 'Grupo de cotización', fieldWriter: 'client', validValues: cotizationGroups },
    'Foto DNI': { fieldType: 'file', title: 'Foto del documento de identidad', fieldWriter: 'client' },
  },
  defaultFormPages: [
    { title: 'Datos personales', fields: ['nombre', 'NIF', 'Foto DNI'] },
    { title: 'Contrato', fields: ['Fecha Alta', 'CCC', 'Jornada', 'Tipo Contrato*', 'Grupo Cotización'] },
  ],
};

export const configuration: FormConfiguration = {
  _id: 'cfg1', flowId: 'alta-trabajador', name: 'Altas', formPages: definition.defaultFormPages, fields: {},
};

export const settings: FormSettings = { title: 'Altas de trabajadores', url: '/form/flows/lopez', logo: null };

/** The routes every view reads, with the lists given; `extra` adds or replaces routes. */
export function altasRoutes({ submissions = [] as Submission[], companies = [company()] } = {}, extra: Record<string, Handler> = {}): Record<string, Handler> {
  return {
    'GET /api/form-to-flow-submission': answer({ items: submissions }),
    'GET /api/form-to-flow-client': answer({ items: companies }),
    'GET /api/form-to-flow/alta-trabajador': answer(definition),
    'GET /api/form-to-flow-configuration/alta-trabajador': answer(configuration),
    'GET /api/users/formToFlow': answer(settings),
    ...extra,
  };
}

export function renderAltas({ bridge, search = '' }: { bridge?: BridgeClient; search?: string } = {}) {
  return renderWithApp(<AltasBajasPage />, { path: `/altasybajas${search}`, bridge, toasts: true, preloadedState: signedInState() });
}

export const region = (name: string) => screen.getByRole('region', { name });
/** The titles of a list's rows, in order. */
export const rowTitles = (list: string) =>
  [...region(list).querySelectorAll('.altas-row__title')].map((node) => node.textContent ?? '');
export const rowOf = (title: string) => {
  const node = screen.getByText(title).closest('li');
  if (!node) throw new Error(`No row for ${title}`);
  return within(node);
};

/** The toasts on screen: kind and lines. */
export function shownToasts(): { kind: string; lines: string[] }[] {
  return [...document.querySelectorAll('.app-toast')].map((toast) => ({
    kind: [...toast.classList].find((name) => name.startsWith('app-toast--'))?.replace('app-toast--', '') ?? '',
    lines: (toast.querySelector(':scope > span')?.textContent ?? '').split('\n'),
  }));
}

/** A desktop bridge answering each command with the envelope its entry returns; calls recorded. */
export function fakeBridge(answers: Partial<Record<BridgeCommand, (args: unknown) => unknown>>) {
  const calls: { command: BridgeCommand; args: unknown }[] = [];
  // This PC is already linked to the window's server (the actions check it first), unless a test says otherwise.
  answers = {
    GetDeviceStatus: () => ({ ok: true, data: { linked: true, serverUrl: window.location.origin, machine: { _id: 'pc-1', name: 'PC-ANA' }, problem: null } }),
    ...answers,
  };
  const bridge = {
    kind: 'agent',
    available: true,
    invoke: async (command: BridgeCommand, args: unknown) => {
      calls.push({ command, args });
      const reply = answers[command];
      return reply ? reply(args) : { ok: false, error: { code: 'UNKNOWN_COMMAND', message: 'No' } };
    },
    on: () => () => undefined,
  } as unknown as BridgeClient;
  return { bridge, calls };
}
