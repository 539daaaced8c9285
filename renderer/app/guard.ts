import type { GroupConfig } from '#shared/domain/group.ts';
import type { UserData } from '#shared/domain/user.ts';
import { basePath } from './routes.ts';
import type { AppRoute } from './routes.ts';
import type { SessionStatus } from './session.ts';

export type SubscriptionState = 'unknown' | 'active' | 'inactive';

export interface RouteContext {
  embedded: boolean;
  session: SessionStatus;
  user: UserData | null;
  subscription: SubscriptionState;
  /** Where the user is now (path + query): what gets saved when they must sign in first. */
  location: string;
  redirectTarget: string | null;
}

export type RouteDecision =
  | { kind: 'render' }
  | { kind: 'redirect'; to: string; saveTarget?: string; consumeTarget?: boolean }
  | { kind: 'restore-session' }
  | { kind: 'wait' }
  | { kind: 'payment-required' };

export const AUTH_PATH = '/auth';
export const ROOT_PATH = '/';
/** Never hidden: hiding them would send the user round in circles. */
const UNHIDEABLE = new Set(['Root', 'Home', 'Auth']);

const render: RouteDecision = { kind: 'render' };

export function emptyGroupConfig(): GroupConfig {
  return { allowed_routes: [], hidden_routes: [] };
}

/** After login: the saved target, else the group's default route, else Root (spec §4). */
export function afterLoginPath(context: Pick<RouteContext, 'redirectTarget' | 'user'>): string {
  return context.redirectTarget ?? context.user?.group.config.defaultRoute ?? ROOT_PATH;
}

export function isHidden(route: AppRoute, groupConfig: GroupConfig): boolean {
  return !UNHIDEABLE.has(route.name) && groupConfig.hidden_routes.includes(basePath(route));
}

/** Whether the user may open the route at all (allowed() and hidden_routes); menus use it too. */
export function isReachable(route: AppRoute, embedded: boolean, groupConfig: GroupConfig): boolean {
  if (isHidden(route, groupConfig)) return false;
  return route.meta.allowed?.({ embedded, groupConfig }) ?? true;
}

/** The emailed validation link works whoever is signed in: its token alone decides. */
function isEmailValidationLink(location: string): boolean {
  return /^\/auth\/emailvalidation\/?(\?|$)/.test(location);
}

/**
 * The route guard as a pure function: what to do when `route` is about to open in `context`.
 * The RouteGate component carries the decision out (restore, redirect, modal, render).
 */
export function decideRoute(route: AppRoute, context: RouteContext): RouteDecision {
  if (route.redirectTo !== undefined) return { kind: 'redirect', to: route.redirectTo };

  if (route.name === 'Auth') {
    if (isEmailValidationLink(context.location)) return render;
    // A fresh load of /auth (or /login) by someone whose session cookie is still good must not
    // show the sign-in form: ask the server first, then send them on like after a login.
    if (context.session === 'unknown') return { kind: 'restore-session' };
    if (context.session === 'restoring') return { kind: 'wait' };
    if (context.session === 'authenticated') return { kind: 'redirect', to: afterLoginPath(context), consumeTarget: true };
    return render;
  }

  if (route.meta.requiresAuth) {
    if (context.session === 'unknown') return { kind: 'restore-session' };
    if (context.session === 'restoring') return { kind: 'wait' };
    if (context.session === 'anonymous' || !context.user) return { kind: 'redirect', to: AUTH_PATH, saveTarget: context.location };
  }

  const groupConfig = context.user?.group.config;
  if (groupConfig && !isReachable(route, context.embedded, groupConfig)) return { kind: 'redirect', to: ROOT_PATH };
  if (!groupConfig && route.meta.allowed && !route.meta.allowed({ embedded: context.embedded, groupConfig: emptyGroupConfig() })) {
    return { kind: 'redirect', to: ROOT_PATH };
  }

  if (route.meta.requiresPayment) {
    if (context.subscription === 'unknown') return { kind: 'wait' };
    if (context.subscription === 'inactive') return { kind: 'payment-required' };
  }
  return render;
}
