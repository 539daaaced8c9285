import { NavLink } from 'react-router-dom';
import { es } from '../../i18n/es.ts';
import { emptyGroupConfig, isReachable } from '../guard.ts';
import { useEmbedded, useSession } from '../hooks.ts';
import { basePath, routes } from '../routes.ts';
import type { AppRoute } from '../routes.ts';

type NavName = keyof typeof es.nav;
const isNavName = (name: string): name is NavName => name in es.nav;

/** The routes with meta.navigation that this user may open here: allowed() and not hidden. */
export function useNavigationRoutes(): { route: AppRoute; label: string; to: string }[] {
  const { user } = useSession();
  const embedded = useEmbedded();
  const config = user?.group.config ?? emptyGroupConfig();
  return routes
    .filter((route) => route.meta.navigation && isReachable(route, embedded, config))
    .map((route) => ({ route, label: isNavName(route.name) ? es.nav[route.name] : route.name, to: basePath(route) }));
}

export function Navigation() {
  const links = useNavigationRoutes();
  return (
    <nav className="app-nav" aria-label={es.nav.mainNavigation}>
      <ul>
        {links.map(({ route, label, to }) => (
          <li key={route.name}>
            <NavLink to={to}>{label}</NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}
