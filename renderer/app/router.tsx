import { createBrowserRouter, createMemoryRouter, Outlet } from 'react-router-dom';
import type { RouteObject } from 'react-router-dom';
import { RouteGate } from './RouteGate.tsx';
import { routes, type AppRoute } from './routes.ts';
import { NotFoundPage } from './shell/NotFoundPage.tsx';
import { RouteError } from './shell/RouteError.tsx';
import { Splash } from './shell/Splash.tsx';
import { Toasts } from './shell/Toasts.tsx';

/**
 * Layout for the routes that never show the shell's chrome (meta.topbar false: sign-in, OAuth
 * answer, public forms, redirects, not found): what Layout renders for them, without importing the
 * signed-in shell (top bar, drawer, menus, credit banner, update prompt and the widget libraries
 * they use), so a first visit to /auth downloads none of it.
 */
function PublicFrame() {
  return (
    <div className="app">
      <div className="app-body">
        <div className="app-content">
          <Outlet />
        </div>
      </div>
      <Toasts />
    </div>
  );
}

// Tests render the app right after importing it: there, load the shell up front as a static import
// would, so the first test does not spend its wait on compiling it. Builds drop this line.
if (import.meta.env.MODE === 'test') await import('./Layout.tsx');

const gated = (route: AppRoute): RouteObject => ({ path: route.path, handle: route, element: <RouteGate route={route} /> });

/** The route table turned into router objects: one gated, lazily loaded screen per entry. */
export function routeObjects(): RouteObject[] {
  return [
    {
      element: <PublicFrame />,
      errorElement: <RouteError />,
      children: [...routes.filter((route) => !route.meta.topbar).map(gated), { path: '*', element: <NotFoundPage /> }],
    },
    {
      // The shell loads with the first route that can show it.
      lazy: async () => ({ Component: (await import('./Layout.tsx')).Layout }),
      hydrateFallbackElement: <Splash />,
      errorElement: <RouteError />,
      children: routes.filter((route) => route.meta.topbar).map(gated),
    },
  ];
}

/** Browser history, as the spec asks (§2). */
export function createAppRouter() {
  return createBrowserRouter(routeObjects());
}

export function createTestRouter(initialPath: string) {
  return createMemoryRouter(routeObjects(), { initialEntries: [initialPath] });
}
