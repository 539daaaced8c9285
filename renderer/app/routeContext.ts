import { useLocation } from 'react-router-dom';
import type { RouteContext, SubscriptionState } from './guard.ts';
import { useEmbedded, useSession } from './hooks.ts';

/**
 * Everything decideRoute needs, read from the store, the mode and the router. The subscription
 * comes from PaidRouteGate, the only gate that asks for it (routes with meta.requiresPayment).
 */
export function useRouteContext(subscription: SubscriptionState): RouteContext {
  const session = useSession();
  const embedded = useEmbedded();
  const location = useLocation();
  return {
    embedded,
    session: session.status,
    user: session.user,
    subscription,
    location: `${location.pathname}${location.search}`,
    redirectTarget: session.redirectTarget,
  };
}
