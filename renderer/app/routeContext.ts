import { useLocation } from 'react-router-dom';
import { useLauncherSubscriptionQuery } from '../api/account.ts';
import type { RouteContext, SubscriptionState } from './guard.ts';
import { useEmbedded, useSession } from './hooks.ts';
import type { AppRoute } from './routes.ts';

/** Everything decideRoute needs, read from the store, the mode and the router. */
export function useRouteContext(route: AppRoute): RouteContext {
  const session = useSession();
  const embedded = useEmbedded();
  const location = useLocation();
  const needsSubscription = route.meta.requiresPayment && session.status === 'authenticated';
  const { data, isError } = useLauncherSubscriptionQuery(undefined, { skip: !needsSubscription });
  let subscription: SubscriptionState = 'unknown';
  if (data) subscription = data.active ? 'active' : 'inactive';
  else if (isError) subscription = 'inactive';

  return {
    embedded,
    session: session.status,
    user: session.user,
    subscription,
    location: `${location.pathname}${location.search}`,
    redirectTarget: session.redirectTarget,
  };
}
