import { createBrowserRouter, createMemoryRouter } from 'react-router-dom';
import type { RouteObject } from 'react-router-dom';
import { Layout } from './Layout.tsx';
import { RouteGate } from './RouteGate.tsx';
import { routes } from './routes.ts';
import { NotFoundPage } from './shell/NotFoundPage.tsx';
import { RouteError } from './shell/RouteError.tsx';

/** The route table turned into router objects: one gated, lazily loaded screen per entry. */
export function routeObjects(): RouteObject[] {
  return [
    {
      element: <Layout />,
      errorElement: <RouteError />,
      children: [
        ...routes.map((route) => ({ path: route.path, handle: route, element: <RouteGate route={route} /> })),
        { path: '*', element: <NotFoundPage /> },
      ],
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
