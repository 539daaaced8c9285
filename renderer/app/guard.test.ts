import { describe, expect, it } from 'vitest';
import type { UserData } from '#shared/domain/user.ts';
import type { GroupConfig } from '#shared/domain/group.ts';
import { afterLoginPath, decideRoute } from './guard.ts';
import type { RouteContext } from './guard.ts';
import { basePath, routeByName, routes } from './routes.ts';

function user(config: Partial<GroupConfig> = {}): UserData {
  return {
    uid: 'u1', email: 'ana@asesoria.es', name: 'Ana', language: 'es', emailValidated: true,
    group: { id: 'g1', name: 'Asesoría', config: { allowed_routes: [], hidden_routes: [], ...config } },
    config: {}, usedSlans: 0, role: 'owner', supportAgent: false,
  };
}

function signedIn(overrides: Partial<RouteContext> = {}, config: Partial<GroupConfig> = {}): RouteContext {
  return { embedded: false, session: 'authenticated', user: user(config), subscription: 'active', location: '/home', redirectTarget: null, ...overrides };
}

const anonymous = (overrides: Partial<RouteContext> = {}): RouteContext =>
  ({ embedded: false, session: 'anonymous', user: null, subscription: 'unknown', location: '/fie?x=1', redirectTarget: null, ...overrides });

describe('the route table', () => {
  it('covers every path of spec §2 once', () => {
    const paths = routes.map((route) => route.path);
    expect(new Set(paths).size).toBe(paths.length);
    for (const path of ['/', '/login', '/auth/:mode?', '/home', '/roboteka', '/launcher/:id?', '/recorder', '/notifications', '/flows/:id?',
      '/workspace', '/altasybajas', '/fie', '/smartbuilder', '/documanager', '/frumecar', '/userprofile', '/payments', '/help',
      '/onboarding', '/scraper', '/oauth-response', '/online-form/:id?', '/info', '/form/:context/:id?', '/debug-components', '/email']) {
      expect(paths).toContain(path);
    }
  });

  it('drops parameters from the base path config lists use', () => {
    expect(basePath(routeByName('Launcher'))).toBe('/launcher');
    expect(basePath(routeByName('Form'))).toBe('/form');
    expect(basePath(routeByName('Root'))).toBe('/');
  });

  it('opens the email wizard signed in, with the shell, reached from a machine rather than the menu', () => {
    const wizard = routeByName('EmailWizard');
    expect(wizard).toMatchObject({ path: '/email', page: 'email/EmailWizardPage' });
    expect(wizard.meta).toMatchObject({ requiresAuth: true, static: false, topbar: true, navigation: false });
    expect(decideRoute(wizard, anonymous({ location: '/email?machine=m1' }))).toEqual({ kind: 'redirect', to: '/auth', saveTarget: '/email?machine=m1' });
    expect(decideRoute(wizard, signedIn({ embedded: true }))).toEqual({ kind: 'render' });
  });

  it('keeps the chrome off the public pages that have none', () => {
    expect(routeByName('OAuthResponse').meta.topbar).toBe(false);
    expect(routeByName('Form').meta.topbar).toBe(false);
    expect(routeByName('OAuthResponse').meta.requiresAuth).toBe(false);
    expect(routeByName('Info').meta.requiresAuth).toBe(false);
  });
});

describe('decideRoute', () => {
  it('redirects / to /home, /login to /auth and the debug route to /', () => {
    expect(decideRoute(routeByName('Root'), anonymous())).toEqual({ kind: 'redirect', to: '/home' });
    expect(decideRoute(routeByName('Login'), signedIn())).toEqual({ kind: 'redirect', to: '/auth' });
    expect(decideRoute(routeByName('DebugComponents'), signedIn())).toEqual({ kind: 'redirect', to: '/' });
  });

  it('first tries to restore an unknown session on a protected route, and waits while it runs', () => {
    const fie = routeByName('FIE');
    expect(decideRoute(fie, anonymous({ session: 'unknown' }))).toEqual({ kind: 'restore-session' });
    expect(decideRoute(fie, anonymous({ session: 'restoring' }))).toEqual({ kind: 'wait' });
  });

  it('sends an anonymous visitor to Auth and saves where they wanted to go', () => {
    expect(decideRoute(routeByName('FIE'), anonymous())).toEqual({ kind: 'redirect', to: '/auth', saveTarget: '/fie?x=1' });
  });

  it('renders public pages without a session', () => {
    for (const name of ['OAuthResponse', 'OnlineForm', 'Info', 'Form'] as const) {
      expect(decideRoute(routeByName(name), anonymous({ session: 'unknown' }))).toEqual({ kind: 'render' });
    }
    expect(decideRoute(routeByName('Auth'), anonymous({ location: '/auth' }))).toEqual({ kind: 'render' });
  });

  it('on a fresh /auth first asks whether a session is still open, and shows the form only to a visitor without one', () => {
    const auth = routeByName('Auth');
    expect(decideRoute(auth, anonymous({ session: 'unknown', location: '/auth' }))).toEqual({ kind: 'restore-session' });
    expect(decideRoute(auth, anonymous({ session: 'restoring', location: '/auth/signup' }))).toEqual({ kind: 'wait' });
    expect(decideRoute(auth, anonymous({ location: '/auth/signup' }))).toEqual({ kind: 'render' });
    // The emailed link needs no session: it opens at once, whatever the session state.
    expect(decideRoute(auth, anonymous({ session: 'unknown', location: '/auth/emailvalidation?email=a%40b.es&token=t' }))).toEqual({ kind: 'render' });
  });

  it('sends a signed-in user who opens /login or any /auth screen on: saved target, else default route, else Root', () => {
    const auth = routeByName('Auth');
    expect(decideRoute(routeByName('Login'), signedIn({ location: '/login' }))).toEqual({ kind: 'redirect', to: '/auth' });
    for (const location of ['/auth', '/auth/signin', '/auth/signup', '/auth/reset']) {
      expect(decideRoute(auth, signedIn({ location }))).toEqual({ kind: 'redirect', to: '/', consumeTarget: true });
      expect(decideRoute(auth, signedIn({ location }, { defaultRoute: '/fie' }))).toEqual({ kind: 'redirect', to: '/fie', consumeTarget: true });
      expect(decideRoute(auth, signedIn({ location, redirectTarget: '/payments' }, { defaultRoute: '/fie' })))
        .toEqual({ kind: 'redirect', to: '/payments', consumeTarget: true });
    }
  });

  it('after login leaves Auth for the saved target, else the default route, else Root', () => {
    const auth = routeByName('Auth');
    expect(decideRoute(auth, signedIn({ redirectTarget: '/fie?x=1' }, { defaultRoute: '/flows' })))
      .toEqual({ kind: 'redirect', to: '/fie?x=1', consumeTarget: true });
    expect(decideRoute(auth, signedIn({}, { defaultRoute: '/flows' }))).toEqual({ kind: 'redirect', to: '/flows', consumeTarget: true });
    expect(decideRoute(auth, signedIn())).toEqual({ kind: 'redirect', to: '/', consumeTarget: true });
    expect(afterLoginPath({ redirectTarget: null, user: null })).toBe('/');
  });

  it('shows the emailed validation link to a signed-in user too, but no other Auth screen', () => {
    const auth = routeByName('Auth');
    expect(decideRoute(auth, signedIn({ location: '/auth/emailvalidation?email=ana%40asesoria.es&token=t' }))).toEqual({ kind: 'render' });
    expect(decideRoute(auth, signedIn({ location: '/auth/emailvalidation' }))).toEqual({ kind: 'render' });
    expect(decideRoute(auth, signedIn({ location: '/auth/emailvalidationx' })).kind).toBe('redirect');
    expect(decideRoute(auth, signedIn({ location: '/auth/reset?token=t' })).kind).toBe('redirect');
  });

  it('redirects hidden routes to / but never hides Home, Root or Auth', () => {
    const hidden = { hidden_routes: ['/payments', '/launcher', '/home'] };
    expect(decideRoute(routeByName('Payments'), signedIn({}, hidden))).toEqual({ kind: 'redirect', to: '/' });
    expect(decideRoute(routeByName('Launcher'), signedIn({ location: '/launcher/42' }, hidden))).toEqual({ kind: 'redirect', to: '/' });
    expect(decideRoute(routeByName('Home'), signedIn({}, hidden))).toEqual({ kind: 'render' });
  });

  it('opens /documanager and /frumecar only when allowed_routes lists them', () => {
    for (const name of ['DocumentManager', 'Frumecar'] as const) {
      const route = routeByName(name);
      expect(decideRoute(route, signedIn())).toEqual({ kind: 'redirect', to: '/' });
      expect(decideRoute(route, signedIn({}, { allowed_routes: [basePath(route)] }))).toEqual({ kind: 'render' });
    }
  });

  it('always allows /workspace, in the desktop app and on the web', () => {
    const workspace = routeByName('WorkEnvironmentSetup');
    expect(decideRoute(workspace, signedIn())).toEqual({ kind: 'render' });
    expect(decideRoute(workspace, signedIn({ embedded: true }))).toEqual({ kind: 'render' });
  });

  it('allows /smartbuilder only outside the desktop app', () => {
    const smartBuilder = routeByName('SmartBuilder');
    expect(decideRoute(smartBuilder, signedIn({ embedded: true }))).toEqual({ kind: 'redirect', to: '/' });
    expect(decideRoute(smartBuilder, signedIn())).toEqual({ kind: 'render' });
  });

  it('asks for payment on /smartbuilder without an active subscription, after it is known', () => {
    const smartBuilder = routeByName('SmartBuilder');
    expect(decideRoute(smartBuilder, signedIn({ subscription: 'unknown' }))).toEqual({ kind: 'wait' });
    expect(decideRoute(smartBuilder, signedIn({ subscription: 'inactive' }))).toEqual({ kind: 'payment-required' });
  });

  it('does not check payment on routes that do not need it', () => {
    expect(decideRoute(routeByName('FIE'), signedIn({ subscription: 'inactive' }))).toEqual({ kind: 'render' });
  });
});
