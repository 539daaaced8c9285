import { useLauncherSubscriptionQuery } from '../api/account.ts';
import type { SubscriptionState } from './guard.ts';
import { useSession } from './hooks.ts';
import { RouteGate } from './RouteGate.tsx';
import type { AppRoute } from './routes.ts';

/**
 * The gate of a payment-gated route (meta.requiresPayment): RouteGate with the launcher
 * subscription, asked once the session is known. Its own module, loaded only by those routes,
 * because the subscription query needs RTK Query, which the sign-in screen does without.
 */
export default function PaidRouteGate({ route }: { route: AppRoute }) {
  const { status } = useSession();
  const { data, isError } = useLauncherSubscriptionQuery(undefined, { skip: status !== 'authenticated' });
  let subscription: SubscriptionState = 'unknown';
  if (data) subscription = data.active ? 'active' : 'inactive';
  else if (isError) subscription = 'inactive';
  return <RouteGate route={route} subscription={subscription} />;
}
