/** Home's DEHÚ banner: the counts in words, the link to the pending ones soonest first, and silence when there is nothing. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import type { NotificationsSummary } from '#shared/api/notifications.ts';
import { jsonResponse, mockApi, renderWithApp, signedInState } from '../../test/renderApp.tsx';
import HomePage from './HomePage.tsx';

afterEach(() => {
  vi.unstubAllGlobals();
});

function renderHome(summary: NotificationsSummary) {
  const api = mockApi({ 'GET /api/notifications/summary': () => jsonResponse(200, summary) });
  vi.stubGlobal('fetch', api.fetchMock);
  renderWithApp(<HomePage />, { path: '/home', preloadedState: signedInState() });
  return api.calls;
}

const base: NotificationsSummary = { newCount: 0, expiringSoonCount: 0, soonestCaducidad: null, lastUpdateAt: '2026-11-25T08:00:00.000Z' };

describe('Home notifications banner', () => {
  it('counts the notifications expiring within 3 days and the new ones, linking to the pending ones soonest first', async () => {
    renderHome({ ...base, expiringSoonCount: 2, newCount: 5, soonestCaducidad: '2026-11-27T09:00:00.000Z' });
    const banner = (await screen.findByText(/^Tienes/)).closest('[role="status"]');
    expect(banner?.textContent).toContain('Tienes 2 notificaciones que caducan en los próximos 3 días · 5 notificaciones nuevas');
    expect(screen.getByRole('link', { name: 'Ver notificaciones' }).getAttribute('href')).toBe('/notifications?view=pendientes&sortby=caducidad&sortdir=asc');
  });

  it('speaks of one in the singular, and of the new ones alone when none expires soon', async () => {
    renderHome({ ...base, newCount: 1 });
    const banner = (await screen.findByText('1 notificación nueva')).closest('[role="status"]');
    expect(banner?.textContent).not.toContain('caduca');
  });

  it('shows nothing when nothing is new or about to expire', async () => {
    const calls = renderHome(base);
    await waitFor(() => expect(calls.some((call) => call.key === 'GET /api/notifications/summary')).toBe(true));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByRole('link', { name: 'Ver notificaciones' })).toBeNull();
  });
});
