import { es } from '../i18n/es.ts';
import { emptyGroupConfig, isReachable } from './guard.ts';
import { useEmbedded, useSession } from './hooks.ts';
import { basePath, routes } from './routes.ts';
import type { AppRoute } from './routes.ts';

// Its own module, not hooks.ts: the menu labels need every area's name (es.ts), which the sign-in
// screen, importing hooks.ts, does not.

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
