import { lazy, Suspense } from 'react';
import { BrowserRouter, Outlet, Route, Routes, useLocation } from 'react-router-dom';
import { RouteGate } from './RouteGate.tsx';
import { routes, type AppRoute } from './routes.ts';
import { NotFoundPage } from './shell/NotFoundPage.tsx';
import { RouteErrorBoundary } from './shell/RouteError.tsx';
import { LoadingScreen } from './shell/Splash.tsx';
import { Toasts } from './shell/Toasts.tsx';

/*
 * React Router's component router (<BrowserRouter> + <Routes>), not its data router: the app loads
 * no route data through the router (RTK Query and the gates do), and the data router's extra code
 * (loaders, actions, fetchers, revalidation) would be ~16 KB gzip more on every first visit.
 */

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

/** The shell loads with the first route that can show it. */
const Layout = lazy(async () => ({ default: (await import('./Layout.tsx')).Layout }));
const PaidRouteGate = lazy(() => import('./PaidRouteGate.tsx'));

/** A route's gate; payment-gated ones load the subscription check (and RTK Query) with them. */
function gateFor(route: AppRoute) {
  if (!route.meta.requiresPayment) return <RouteGate route={route} />;
  return (
    <Suspense fallback={<LoadingScreen />}>
      <PaidRouteGate route={route} />
    </Suspense>
  );
}

const gated = (route: AppRoute) => <Route key={route.name} path={route.path} element={gateFor(route)} />;

/** The route table as routes: one gated, lazily loaded screen per entry, public ones without the shell. */
export function AppRoutes() {
  const { pathname } = useLocation();
  return (
    // A screen that throws (or whose code fails to load) shows the error page until the next navigation.
    <RouteErrorBoundary resetKey={pathname}>
      <Routes>
        <Route element={<PublicFrame />}>
          {routes.filter((route) => !route.meta.topbar).map(gated)}
          <Route path="*" element={<NotFoundPage />} />
        </Route>
        <Route
          element={
            <Suspense fallback={<LoadingScreen />}>
              <Layout />
            </Suspense>
          }
        >
          {routes.filter((route) => route.meta.topbar).map(gated)}
        </Route>
      </Routes>
    </RouteErrorBoundary>
  );
}

/** Browser history, as the spec asks (§2). */
export function AppRouter() {
  return (
    <BrowserRouter>
      <AppRoutes />
    </BrowserRouter>
  );
}
