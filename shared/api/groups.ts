import { z } from 'zod/mini';

/**
 * The firm's screen settings (issue 40 §4): which screens are hidden, which opt-in screens are on
 * (/documanager, /frumecar) and the screen the app opens on. Read by every member with the session;
 * changed by the owner only.
 */
export const groupsPaths = {
  /** GET -> RouteSettings; PUT RouteSettings -> RouteSettings (owner only, 403 for a member). */
  routeSettings: '/api/groups/route-settings',
  /** PUT FirmNameRequest -> FirmNameRequest (owner only, 403 for a member). */
  firmName: '/api/groups/name',
} as const;

/** Screens a firm may hide (the rest are always shown: home, workspace, my account…). */
export const HIDEABLE_ROUTES = ['/roboteka', '/launcher', '/notifications', '/flows', '/altasybajas', '/fie', '/documentcreator', '/email', '/payments', '/help', '/scraper', '/recorder', '/smartbuilder'] as const;
/** Screens that open only when the firm turns them on (spec §2: allowed_routes). */
export const OPT_IN_ROUTES = ['/documanager', '/frumecar'] as const;
/** Screens the app may open on after sign-in. */
export const DEFAULT_ROUTE_CHOICES = ['/home', '/roboteka', '/flows', '/altasybajas', '/fie', '/notifications', '/documentcreator', '/documanager'] as const;

export const OWNER_ONLY_SETTINGS_MESSAGE = 'Solo el propietario de la asesoría puede cambiar estas opciones';

export const routeSettingsSchema = z.object({
  hidden_routes: z.array(z.enum(HIDEABLE_ROUTES)).check(z.maxLength(HIDEABLE_ROUTES.length)),
  allowed_routes: z.array(z.enum(OPT_IN_ROUTES)).check(z.maxLength(OPT_IN_ROUTES.length)),
  defaultRoute: z.enum(DEFAULT_ROUTE_CHOICES),
});
export type RouteSettings = z.infer<typeof routeSettingsSchema>;

/**
 * The firm's name (issue 44 §6): what colleagues are invited to, what companies read in the altas and
 * form mails, and what support sees. It starts as the owner's name, so Mi cuenta lets the owner set it.
 */
export const firmNameSchema = z.object({
  name: z
    .string({ error: 'Escribe el nombre de la asesoría' })
    .check(z.trim(), z.minLength(2, 'Escribe el nombre de la asesoría (al menos 2 caracteres)'), z.maxLength(120, 'El nombre no puede superar los 120 caracteres')),
});
export type FirmNameRequest = z.infer<typeof firmNameSchema>;
