import { Outlet, useMatches } from 'react-router-dom';
import { useAppSelector, useSession } from './hooks.ts';
import type { AppRoute } from './routes.ts';
import { CreditBanner } from './shell/CreditBanner.tsx';
import { Drawer } from './shell/Drawer.tsx';
import { Navigation } from './shell/Navigation.tsx';
import { RunNotification } from './shell/RunNotification.tsx';
import { Toasts } from './shell/Toasts.tsx';
import { TopBar } from './shell/TopBar.tsx';
import { UpdatePrompt } from './shell/UpdatePrompt.tsx';

function isAppRoute(handle: unknown): handle is AppRoute {
  return typeof handle === 'object' && handle !== null && 'meta' in handle && 'name' in handle;
}

/** The shell around every screen; the chrome shows on routes whose meta asks for it, once signed in. */
export function Layout() {
  const matches = useMatches();
  const route = matches.map((match) => match.handle).filter(isAppRoute).at(-1);
  const { status } = useSession();
  const menuOpen = useAppSelector((state) => state.ui.menuOpen);
  const signedIn = status === 'authenticated';
  const chrome = signedIn && (route?.meta.topbar ?? false);
  const navigation = chrome && route?.meta.requiresAuth === true;
  const signedInScreen = signedIn && route?.meta.requiresAuth === true;

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
      {navigation && <CreditBanner />}
      {signedIn && <RunNotification />}
      <Toasts />
    </div>
  );
}
