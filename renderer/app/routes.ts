import type { GroupConfig } from '#shared/domain/group.ts';

export type RouteName =
  | 'Root' | 'Login' | 'Auth' | 'Home' | 'Roboteka' | 'Launcher' | 'MacroRecorder' | 'NotificationsDashboard'
  | 'FlowsPanel' | 'WorkEnvironmentSetup' | 'AltasBajasDashboard' | 'FIE' | 'SmartBuilder' | 'DocumentCreator' | 'DocumentManager'
  | 'Frumecar' | 'UserProfile' | 'Payments' | 'CreditLedger' | 'Help' | 'SupportDesk' | 'Invitation' | 'Onboarding' | 'Scraper' | 'OAuthResponse' | 'OnlineForm'
  | 'Info' | 'Form' | 'DebugComponents' | 'EmailWizard';

/** What allowed() may look at: the mode and the firm's configuration (spec §6). */
export interface AllowContext {
  embedded: boolean;
  groupConfig: GroupConfig;
}

export interface RouteMeta {
  /** A public page that needs no session and no data of the user's. */
  static: boolean;
  debug: boolean;
  requiresAuth: boolean;
  allowed?: (context: AllowContext) => boolean;
  requiresPayment: boolean;
  /** Listed in the navigation menu and on Home. */
  navigation: boolean;
  topbar: boolean;
  autopilot: boolean;
}

export interface AppRoute {
  name: RouteName;
  path: string;
  /** The lazily loaded screen, as 'feature/NamePage' under renderer/features/. */
  page?: string;
  redirectTo?: string;
  meta: RouteMeta;
}

const base: RouteMeta = {
  static: false, debug: false, requiresAuth: true, requiresPayment: false,
  navigation: false, topbar: true, autopilot: false,
};
/** Signed-in screens with the shell. */
const app = (meta: Partial<RouteMeta> = {}): RouteMeta => ({ ...base, ...meta });
/** Public screens; `chrome: false` also drops the top bar. */
const open = (meta: Partial<RouteMeta> = {}): RouteMeta => ({ ...base, static: true, requiresAuth: false, topbar: false, ...meta });

const listedInConfig = (path: string) => ({ groupConfig }: AllowContext) => groupConfig.allowed_routes.includes(path);

/** The route table of spec §2, as data: the router, the guard and the menus all read it. */
export const routes: readonly AppRoute[] = [
  { name: 'Root', path: '/', redirectTo: '/home', meta: open() },
  { name: 'Login', path: '/login', redirectTo: '/auth', meta: open() },
  { name: 'Auth', path: '/auth/:mode?', page: 'auth/AuthPage', meta: open() },
  { name: 'Home', path: '/home', page: 'home/HomePage', meta: app({ navigation: true, autopilot: true }) },
  { name: 'Roboteka', path: '/roboteka', page: 'roboteka/RobotekaPage', meta: app({ navigation: true, autopilot: true }) },
  { name: 'Launcher', path: '/launcher/:id?', page: 'launcher/LauncherPage', meta: app({ autopilot: true }) },
  { name: 'MacroRecorder', path: '/recorder', page: 'recorder/RecorderPage', meta: app({ navigation: true }) },
  { name: 'NotificationsDashboard', path: '/notifications', page: 'notifications/NotificationsPage', meta: app({ navigation: true, autopilot: true }) },
  { name: 'FlowsPanel', path: '/flows/:id?', page: 'flows/FlowsPage', meta: app({ navigation: true, autopilot: true }) },
  { name: 'WorkEnvironmentSetup', path: '/workspace', page: 'workspace/WorkspacePage', meta: app({ navigation: true, autopilot: true, allowed: () => true }) },
  // The email wizard (spec §2 Email configuration wizard): reached from a machine's configs, so not a menu area.
  { name: 'EmailWizard', path: '/email', page: 'email/EmailWizardPage', meta: app({ autopilot: true }) },
  { name: 'AltasBajasDashboard', path: '/altasybajas', page: 'altasybajas/AltasBajasPage', meta: app({ navigation: true, autopilot: true }) },
  { name: 'FIE', path: '/fie', page: 'fie/FiePage', meta: app({ navigation: true, autopilot: true }) },
  {
    name: 'SmartBuilder', path: '/smartbuilder', page: 'smartbuilder/SmartBuilderPage',
    meta: app({ navigation: true, requiresPayment: true, allowed: ({ embedded }) => !embedded }),
  },
  { name: 'DocumentCreator', path: '/documentcreator', page: 'documentcreator/DocumentCreatorPage', meta: app({ navigation: true }) },
  { name: 'DocumentManager', path: '/documanager', page: 'documanager/DocumentManagerPage', meta: app({ navigation: true, allowed: listedInConfig('/documanager') }) },
  { name: 'Frumecar', path: '/frumecar', page: 'frumecar/FrumecarPage', meta: app({ navigation: true, allowed: listedInConfig('/frumecar') }) },
  { name: 'UserProfile', path: '/userprofile', page: 'userprofile/UserProfilePage', meta: app() },
  { name: 'Payments', path: '/payments', page: 'payments/PaymentsPage', meta: app() },
  { name: 'CreditLedger', path: '/payments/consumo', page: 'payments/LedgerPage', meta: app() },
  { name: 'Help', path: '/help', page: 'help/HelpPage', meta: app({ navigation: true }) },
  // The support team's desk (users.support_agent); the page and its API answer 'not found' to anyone else.
  { name: 'SupportDesk', path: '/soporte', page: 'supportdesk/SupportDeskPage', meta: app() },
  { name: 'Onboarding', path: '/onboarding', page: 'onboarding/OnboardingPage', meta: app() },
  { name: 'Scraper', path: '/scraper', page: 'scraper/ScraperPage', meta: app() },
  { name: 'Invitation', path: '/invitacion/:token', page: 'invitation/InvitationPage', meta: open() },
  { name: 'OAuthResponse', path: '/oauth-response', page: 'oauth/OAuthResponsePage', meta: open() },
  { name: 'OnlineForm', path: '/online-form/:id?', page: 'onlineform/OnlineFormPage', meta: open({ topbar: true }) },
  { name: 'Info', path: '/info', page: 'info/InfoPage', meta: open({ topbar: true }) },
  { name: 'Form', path: '/form/:context/:id?', page: 'form/FormPage', meta: open() },
  { name: 'DebugComponents', path: '/debug-components', redirectTo: '/', meta: open({ debug: true }) },
];

/** '/launcher/:id?' -> '/launcher': the form config lists (hidden_routes, allowed_routes) use. */
export function basePath(route: AppRoute): string {
  const fixed = route.path.split('/').filter((segment) => segment !== '' && !segment.startsWith(':'));
  return `/${fixed.join('/')}`;
}

export function routeByName(name: RouteName): AppRoute {
  const route = routes.find((candidate) => candidate.name === name);
  if (!route) throw new Error(`Unknown route ${name}`);
  return route;
}
