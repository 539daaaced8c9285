/** Home's notice of the altas the companies sent (issue 44, 3): the count in words, the link, and silence at none. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import type { ReceivedSummary } from '#shared/api/altas.ts';
import { jsonResponse, mockApi, renderWithApp, signedInState } from '../../test/renderApp.tsx';
import HomePage from './HomePage.tsx';

afterEach(() => {
  vi.unstubAllGlobals();
});

function renderHome(summary: ReceivedSummary) {
  const api = mockApi({ 'GET /api/form-to-flow-submission/received': () => jsonResponse(200, summary) });
  vi.stubGlobal('fetch', api.fetchMock);
  renderWithApp(<HomePage />, { path: '/home', preloadedState: signedInState() });
  return api.calls;
}

describe('Home altas notice', () => {
  it('counts the altas companies sent that wait for RED, linking to Altas y bajas', async () => {
    renderHome({ count: 3, newestAt: '2026-12-03T09:00:00.000Z' });
    const banner = (await screen.findByText('Tienes 3 altas nuevas de tus empresas por registrar')).closest('[role="status"]');
    expect(banner).not.toBeNull();
    expect(screen.getByRole('link', { name: 'Ver altas' }).getAttribute('href')).toBe('/altasybajas');
  });

  it('speaks of one in the singular', async () => {
    renderHome({ count: 1, newestAt: '2026-12-03T09:00:00.000Z' });
    expect(await screen.findByText('Tienes 1 alta nueva de tus empresas por registrar')).toBeTruthy();
  });

  it('shows nothing when no alta waits', async () => {
    const calls = renderHome({ count: 0, newestAt: null });
    await waitFor(() => expect(calls.some((call) => call.key === 'GET /api/form-to-flow-submission/received')).toBe(true));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByRole('link', { name: 'Ver altas' })).toBeNull();
  });
});
