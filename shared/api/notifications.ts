import { z } from 'zod/mini';

/**
 * DEHÚ notifications (spec §2 Notifications screen, §3 Notification, §4 Notifications, §7
 * notifications; issue 24). The desktop reads each watched certificate's DEHÚ mailbox through LEMA
 * (main/dehu/) and upserts what it found here; the screen queries it. Everything belongs to the
 * caller's firm (group): another firm's notification, document or watched certificate answers 404 and
 * is never listed. The advisor's calls take a session; the robot's calls take a linked device's token
 * (`Authorization: Device <token>`) and act for that device's machine.
 */
export const notificationsPaths = {
  /** GET NotificationsQuery -> NotificationsPage (server-paginated). */
  list: '/api/notifications',
  /** GET -> NotificationDetail (with its stored documents). */
  one: '/api/notifications/:id',
  /**
   * GET -> the document's bytes under `default-src 'none'; sandbox` and nosniff: the notice and the acuse
   * (PDFs) inline as application/pdf, framable by the web app only; an annex always as a download.
   */
  document: '/api/notifications/:id/documents/:documentId',
  /** GET -> WatchedCertificatesResponse; PUT WatchedCertificatesUpdate -> WatchedCertificatesResponse (replaces the set). */
  certificates: '/api/notifications/certificates',
  /** GET -> NotificationsSummary: the Home banner (new in the last day, expiring within 3 days). */
  summary: '/api/notifications/summary',

  // The desktop's calls (device token).
  /** GET -> { items: RobotCertificate[] }: the watched certificates that live on the calling machine. */
  robotCertificates: '/api/notifications/robot/certificates',
  /** POST RobotStatus -> 204: one certificate's update started, finished or failed (the screen's progress). */
  robotStatus: '/api/notifications/robot/status',
  /** POST RobotUpsert -> { added, updated }: what Localiza / LocalizaRealizadas found for one certificate. */
  robotUpsert: '/api/notifications/robot/upsert',
  /** GET -> RobotAccess: what PeticionAcceso needs (identificador, codigoOrigen, concepto, certificate). */
  robotAccess: '/api/notifications/robot/:id',
  /**
   * POST multipart, one file in field `file`, query RobotDocumentQuery -> NotificationDocument (201): one
   * document of an opened notification (the notice, an annex, the acuse). Judged by content: the notice
   * and the acuse must be PDFs, an annex a PDF, PNG, JPEG, GIF, TIFF or zip (anything else 415, nothing
   * kept); at most NOTIFICATION_DOCUMENT_MAX_BYTES; the same kind and name again replaces it. Only the
   * machine that holds the notification's certificate may (403), as for `robotOpened`.
   */
  robotDocuments: '/api/notifications/robot/:id/documents',
  /** POST RobotOpened -> NotificationDetail: PeticionAcceso succeeded (comparecencia): the state moves to realizadas. The certificate's machine only (403). */
  robotOpened: '/api/notifications/robot/:id/opened',
} as const;

/** The local process (and catalogue flow) that updates a machine's watched certificates from a remote launch. */
export const UPDATE_NOTIFICATIONS_FLOW_ID = 'actualizar-notificaciones-dehu';
export const UPDATE_NOTIFICATIONS_PROCESS = 'update-dehu-notifications';

export const NOTIFICATIONS_PAGE_SIZES = [10, 25, 50, 100] as const;
export const NOTIFICATIONS_DEFAULT_PAGE_SIZE = 25;
/** Art. 43.2 Ley 39/2015: a notification not opened within 10 natural days of its puesta a disposición is rejected (delivered). */
export const CADUCIDAD_DAYS = 10;
/** The Home banner and the digest warn of pending notifications expiring within this many days. */
export const EXPIRING_SOON_DAYS = 3;
export const NOTIFICATION_DOCUMENT_MAX_BYTES = 20_000_000;
export const NOTIFICATIONS_MAX_UPSERT = 1000;
/** Issue 39 (2): bytes of one upsert body; the desktop sends its lists in pages within it (shared/api/pages.ts). */
export const NOTIFICATIONS_UPSERT_BODY_LIMIT = 512 * 1024;
export const NOTIFICATIONS_MAX_WATCHED = 200;

/** Spec §8 and §5 texts. */
export const NO_NOTIFICATIONS_MESSAGE = 'Todavía no has actualizado ninguna notificación...';
export const CERTIFICATE_REQUIRED_MESSAGE = 'Necesitas seleccionar un certificado para continuar.';
export const CERTIFICATE_NOT_ON_MACHINE_MESSAGE = 'El certificado elegido no está en ese dispositivo';
export const NOTIFICATION_NOT_FOUND_MESSAGE = 'No se ha encontrado la notificación';
/** Shown before PeticionAcceso, which has legal effect. */
export const OPEN_CONFIRMATION_TITLE = '¿Abrir la notificación?';
export const OPEN_CONFIRMATION_TEXT =
  'Al abrirla, la Administración la da por notificada en este momento (comparecencia, art. 43 Ley 39/2015) y empiezan a contar los plazos para responder. Esta acción no se puede deshacer.';

const id = z.string().check(z.uuid('El identificador no es válido'));
const isoTime = z.string();
const fingerprint = z.string().check(z.regex(/^[0-9a-f]{64}$/, CERTIFICATE_REQUIRED_MESSAGE));
const text = (max: number) => z.string().check(z.maxLength(max));
const day = /^\d{4}-\d{2}-\d{2}$/;
/** 'yyyy-mm-dd..yyyy-mm-dd', either side may be empty ('2026-01-01..' is from that day on). Madrid days, both included. */
const dayRange = z.string().check(
  z.refine((value) => {
    const parts = value.split('..');
    if (parts.length !== 2) return false;
    const [from = '', to = ''] = parts;
    if ((from !== '' && !day.test(from)) || (to !== '' && !day.test(to))) return false;
    return from === '' || to === '' || from <= to;
  }, 'El periodo debe tener el formato aaaa-mm-dd..aaaa-mm-dd y empezar antes de acabar'),
);

// ---------------------------------------------------------------------------------------------------
// What LEMA answers (external-systems §1.3), as the desktop sends it

export const organismoSchema = z.object({ codigo: text(40), nombre: text(300) });
/** One `item` of Localiza's `envios` (fields captured there, because PeticionAcceso does not return them again). */
export const lemaEnvioSchema = z.object({
  identificador: z.string().check(z.minLength(1), z.maxLength(100)),
  codigoOrigen: z.int(),
  concepto: text(255),
  descripcion: z.nullable(text(1000)),
  organismoEmisor: organismoSchema,
  organismoEmisorRaiz: z.nullable(organismoSchema),
  /** ISO with offset. */
  fechaPuestaDisposicion: isoTime,
  /** 1 comunicación, 2 notificación. */
  tipoEnvio: z.int(),
  /** 1 titular, 2 destinatario, 3 apoderado (4–5 only in realizadas). */
  vinculo: z.int(),
  titular: z.object({ nombre: text(300), nif: text(20) }),
  metadatosPublicos: z.nullable(text(400)),
  /** The procedure code when metadatosPublicos carries one; null otherwise (not in the WSDL item). */
  codigoProcedimiento: z.nullable(text(60)),
});
export type LemaEnvio = z.infer<typeof lemaEnvioSchema>;

export const LEMA_REALIZADA_STATES = ['ACEPTADA', 'RECHAZADA', 'EXPIRADA', 'REALIZADA_TEU', 'LEIDA'] as const;
/** One item of LocalizaRealizadas: an envío already accepted, rejected, expired or read. */
export const lemaRealizadaSchema = z.object({
  ...lemaEnvioSchema.shape,
  estado: z.enum(LEMA_REALIZADA_STATES),
  receptor: z.nullable(z.object({ nombre: text(300), nif: text(20) })),
  csvResguardo: z.nullable(text(100)),
});
export type LemaRealizada = z.infer<typeof lemaRealizadaSchema>;

// ---------------------------------------------------------------------------------------------------
// Notifications as the screen sees them

/** pendiente: still in the mailbox; the rest are realizadas (the LEMA states). */
export const NOTIFICATION_STATES = ['pendiente', 'aceptada', 'rechazada', 'expirada', 'realizada_teu', 'leida'] as const;
export type NotificationState = (typeof NOTIFICATION_STATES)[number];
export const NOTIFICATION_VIEWS = ['pendientes', 'realizadas', 'todas'] as const;
export type NotificationView = (typeof NOTIFICATION_VIEWS)[number];

export const NOTIFICATION_SORT_FIELDS = ['titular', 'organoEmisor', 'codProcedimiento', 'concepto', 'disposicion', 'caducidad'] as const;
export type NotificationSortField = (typeof NOTIFICATION_SORT_FIELDS)[number];

export const notificationsQuerySchema = z.object({
  /** Spec §9: default titular desc. */
  sortby: z._default(z.enum(NOTIFICATION_SORT_FIELDS), 'titular'),
  sortdir: z._default(z.enum(['asc', 'desc']), 'desc'),
  /** Titular (name or NIF), organismo, procedure or concepto; accents and case ignored. */
  search: z.optional(text(100)),
  disposicion: z.optional(dayRange),
  caducidad: z.optional(dayRange),
  view: z._default(z.enum(NOTIFICATION_VIEWS), 'pendientes'),
  /** One certificate's notifications only. */
  certificate: z.optional(fingerprint),
  page: z._default(z.coerce.number().check(z.int(), z.gte(1, 'La página debe ser 1 o más')), 1),
  pageSize: z._default(z.coerce.number().check(z.int(), z.gte(1), z.lte(100, 'Se pueden pedir hasta 100 notificaciones por página')), NOTIFICATIONS_DEFAULT_PAGE_SIZE),
});
export type NotificationsQuery = z.input<typeof notificationsQuerySchema>;

export const notificationSchema = z.object({
  _id: z.string(),
  identificador: z.string(),
  /** The titular's name (spec §3 titular) and NIF. */
  titular: z.string(),
  titularNif: z.string(),
  organoEmisor: z.string(),
  organismoRaiz: z.nullable(z.string()),
  codProcedimiento: z.nullable(z.string()),
  concepto: z.string(),
  descripcion: z.nullable(z.string()),
  tipo: z.enum(['notificacion', 'comunicacion']),
  vinculo: z.enum(['titular', 'destinatario', 'apoderado', 'otro']),
  /** Fecha de puesta a disposición (ISO). */
  disposicion: isoTime,
  /** disposicion + CADUCIDAD_DAYS for a notificación; null for a comunicación (no legal deadline). */
  caducidad: z.nullable(isoTime),
  estado: z.enum(NOTIFICATION_STATES),
  /** The certificate (and its machine) that found it: the one that can open it. */
  certificate: z.object({ fingerprint: z.string(), commonName: z.string(), machine: z.nullable(z.object({ _id: z.string(), name: z.string() })) }),
  openedAt: z.nullable(isoTime),
  openedBy: z.nullable(z.object({ name: z.string(), email: z.string() })),
  documentCount: z.int(),
  /** When this firm first saw it (the 'new' of the banner and digest). */
  firstSeenAt: isoTime,
});
export type Notification = z.infer<typeof notificationSchema>;
export const notificationsPageSchema = z.object({
  total: z.int(),
  /** The page served: the one asked for, or the last one when that is past the end (issue 43: never an empty page with results behind it). */
  page: z.int(),
  items: z.array(notificationSchema),
});
export type NotificationsPage = z.infer<typeof notificationsPageSchema>;

export const NOTIFICATION_DOCUMENT_KINDS = ['documento', 'anexo', 'acuse'] as const;
export const notificationDocumentSchema = z.object({
  _id: z.string(),
  kind: z.enum(NOTIFICATION_DOCUMENT_KINDS),
  name: z.string(),
  mimeType: z.string(),
  size: z.int(),
  createdAt: isoTime,
});
export type NotificationDocument = z.infer<typeof notificationDocumentSchema>;
export const notificationDetailSchema = z.object({
  ...notificationSchema.shape,
  csvResguardo: z.nullable(z.string()),
  receptor: z.nullable(z.object({ nombre: z.string(), nif: z.string() })),
  documents: z.array(notificationDocumentSchema),
});
export type NotificationDetail = z.infer<typeof notificationDetailSchema>;

export const notificationParamsSchema = z.object({ id });
export const notificationDocumentParamsSchema = z.object({ id, documentId: id });

export const notificationsSummarySchema = z.object({
  /** First seen within the last 24 h. */
  newCount: z.int(),
  /** Pending notificaciones whose caducidad is within EXPIRING_SOON_DAYS (and not past). */
  expiringSoonCount: z.int(),
  /** The soonest of those, for the banner's wording. */
  soonestCaducidad: z.nullable(isoTime),
  /** The newest finished update of any watched certificate; null: never updated. */
  lastUpdateAt: z.nullable(isoTime),
});
export type NotificationsSummary = z.infer<typeof notificationsSummarySchema>;

// ---------------------------------------------------------------------------------------------------
// Watched certificates (the configuration view)

export const UPDATE_STATES = ['running', 'done', 'error'] as const;
export const certificateUpdateSchema = z.object({
  state: z.enum(UPDATE_STATES),
  startedAt: isoTime,
  finishedAt: z.nullable(isoTime),
  /** Notifications Localiza + LocalizaRealizadas returned; new ones among them. */
  found: z.int(),
  added: z.int(),
  /** Why it failed, in Spanish (LEMA's code and text, or the connection problem). */
  message: z.nullable(z.string()),
});
export type CertificateUpdate = z.infer<typeof certificateUpdateSchema>;

/**
 * An update asked for from the screen ('Actualizar') that the certificate's machine has not finished:
 * the update flow's run for that machine, waiting for it (queued, e.g. while it is offline) or running.
 * From the server's runs, so it survives a reload; while it exists, another launch for that machine
 * answers this run instead of queueing a second one (issue 43).
 */
export const pendingUpdateSchema = z.object({
  runId: z.string(),
  state: z.enum(['queued', 'running']),
  queuedAt: isoTime,
});
export type PendingUpdate = z.infer<typeof pendingUpdateSchema>;

export const watchedCertificateSchema = z.object({
  fingerprint: z.string(),
  commonName: z.string(),
  nif: z.nullable(z.string()),
  machine: z.object({ _id: z.string(), name: z.string(), online: z.boolean(), mine: z.boolean() }),
  /** Still synced on that machine (false: the machine no longer lists it, so it cannot be updated). */
  available: z.boolean(),
  lastUpdate: z.nullable(certificateUpdateSchema),
  pendingUpdate: z.nullable(pendingUpdateSchema),
});
export type WatchedCertificate = z.infer<typeof watchedCertificateSchema>;
export const watchedCertificatesResponseSchema = z.object({ items: z.array(watchedCertificateSchema) });
export type WatchedCertificatesResponse = z.infer<typeof watchedCertificatesResponseSchema>;
export const watchedCertificatesUpdateSchema = z.strictObject({
  certificates: z
    .array(z.strictObject({ machineId: id, fingerprint }))
    .check(z.maxLength(NOTIFICATIONS_MAX_WATCHED, `Se pueden vigilar hasta ${NOTIFICATIONS_MAX_WATCHED} certificados`)),
});
export type WatchedCertificatesUpdate = z.infer<typeof watchedCertificatesUpdateSchema>;

// ---------------------------------------------------------------------------------------------------
// The desktop's calls

export const robotCertificateSchema = z.object({ fingerprint: z.string(), commonName: z.string(), nif: z.nullable(z.string()) });
export type RobotCertificate = z.infer<typeof robotCertificateSchema>;
export const robotCertificatesResponseSchema = z.object({ items: z.array(robotCertificateSchema) });

export const robotStatusSchema = z.strictObject({
  fingerprint,
  state: z.enum(UPDATE_STATES),
  found: z.optional(z.int().check(z.nonnegative())),
  added: z.optional(z.int().check(z.nonnegative())),
  message: z.optional(text(1000)),
});
export type RobotStatus = z.infer<typeof robotStatusSchema>;

export const robotUpsertSchema = z.strictObject({
  fingerprint,
  pendientes: z.array(lemaEnvioSchema).check(z.maxLength(NOTIFICATIONS_MAX_UPSERT)),
  realizadas: z.array(lemaRealizadaSchema).check(z.maxLength(NOTIFICATIONS_MAX_UPSERT)),
});
export type RobotUpsert = z.infer<typeof robotUpsertSchema>;
export const robotUpsertResponseSchema = z.object({ added: z.int(), updated: z.int() });

export const robotAccessSchema = z.object({
  _id: z.string(),
  identificador: z.string(),
  codigoOrigen: z.int(),
  concepto: z.string(),
  estado: z.enum(NOTIFICATION_STATES),
  certificate: z.object({ fingerprint: z.string(), commonName: z.string(), nif: z.nullable(z.string()) }),
  /** The documents already stored: an opened notification is never opened again (a second PeticionAcceso), so the desktop answers with these. */
  documents: z.array(notificationDocumentSchema),
});
export type RobotAccess = z.infer<typeof robotAccessSchema>;

export const robotDocumentQuerySchema = z.object({
  kind: z.enum(NOTIFICATION_DOCUMENT_KINDS),
  name: z.string().check(z.minLength(1), z.maxLength(200)),
});
export type RobotDocumentQuery = z.infer<typeof robotDocumentQuerySchema>;

export const robotOpenedSchema = z.strictObject({
  /** When DEHÚ recorded the access (PeticionAcceso's fechaEvento), ISO. */
  fechaEvento: isoTime,
  csvResguardo: z.nullable(text(100)),
  receptor: z.object({ nombre: text(300), nif: text(20) }),
});
export type RobotOpened = z.infer<typeof robotOpenedSchema>;
