import { matchRoutes, Outlet, useLocation } from 'react-router-dom';
import { AutopilotDock } from '../features/autopilot/AutopilotDock.tsx';
import { useAppSelector, useSession } from './hooks.ts';
import { routes } from './routes.ts';
import { CreditBanner } from './shell/CreditBanner.tsx';
import { Drawer } from './shell/Drawer.tsx';
import { Navigation } from './shell/Navigation.tsx';
import { RunNotification } from './shell/RunNotification.tsx';
import { Toasts } from './shell/Toasts.tsx';
import { TopBar } from './shell/TopBar.tsx';
import { UpdatePrompt } from './shell/UpdatePrompt.tsx';

// The routes drawn inside the shell; the router only nests routes with meta.topbar here.
const shellRoutes = routes.filter((route) => route.meta.topbar);

/** The shell around every screen; the chrome shows on routes whose meta asks for it, once signed in. */
export function Layout() {
  const location = useLocation();
  const route = matchRoutes(shellRoutes, location)?.at(-1)?.route;
  const { status } = useSession();
  const menuOpen = useAppSelector((state) => state.ui.menuOpen);
  const signedIn = status === 'authenticated';
  const chrome = signedIn && (route?.meta.topbar ?? false);
  const navigation = chrome && route?.meta.requiresAuth === true;
  const signedInScreen = signedIn && route?.meta.requiresAuth === true;
  const autopilot = signedInScreen && route?.meta.autopilot === true;

  return (
    <div className="app">
      {chrome && <TopBar menuOpen={menuOpen} />}
      {chrome && <Drawer open={menuOpen} />}
      {/* Always mounted, so the desktop is asked once per sign-in rather than on every route change. */}
      <UpdatePrompt active={signedInScreen} />
      <div className="app-body">
        {navigation && <Navigation />}
        <div className="app-content">
          <Outlet />
        </div>
      </div>
      {(navigation || autopilot) && (
        // The bottom edge: the credit banner, and the autopilot's button floating just above it.
        <div className="app-bottom">
          {/* Mounted across the routes that show it, so an open panel stays open while moving between them. */}
          {autopilot && <AutopilotDock />}
          {navigation && <CreditBanner />}
        </div>
      )}
      {signedIn && <RunNotification />}
      <Toasts />
    </div>
  );
}
