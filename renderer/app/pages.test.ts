import { describe, expect, it } from 'vitest';
import { hasPage } from './pages.ts';
import { routes } from './routes.ts';

describe('route screens', () => {
  it('exist for every route of the table that shows a screen', () => {
    const missing = routes.filter((route) => route.page !== undefined && !hasPage(route.page)).map((route) => route.page);
    expect(missing).toEqual([]);
  });

  it('are left out only for the redirect routes', () => {
    expect(routes.filter((route) => route.page === undefined).map((route) => route.name)).toEqual(['Root', 'Login', 'DebugComponents']);
  });
});
