/** /fie on the desktop: 'Obtener de SILTRA' when one source (the SILTRA folder or FIER) failed and the other worked. */
import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { BridgeCommand } from '#shared/bridge/contract.ts';
import type { BridgeClient } from '../../bridge/client.ts';
import { linkedHere, listOf, renderFie, setUpFieTests, shownToasts, stubApi } from './test/renderFie.tsx';

setUpFieTests();

const FIER_DOWN = 'FIER no responde ahora: se ha leído solo la carpeta de SILTRA.';

/** A desktop bridge with one certificate, whose GetFieFromSiltra answers `data`. */
function desktopBridge(data: unknown): BridgeClient {
  const answers: Partial<Record<BridgeCommand, unknown>> = {
    GetCertificatesList: { ok: true, data: { certificates: [{ fingerprint: 'a'.repeat(64), commonName: 'ASESORIA PEREZ SL - B12345678' }], problems: [], folder: null, readAt: '2025-02-03T09:00:00.000Z' } },
    GetFieFromSiltra: { ok: true, data },
  };
  return {
    kind: 'agent',
    available: true,
    invoke: async (command: BridgeCommand) => (command === 'GetDeviceStatus' ? linkedHere() : answers[command]) ?? { ok: false, error: { code: 'UNKNOWN_COMMAND', message: 'No' } },
    on: () => () => undefined,
  } as unknown as BridgeClient;
}

async function fetchFromSiltra(data: unknown) {
  stubApi({ 'GET /api/fie': listOf([]) });
  renderFie('/fie', { bridge: desktopBridge(data) });
  fireEvent.click(await screen.findByRole('button', { name: 'Obtener de SILTRA' }));
  const dialog = await screen.findByRole('dialog', { name: 'Obtener de SILTRA' });
  await waitFor(() => expect((within(dialog).getByRole('combobox', { name: 'Certificado' }) as HTMLSelectElement).value).toBe('a'.repeat(64)));
  fireEvent.change(within(dialog).getByLabelText('Día (o desde)'), { target: { value: '2025-02-03' } });
  fireEvent.click(within(dialog).getByRole('button', { name: 'Obtener' }));
}

describe("'Obtener de SILTRA' with one source failing", () => {
  it('shows what was processed, then the source that failed, in the same toast', async () => {
    const processed = { fileName: 'FIE_20250203.txt', status: 'processed', documentId: 'd1', entries: 3, linkedEntries: 0, reason: null };
    await fetchFromSiltra({ from: '2025-02-03', to: '2025-02-03', found: 1, upload: { results: [processed], processed: 1, failed: 0, alreadyAdded: 0 }, noResults: null, problems: [FIER_DOWN] });
    await waitFor(() => expect(shownToasts()).toEqual([{ kind: 'success', lines: ['Se ha procesado un FIE.', FIER_DOWN] }]));
  });

  it('with nothing found, says so for the day and which source could not be read', async () => {
    await fetchFromSiltra({ from: '2025-02-03', to: '2025-02-03', found: 0, upload: { results: [], processed: 0, failed: 0, alreadyAdded: 0 }, noResults: null, problems: [FIER_DOWN] });
    await waitFor(() => expect(shownToasts()).toEqual([{ kind: 'info', lines: ['No hemos encontrado ningún FIE en SILTRA', 'Sin resultados en el dia 03/02/2025', FIER_DOWN] }]));
  });
});
