/** The shell's support entries (issue 26): 'Soporte (equipo)' for the support team only, and the unread answers beside 'Ayuda'. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import { jsonResponse, mockApi, renderWithApp, signedInState, testUser } from '../../test/renderApp.tsx';
import { Navigation } from './Navigation.tsx';
import { SideMenu } from './SideMenu.tsx';

afterEach(() => vi.unstubAllGlobals());

const unread = (count: number) => vi.stubGlobal('fetch', mockApi({ 'GET /api/support/tickets/unread': () => jsonResponse(200, { unread: count }) }).fetchMock);

describe('support in the shell', () => {
  it('lists the desk in the user menu for support agents only', () => {
    unread(0);
    const { unmount } = renderWithApp(<SideMenu />, { preloadedState: signedInState() });
    expect(screen.queryByRole('link', { name: 'Soporte (equipo)' })).toBeNull();
    unmount();
    renderWithApp(<SideMenu />, { preloadedState: signedInState(testUser({ supportAgent: true })) });
    expect(screen.getByRole('link', { name: 'Soporte (equipo)' }).getAttribute('href')).toBe('/soporte');
  });

  it('counts the unread support answers beside Ayuda', async () => {
    unread(2);
    renderWithApp(<Navigation />, { preloadedState: signedInState() });
    const help = screen.getByRole('link', { name: /^Ayuda/ });
    expect(await within(help).findByText('2 respuestas nuevas')).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Soporte (equipo)' })).toBeNull();
  });

});
