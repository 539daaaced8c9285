import { z } from 'zod/mini';
import { SCHEDULE_INTERVALS } from '../schedule/next-run.ts';

/**
 * The autopilot as the desktop keeps it (main/autopilot/) and the panel shows it (spec §2 Autopilot
 * panel, §3 Task and Autopilot app, §4 Autopilot app). One snapshot travels whole: the bridge answers
 * GetAutopilot and every change with it, and pushes it as the Autopilot event.
 */

export const AUTOPILOT_APP_IDS = ['robots', 'altas', 'notificaciones'] as const;
export type AutopilotAppId = (typeof AUTOPILOT_APP_IDS)[number];
/** The apps that work with the firm's certificates ('Añadir certificado'). */
export const CERTIFICATE_APP_IDS = ['altas', 'notificaciones'] as const satisfies readonly AutopilotAppId[];
export type CertificateAppId = (typeof CERTIFICATE_APP_IDS)[number];

export const AUTOPILOT_TEXT = {
  buttonEmbedded: 'Piloto automático',
  buttonReadOnly: 'Robots programados',
  tasksTitle: 'Robots programados',
  appsTitle: 'Control de aplicaciones',
  allApps: 'Activar / Desactivar todas',
  emptyEmbedded: 'No tienes ningún proceso automatizado',
  emptyReadOnly: 'Esperando automatizaciones',
  playReady: 'Los procesos se lanzarán automáticamente',
  playIdle: 'No hay nada que lanzar',
  exitHint: 'Haz doble click fuera para salir',
  addCertificate: 'Añadir certificado',
  certificateNeeded: 'Añade un certificado para activar esta función',
} as const;

/** Spec §9 timings: apps refresh every 20 s; the loop looks for a due task every 3 s (we look every second). */
export const AUTOPILOT_REFRESH_MS = 20_000;

export const autopilotCertificateSchema = z.object({
  fingerprint: z.string().check(z.regex(/^[0-9a-f]{64}$/, 'La huella del certificado no es válida')),
  /** Shown in the panel (spec: chosen certificates are listed by common name). */
  commonName: z.string().check(z.minLength(1), z.maxLength(400)),
});
export type AutopilotCertificate = z.infer<typeof autopilotCertificateSchema>;

export const autopilotAppSchema = z.object({
  id: z.enum(AUTOPILOT_APP_IDS),
  title: z.string(),
  description: z.string(),
  /** The user's switch for this app. */
  enabled: z.boolean(),
  /** Spec §4: the general switch on, this app on, and a certificate when it needs one (and the app can load). */
  active: z.boolean(),
  /** False while its load function does not exist yet (Notificaciones): it cannot be switched on. */
  available: z.boolean(),
  /** Why it cannot be switched on, in Spanish; null when available. */
  unavailableReason: z.nullable(z.string()),
  needsCertificates: z.boolean(),
  /** certsConfig.multiple: more than one certificate may be chosen. */
  multipleCertificates: z.boolean(),
  certificates: z.array(autopilotCertificateSchema),
  refreshEveryMs: z.number(),
  /** When its refresh timer fires next (the countdown ring); null while inactive. */
  nextRefreshAt: z.nullable(z.string()),
  /** Its last load failed: why, in Spanish; null when fine. */
  problem: z.nullable(z.string()),
});
export type AutopilotApp = z.infer<typeof autopilotAppSchema>;

export const autopilotTaskSchema = z.object({
  /** 'flow:<scheduleId>' for a scheduled flow; '<app>:<key>' for an app's own task. */
  id: z.string(),
  app: z.enum(AUTOPILOT_APP_IDS),
  title: z.string(),
  description: z.string(),
  scheduledDate: z.string(),
  done: z.boolean(),
  removing: z.boolean(),
  executionInProgress: z.boolean(),
  repeat: z.nullable(z.object({ every: z.number(), interval: z.enum(SCHEDULE_INTERVALS) })),
  info: z.array(z.object({ text: z.string(), icon: z.string(), tooltip: z.nullable(z.string()) })),
  items: z.array(z.string()),
  canBeRemoved: z.boolean(),
  /** The server run of its last (or current) launch, for the history. */
  runId: z.nullable(z.string()),
  /** The schedule on the server, for a scheduled flow. */
  scheduleId: z.nullable(z.string()),
});
export type AutopilotTask = z.infer<typeof autopilotTaskSchema>;

export const autopilotSnapshotSchema = z.object({
  /** The general switch ('Activar / Desactivar todas'). */
  enabled: z.boolean(),
  /** The execution loop is running: always in the agent; in the desktop app while the panel is open. */
  looping: z.boolean(),
  /** This PC holds a device token; without one there is nothing to pull or launch. */
  linked: z.boolean(),
  apps: z.array(autopilotAppSchema),
  tasks: z.array(autopilotTaskSchema),
  at: z.string(),
});
export type AutopilotSnapshot = z.infer<typeof autopilotSnapshotSchema>;

export const autopilotSwitchArgsSchema = z.strictObject({
  /** 'all' is the general switch. */
  app: z.enum(['all', ...AUTOPILOT_APP_IDS]),
  enabled: z.boolean(),
});

export const autopilotCertificatesArgsSchema = z.strictObject({
  app: z.enum(CERTIFICATE_APP_IDS),
  certificates: z.array(autopilotCertificateSchema).check(z.maxLength(50)),
});

/** Spec §4 Autopilot app: active = general switch, app switch, a certificate where needed, and loadable. */
export function isAppActive(generalSwitch: boolean, app: Pick<AutopilotApp, 'enabled' | 'available' | 'needsCertificates' | 'certificates'>): boolean {
  return generalSwitch && app.enabled && app.available && (!app.needsCertificates || app.certificates.length > 0);
}

/** The panel's warning: the app is switched on but has no certificate to work with. */
export function needsCertificateWarning(app: Pick<AutopilotApp, 'enabled' | 'needsCertificates' | 'certificates'>): boolean {
  return app.enabled && app.needsCertificates && app.certificates.length === 0;
}
