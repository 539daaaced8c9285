import { createAltasDesktop } from '../desktop.ts';
import type { AltasDesktopSettings } from '../settings.ts';
import type { FakeAltasServer } from './fake-altas-server.ts';
import type { FakeRegistrar } from './fake-registrar.ts';

/** Test-only: the real altas desktop against a server (the fake one, or the real one's address) and a fake registrar, A3 in `a3ImportDir`. */
export function testAltasDesktop(server: Pick<FakeAltasServer, 'url' | 'deviceToken'>, registrar: FakeRegistrar, a3ImportDir: string, overrides: Partial<AltasDesktopSettings> = {}) {
  const settings: AltasDesktopSettings = {
    redOnlineUrl: 'https://127.0.0.1:9443', redOnlineIgnoreHttpsErrors: true, siltraInstallFolder: '/siltra', redAuthorizationKey: '12345678', afiTest: true,
    a3ImportDir, a3AnswerTimeoutMs: 5000, ...overrides,
  };
  return createAltasDesktop({
    link: { ready: async () => undefined, current: () => ({ serverUrl: server.url, deviceToken: server.deviceToken, machine: { _id: 'm1', name: 'OFICINA-01' } }) },
    settings: async () => settings,
    registrar: () => registrar,
    fetch,
    now: () => new Date('2026-11-26T07:00:00Z'),
  });
}
