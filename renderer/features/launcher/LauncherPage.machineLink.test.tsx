/** A link that names the machine (?machine=<id>, e.g. the altas screen in the browser, issue 44 item 3) chooses it in the launcher. */
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import type { Machine } from '#shared/api/machines.ts';
import { jsonResponse } from '../../test/renderApp.tsx';
import { preloadModal } from '../../ui/Modal.tsx';
import { formFlow } from './test/flowFixture.ts';
import { renderLauncher } from './test/renderLauncher.tsx';

beforeAll(() => preloadModal());
afterEach(() => vi.unstubAllGlobals());

const OFFICE = '11111111-1111-4111-8111-111111111111';
const LAPTOP = '22222222-2222-4222-8222-222222222222';

function machine(overrides: Partial<Machine> & { _id: string; savedAs: string }): Machine {
  return {
    name: overrides.savedAs, machineHashCode: 'f'.repeat(64), sync: true, shared: true, mine: false, owner: { email: 'luis@asesoria.es', name: 'Luis' },
    certificates: [], configs: [], lastSyncAt: null, linked: true, online: true, lastSeenAt: null, createdAt: '2025-01-01T00:00:00Z', ...overrides,
  };
}

const machines = [machine({ _id: LAPTOP, savedAs: 'Portátil de Ana', mine: true }), machine({ _id: OFFICE, savedAs: 'PC Oficina' })];

async function radios() {
  const group = await screen.findByRole('group', { name: /^Dispositivo/ });
  return within(group).findAllByRole('radio') as Promise<HTMLInputElement[]>;
}

describe('the launcher opened with ?machine=', () => {
  it('has that machine chosen, as a remote launch would', async () => {
    renderLauncher(formFlow({ runsOn: 'desktop' }), { 'GET /api/machines': () => jsonResponse(200, { items: machines }) }, undefined, { search: `?machine=${OFFICE}` });
    const found = await radios();
    await vi.waitFor(() => expect(found.map((radio) => [radio.closest('label')?.textContent?.startsWith('PC Oficina'), radio.checked])).toEqual([[false, false], [true, true]]));
  });

  it('chooses nothing for a machine the user does not see', async () => {
    renderLauncher(formFlow({ runsOn: 'desktop' }), { 'GET /api/machines': () => jsonResponse(200, { items: machines }) }, undefined, { search: '?machine=33333333-3333-4333-8333-333333333333' });
    const found = await radios();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(found.some((radio) => radio.checked)).toBe(false);
  });
});
