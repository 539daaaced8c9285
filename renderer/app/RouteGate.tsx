import { lazy, Suspense, useEffect, useRef } from 'react';
import { useNavigate } from 'react-router-dom';
import { restoreSession } from '../api/session.ts';
import { decideRoute } from './guard.ts';
import type { SubscriptionState } from './guard.ts';
import { useAppDispatch } from './hooks.ts';
import { lazyPage, pageLoader } from './pages.ts';
import { useRouteContext } from './routeContext.ts';
import type { AppRoute } from './routes.ts';
import { targetConsumed, targetSaved } from './session.ts';
import { forgetHiddenCreditBanner } from './shell/creditBannerDismissal.ts';
import { NotFoundPage } from './shell/NotFoundPage.tsx';
import { LoadingScreen, Splash } from './shell/Splash.tsx';
import { uiCleared } from './ui.ts';

// Only payment-gated routes (under PaidRouteGate) ever ask for it.
const PaymentRequiredModal = lazy(async () => ({ default: (await import('./shell/PaymentRequiredModal.tsx')).PaymentRequiredModal }));

/**
 * Carries out decideRoute for one route: restore the session, redirect, ask for payment, or show the
 * screen. `subscription` stays unknown except under PaidRouteGate.
 */
export function RouteGate({ route, subscription = 'unknown' }: { route: AppRoute; subscription?: SubscriptionState }) {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const context = useRouteContext(subscription);
  const decision = decideRoute(route, context);

  const isAuth = route.name === 'Auth';
  useEffect(() => {
    if (!isAuth) return;
    dispatch(uiCleared());
    // A sign-in starts with the credit banner shown again.
    forgetHiddenCreditBanner();
  }, [isAuth, dispatch]);

  const redirectTo = decision.kind === 'redirect' ? decision.to : null;
  const saveTarget = decision.kind === 'redirect' ? decision.saveTarget : undefined;
  const consumeTarget = decision.kind === 'redirect' && decision.consumeTarget === true;
  const restore = decision.kind === 'restore-session';

  useEffect(() => {
    if (restore) void dispatch(restoreSession());
  }, [restore, dispatch]);

  // While the session is being checked, fetch the screen's code alongside: on a first visit the
  // screen then shows as soon as the answer comes, not one more download later (the page's LCP).
  const checking = decision.kind === 'restore-session' || decision.kind === 'wait';
  const load = route.page ? pageLoader(route.page) : undefined;
  useEffect(() => {
    if (checking && load) load().catch(() => undefined); // a failed load shows through the lazy page itself
  }, [checking, load]);

  // One redirect per location: consuming the saved target re-renders this gate before the
  // navigation lands, and that render must not redirect again to the fallback.
  const redirectedFrom = useRef<string | null>(null);
  const here = context.location;
  useEffect(() => {
    if (redirectTo === null || redirectedFrom.current === here) return;
    redirectedFrom.current = here;
    if (saveTarget !== undefined) dispatch(targetSaved(saveTarget));
    navigate(redirectTo, { replace: true });
    if (consumeTarget) dispatch(targetConsumed());
  }, [redirectTo, saveTarget, consumeTarget, here, dispatch, navigate]);

  switch (decision.kind) {
    case 'render': {
      const Page = route.page ? lazyPage(route.page) : undefined;
      if (!Page) return <NotFoundPage />;
      return (
        <Suspense fallback={<LoadingScreen />}>
          <Page />
        </Suspense>
      );
    }
    case 'payment-required':
      return (
        <Suspense fallback={null}>
          <PaymentRequiredModal onClose={() => navigate('/', { replace: true })} />
        </Suspense>
      );
    case 'redirect':
      return null;
    default:
      return <Splash />;
  }
}
