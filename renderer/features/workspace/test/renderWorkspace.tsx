import { afterEach, beforeAll, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import type { BridgeArgs, BridgeCommand, BridgeResult } from '#shared/bridge/contract.ts';
import type { BridgeEnvelope } from '#shared/bridge/envelope.ts';
import type { CertificateProblem, LocalCertificate } from '#shared/certificates/certificate.ts';
import type { Machine } from '#shared/api/machines.ts';
import type { BridgeClient } from '../../../bridge/client.ts';
import { preloadModal } from '../../../ui/Modal.tsx';
import { jsonResponse, renderWithApp, signedInState } from '../../../test/renderApp.tsx';
import WorkspacePage from '../WorkspacePage.tsx';
import { LOCAL_HASH } from '../testData.ts';

/** WorkspacePage's tests (WorkspacePage*.test.tsx): the page on a stubbed fetch and a fake desktop bridge. */

/** Registers the file's hooks: the lazy dialog fetched up front, stubs and spies undone after each test. */
export function setUpWorkspacePageTests() {
  beforeAll(() => preloadModal(), 30_000);
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });
}

export interface Call {
  key: string;
  body: unknown;
}

/** fetch answering by "METHOD /path" (query apart); records "METHOD /path?query" and the JSON body. */
export function stubApi(routes: Record<string, (body: unknown) => Response>) {
  const calls: Call[] = [];
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost');
    const key = `${init?.method ?? 'GET'} ${url.pathname}`;
    const body: unknown = typeof init?.body === 'string' ? JSON.parse(init.body) : undefined;
    calls.push({ key: `${key}${url.search}`, body });
    // The firm's own email configs (issue 43) are listed on every visit: none unless a test says.
    const handler = routes[key] ?? (key === 'GET /api/configs' ? () => jsonResponse(200, { items: [] }) : undefined);
    return handler ? handler(body) : jsonResponse(404, { statusCode: 404, code: 'NOT_FOUND', message: 'No encontrado' });
  });
  return calls;
}

export const machinesOf = (items: Machine[]) => () => jsonResponse(200, { items });

type Answer<C extends BridgeCommand> = (args: BridgeArgs<C>) => BridgeEnvelope<BridgeResult<C>>;

/** A desktop bridge answering like the real handlers, recording every command with its arguments. */
export function fakeBridge(state: { certificates: LocalCertificate[]; problems?: CertificateProblem[]; folder?: string | null }, overrides: { [C in BridgeCommand]?: Answer<C> } = {}) {
  const calls: { command: BridgeCommand; args: unknown }[] = [];
  const answers: { [C in BridgeCommand]?: Answer<C> } = {
    GetMachineHashCode: () => ({ ok: true, data: { machineHashCode: LOCAL_HASH, machineName: 'PC-ANA' } }),
    GetCertificatesList: () => ({
      ok: true,
      data: { certificates: state.certificates, problems: state.problems ?? [], folder: state.folder ?? null, readAt: new Date().toISOString() },
    }),
    SetCertificateFolder: ({ folder }) => {
      state.folder = folder;
      return { ok: true, data: { folder } };
    },
    ...overrides,
  };
  const bridge: BridgeClient = {
    kind: 'agent',
    available: true,
    invoke: (async (command: BridgeCommand, args: unknown) => {
      calls.push({ command, args });
      const answer = answers[command] as ((args: unknown) => unknown) | undefined;
      return answer ? answer(args) : { ok: false, error: { code: 'UNKNOWN_COMMAND', message: 'No' } };
    }) as BridgeClient['invoke'],
    on: () => () => undefined,
  };
  const commands = () => calls.map((call) => call.command);
  return { bridge, calls, commands };
}

export function renderWorkspace({ path = '/workspace', bridge }: { path?: string; bridge?: BridgeClient } = {}) {
  return renderWithApp(<WorkspacePage />, { path, embedded: bridge !== undefined, bridge, toasts: true, preloadedState: signedInState() });
}

export const cards = (section: string) => within(screen.getByRole('list', { name: `Dispositivos: ${section}` })).getAllByRole('button');
export const localList = () => screen.findByRole('list', { name: 'Certificados de este dispositivo' });
