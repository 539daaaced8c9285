import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import { renderRoutes, signedInState } from '../test/renderApp.tsx';

/**
 * Its own file: lazy screens load once per module registry, and this must see the first load. Under a
 * loaded machine a screen's code took 15 s to arrive and the wait said 'Recuperando tu sesión…' to a user
 * who was signed in all along: that text belongs to the session restore only.
 */
describe('a screen whose code is still loading', () => {
  it('says it is loading, not that the session is being restored', async () => {
    renderRoutes({ path: '/help', preloadedState: signedInState() });
    expect(screen.getByRole('status').textContent).toContain('Cargando…');
    expect(screen.queryByText('Recuperando tu sesión…')).toBeNull();
    expect(await screen.findByRole('heading', { level: 1, name: 'Ayuda' }, { timeout: 10_000 })).toBeTruthy();
  });
});
