import { z } from 'zod/mini';
import { autopilotCertificatesArgsSchema, autopilotSnapshotSchema, autopilotSwitchArgsSchema } from '../autopilot/state.ts';
import { certificateProblemSchema, localCertificateSchema } from '../certificates/certificate.ts';
import { FIE_MAX_ENTRIES_PER_REQUEST, fieUploadResponseSchema } from '../api/fie.ts';
import { ALTAS_MAX_IDS_PER_REQUEST, pendingSummarySchema } from '../api/altas.ts';
import { NOTIFICATIONS_MAX_WATCHED } from '../api/notifications.ts';
import { codeVerifierSchema, desktopClientSchema, EMAIL_PROVIDERS, loopbackRedirectSchema } from '../api/mail.ts';
import { macroDefinitionSchema, macroStepSchema } from '../macros/definition.ts';

const deviceStatusSchema = z.object({
  /** This PC holds a device token for the server below (it can run desktop flows and receive remote launches). */
  linked: z.boolean(),
  serverUrl: z.nullable(z.string()),
  machine: z.nullable(z.object({ _id: z.string(), name: z.string() })),
  /** The last problem reaching the server with the token (revoked, unreachable), in Spanish; null when fine. */
  problem: z.nullable(z.string()),
});
export type DeviceStatus = z.infer<typeof deviceStatusSchema>;
const httpUrl = z.string().check(z.maxLength(500), z.regex(/^https?:\/\/[^\s/]+$/, 'La dirección del servidor no es válida'));

const fieIsoDay = z.string().check(z.regex(/^\d{4}-\d{2}-\d{2}$/, 'La fecha debe tener el formato aaaa-mm-dd'));
const nullableText = z.nullable(z.string().check(z.maxLength(400)));
const nullableNumber = z.nullable(z.number());
const fingerprint = z.string().check(z.regex(/^[0-9a-f]{64}$/, 'Necesitas seleccionar un certificado para continuar.'));
const submissionIds = z.array(z.string().check(z.minLength(1), z.maxLength(64))).check(z.minLength(1, 'Necesitas seleccionar al menos un Alta para continuar.'), z.maxLength(ALTAS_MAX_IDS_PER_REQUEST));
/** One row of RunFieRobot's input-dataTable: an A3 sync record (shared/a3 toA3SyncRecord) and the entry it came from. */
export const a3SyncRecordWithEntrySchema = z.object({
  entryId: z.string().check(z.minLength(1), z.maxLength(64)),
  fieId: nullableText,
  dniEmpleado: nullableText,
  nombreEmpresa: nullableText,
  fechaFormateada: nullableText,
  incidencia: nullableNumber,
  carencia: z.boolean(),
  contingencia: nullableNumber,
  ccc: nullableText,
  formatedccc: nullableText,
  diasAcumulados: nullableNumber,
  fechaBajaBajaDuracion: nullableText,
  incidenciaBajaBajaDuracion: nullableNumber,
  canceled: z.boolean(),
  date: nullableText,
  incidenceCode: nullableNumber,
  workerDNI: nullableText,
});
export type A3SyncRecordWithEntry = z.infer<typeof a3SyncRecordWithEntrySchema>;
export const FIE_FETCH_SOURCES = ['folder', 'fier', 'both'] as const;
const macroStartUrl = z.string().check(z.maxLength(2000), z.regex(/^https?:\/\/[^\s]+$/, 'La dirección debe empezar por https:// o http://'));
const recordingIdSchema = z.string().check(z.minLength(1), z.maxLength(64));
/** One thing PreviewScrape found: a table (extractTable's target) or repeated blocks (extractList's items and fields). */
export const scrapeCandidateSchema = z.object({
  kind: z.enum(['table', 'list']),
  target: z.string(),
  fields: z.optional(z.array(z.object({ column: z.string(), target: z.string() }))),
  header: z.array(z.string()),
  rows: z.array(z.array(z.string())),
  total: z.number(),
});
export type ScrapeCandidateResult = z.infer<typeof scrapeCandidateSchema>;

/**
 * The desktop bridge: every command the renderer may ask of the desktop app (or the headless agent),
 * with the schema of its arguments and of its result. Names are the spec's (§7 Desktop bridge commands).
 * A command is added here together with its handler in main/bridge/: the registry will not compile
 * without one, so nothing here is a promise that the desktop cannot keep.
 */
export const bridgeCommands = {
  Minimize: { args: z.strictObject({}), result: z.object({ minimized: z.boolean() }) },
  Maximize: { args: z.strictObject({}), result: z.object({ maximized: z.boolean() }) },
  CloseWindow: { args: z.strictObject({}), result: z.object({ closing: z.boolean() }) },
  GetMachineHashCode: {
    args: z.strictObject({}),
    result: z.object({ machineHashCode: z.string().check(z.regex(/^[0-9a-f]{64}$/)), machineName: z.string() }),
  },
  CheckAppUpdate: {
    args: z.strictObject({}),
    result: z.object({
      currentVersion: z.string(),
      latestVersion: z.nullable(z.string()),
      /** forceUpdate blocks the app; optionalUpdate allows 'later' (spec §4 Desktop updates). */
      update: z.enum(['none', 'optionalUpdate', 'forceUpdate']),
      checkedAt: z.string(),
    }),
  },
  /**
   * The current user's personal certificates with a private key that can authenticate a client, from
   * the OS store and the chosen .p12/.pfx folder. Never a key: metadata and where each one lives.
   */
  GetCertificatesList: {
    args: z.strictObject({}),
    result: z.object({
      certificates: z.array(localCertificateSchema),
      /** Parts that could not be read (a locked .p12, a store whose tool is missing); the rest still lists. */
      problems: z.array(certificateProblemSchema),
      /** The .p12/.pfx folder in use, null when none is chosen. */
      folder: z.nullable(z.string()),
      readAt: z.string(),
    }),
  },
  /** Chooses (or, with null, forgets) the folder of .p12/.pfx files read besides the OS store. */
  SetCertificateFolder: {
    args: z.strictObject({ folder: z.nullable(z.string().check(z.minLength(1), z.maxLength(1000))) }),
    result: z.object({ folder: z.nullable(z.string()) }),
  },
  /**
   * The password of one .p12/.pfx file of the folder, asked once: checked against the file, then kept
   * encrypted on this machine (safeStorage in Electron, a 0600 key file in the agent). Never sent anywhere.
   */
  UnlockCertificateFile: {
    args: z.strictObject({ file: z.string().check(z.minLength(1), z.maxLength(255)), password: z.string().check(z.maxLength(1000)) }),
    result: z.object({ file: z.string(), certificates: z.int().check(z.nonnegative()) }),
  },
  /**
   * Hands this PC the device token a signed-in user obtained (POST /api/machines/link) for the server
   * that served the window (an origin, no path). Checked against the server, then kept encrypted.
   */
  LinkDevice: {
    args: z.strictObject({ serverUrl: httpUrl, deviceToken: z.string().check(z.minLength(20), z.maxLength(200)) }),
    result: deviceStatusSchema,
  },
  /** Forgets the device token: no more desktop runs or remote launches until linked again. */
  UnlinkDevice: { args: z.strictObject({}), result: deviceStatusSchema },
  GetDeviceStatus: { args: z.strictObject({}), result: deviceStatusSchema },
  /**
   * Runs a desktop flow here (spec §7 Flow launching). The renderer first creates the run on the server
   * (POST execution with this machine and localLaunch); LaunchFlow leases it with the device token and
   * starts its robot in a child process. Progress and lines arrive as RobotRun events and in the run's
   * server log; the files go to `outputFolder`.
   */
  LaunchFlow: {
    args: z.strictObject({
      flowId: z.string().check(z.minLength(1), z.maxLength(64)),
      flowInputs: z.record(z.string(), z.unknown()),
      executionToken: z.string().check(z.minLength(1), z.maxLength(64)),
    }),
    result: z.object({ runId: z.string(), outputFolder: z.string() }),
  },
  /** Opens a run's output folder in the system's file manager (only folders this app created). */
  OpenFolder: {
    args: z.strictObject({ folder: z.string().check(z.minLength(1), z.maxLength(1000)) }),
    result: z.object({ opened: z.boolean() }),
  },
  /** The native file or folder picker (desktop window only; the headless agent answers UNAVAILABLE). */
  OpenNativeSelectionDialog: {
    args: z.strictObject({ multiple: z.optional(z.boolean()), directory: z.optional(z.boolean()), title: z.optional(z.string().check(z.maxLength(200))) }),
    /** Empty when the user cancelled. */
    result: z.object({ paths: z.array(z.string()) }),
  },

  // FIE and sync (spec §7): the /fie screen fetches from SILTRA and imports entries into A3 on this PC.
  /**
   * Reads the FIE files SILTRA received for one day or a range ([day] or [from, to], inclusive): from the
   * SILTRA received-files folder, from FIER with the chosen certificate (mutual TLS), or both, and
   * uploads them to the server (POST /api/fie/upload) with the device token. `found` 0 comes with the
   * §8 no-results message.
   */
  GetFieFromSiltra: {
    args: z.strictObject({
      flowInputs: z.strictObject({
        /** The certificate's fingerprint (as SetAutopilotCertificates names it); FIER needs it, the folder does not. */
        'input-certificate': z.string().check(z.regex(/^[0-9a-f]{64}$/, 'La huella del certificado no es válida')),
        'input-msRange': z.union([z.tuple([fieIsoDay]), z.tuple([fieIsoDay, fieIsoDay])]),
      }),
      /** Where to look; 'both' when absent. */
      source: z.optional(z.enum(FIE_FETCH_SOURCES)),
    }),
    result: z.object({
      from: z.string(),
      to: z.string(),
      /** FIE files found (after dropping a file seen in both the folder and FIER). */
      found: z.int().check(z.nonnegative()),
      upload: fieUploadResponseSchema,
      /** The §8 toast when nothing was found (SILTRA_NO_FIE_TITLE, siltraNoResultsMessage); null otherwise. */
      noResults: z.nullable(z.object({ title: z.string(), text: z.string() })),
      /** With source 'both': a source that could not be read while the other could (in Spanish). */
      problems: z.optional(z.array(z.string())),
    }),
  },
  /**
   * Imports FIE entries into A3 through its folder import: writes one workbook (one IT per row) into the
   * A3 import folder, waits for the importer's answer per row, and reports the results to the server
   * (POST /api/fie/a3-results). `input-dataTable` is what POST /api/fie/a3-records answered.
   */
  RunFieRobot: {
    args: z.strictObject({
      flowId: z.string().check(z.minLength(1), z.maxLength(64)),
      flowInputs: z.strictObject({
        'input-dataTable': z.array(a3SyncRecordWithEntrySchema).check(z.minLength(1, 'Selecciona al menos un parte'), z.maxLength(FIE_MAX_ENTRIES_PER_REQUEST)),
      }),
      fieIds: z.array(z.string().check(z.minLength(1), z.maxLength(64))).check(z.maxLength(FIE_MAX_ENTRIES_PER_REQUEST)),
    }),
    result: z.object({
      /** The workbook written into the A3 import folder. */
      importFile: z.string(),
      results: z.array(z.object({ entryId: z.string(), state: z.enum(['synced', 'error']), error: z.nullable(z.string()) })),
      synced: z.int().check(z.nonnegative()),
      failed: z.int().check(z.nonnegative()),
    }),
  },

  // Altas y bajas (issue 23): the desktop takes the selected registrations from the server with its device
  // token, registers them and reports each one's answer back (form-to-flow-submission red-results/a3-results).
  /** What is left to register in RED and to sync with A3 (the autopilot's 'Altas desasistidas' asks this). */
  GetForms: { args: z.strictObject({}), result: pendingSummarySchema },
  /**
   * 'Altas Automáticas S. RED': each selected registration into RED Online's ATR01 with the chosen
   * certificate (or, with channel 'afi', one .AFI remittance written into SILTRA's RED/VIPTC2/AFI).
   */
  SyncSubmissions: {
    args: z.strictObject({
      submissionIds: submissionIds,
      /** The certificate's fingerprint: RED Online needs it for its mutual TLS. */
      certificate: fingerprint,
      channel: z.optional(z.enum(['red-online', 'afi'])),
    }),
    result: z.object({
      results: z.array(z.object({ submissionId: z.string(), state: z.enum(['registered', 'error', 'afi-written']), message: z.string() })),
      registered: z.int().check(z.nonnegative()),
      failed: z.int().check(z.nonnegative()),
      /** The AFI file written (channel 'afi'). */
      afiFile: z.optional(z.string()),
    }),
  },
  /** 'Sincronizar con A3': one '202 – MA' import workbook into A3's folder, A3's answer per row. */
  SyncSubmissionsToA3: {
    args: z.strictObject({ submissionIds: submissionIds }),
    result: z.object({
      importFile: z.string(),
      results: z.array(z.object({ submissionId: z.string(), state: z.enum(['synced', 'error']), error: z.nullable(z.string()) })),
      synced: z.int().check(z.nonnegative()),
      failed: z.int().check(z.nonnegative()),
    }),
  },

  // DEHÚ notifications (issue 24): the desktop reads each watched certificate's DEHÚ mailbox through LEMA
  // (main/dehu/) with the certificate's key, and sends what it found to the server with its device token.
  /**
   * 'Actualizar notificaciones': Localiza and LocalizaRealizadas for the watched certificates that live
   * on this PC (all of them, or those listed), each one's progress reported to the server as it goes.
   */
  UpdateNotificationsList: {
    args: z.strictObject({ certificates: z.optional(z.array(fingerprint).check(z.maxLength(NOTIFICATIONS_MAX_WATCHED))) }),
    result: z.object({
      certificates: z.array(
        z.object({
          fingerprint: z.string(),
          commonName: z.string(),
          state: z.enum(['done', 'error']),
          found: z.int().check(z.nonnegative()),
          added: z.int().check(z.nonnegative()),
          message: z.nullable(z.string()),
        }),
      ),
    }),
  },
  /**
   * Opens one notification (PeticionAcceso: comparecencia, with legal effect), then fetches its annexes
   * and the acuse, and stores them all on the server. The notification's certificate must be on this PC.
   */
  GetNotificationsFromDehu: {
    args: z.strictObject({ notificationId: z.string().check(z.uuid('El identificador de la notificación no es válido')) }),
    result: z.object({ notificationId: z.string(), documents: z.array(z.object({ _id: z.string(), kind: z.enum(['documento', 'anexo', 'acuse']), name: z.string() })) }),
  },

  /**
   * Links a mailbox (spec §7: provider, scope 'sendemail', prompt): opens the system browser at the
   * provider and listens on http://127.0.0.1:{ephemeral port} for its answer (RFC 8252 §7.3), with
   * PKCE S256 and a random state it checks. Answers the single-use code with its verifier, which the
   * renderer hands to the server (POST mailPaths.oauthDesktop); no token ever reaches the renderer.
   * Gives up after 5 minutes (TIMEOUT) or when the user refuses at the provider (DENIED).
   */
  OAuthConnect: {
    args: z.strictObject({
      provider: z.enum(EMAIL_PROVIDERS),
      scope: z.literal('sendemail'),
      prompt: z.optional(z.enum(['consent', 'select_account'])),
      /** Pre-fills the provider's account chooser (re-linking a known address). */
      loginHint: z.optional(z.email()),
      /**
       * The desktop client the server announces (GET mailPaths.oauthDesktopClients); this PC's own MAIL_*
       * settings win when they name one. Its address must be https (http only to this machine: a stand-in).
       */
      client: z.optional(desktopClientSchema),
    }),
    result: z.object({ provider: z.enum(EMAIL_PROVIDERS), code: z.string(), codeVerifier: codeVerifierSchema, redirectUri: loopbackRedirectSchema }),
  },

  // The autopilot (main/autopilot/, spec §2 Autopilot panel): each answers the whole snapshot after it.
  /** The apps, their switches and certificates, and the task cache of this PC. */
  GetAutopilot: { args: z.strictObject({}), result: autopilotSnapshotSchema },
  /** The general switch ('all') or one app's. An app that cannot load yet refuses (UNAVAILABLE). */
  SetAutopilotSwitch: { args: autopilotSwitchArgsSchema, result: autopilotSnapshotSchema },
  /** The certificates an app works with (fingerprint and CN only; the certificate stays in its store). */
  SetAutopilotCertificates: { args: autopilotCertificatesArgsSchema, result: autopilotSnapshotSchema },
  /** Deletes a task: a scheduled flow's schedule on the server too. A running task refuses (FORBIDDEN). */
  DeleteAutopilotTask: { args: z.strictObject({ taskId: z.string().check(z.minLength(1), z.maxLength(200)) }), result: autopilotSnapshotSchema },
  /** The desktop app runs the loop while the panel is open (spec §4); the agent runs it always and ignores this. */
  SetAutopilotPanelOpen: { args: z.strictObject({ open: z.boolean() }), result: autopilotSnapshotSchema },

  // Macros (issue 41, main/macros/): the recorder in the robot's Chromium, and the scraper's preview.
  /** Opens the recording browser at startUrl (with that certificate of this PC); one recording at a time. */
  StartMacroRecording: {
    args: z.strictObject({ startUrl: macroStartUrl, certificateFingerprint: z.optional(fingerprint) }),
    result: z.object({ recordingId: z.string() }),
  },
  /** The steps recorded so far (polled every second by the screen); open is false once the user closed the browser. */
  GetMacroRecording: { args: z.strictObject({ recordingId: recordingIdSchema }), result: z.object({ steps: z.array(macroStepSchema), open: z.boolean() }) },
  /** Ends the recording: the browser closes, typed passwords are sealed on this PC, and the macro draft comes back. */
  StopMacroRecording: { args: z.strictObject({ recordingId: recordingIdSchema }), result: z.object({ macro: macroDefinitionSchema }) },
  /** The tables and repeated blocks of a page, with Playwright selectors and their first 20 rows. */
  PreviewScrape: {
    args: z.strictObject({ url: macroStartUrl, certificateFingerprint: z.optional(fingerprint) }),
    result: z.object({ candidates: z.array(scrapeCandidateSchema) }),
  },
} as const;

export type BridgeCommand = keyof typeof bridgeCommands;
export type BridgeArgs<C extends BridgeCommand> = z.input<(typeof bridgeCommands)[C]['args']>;
export type BridgeResult<C extends BridgeCommand> = z.infer<(typeof bridgeCommands)[C]['result']>;

export const appStatusSchema = z.object({
  /** The desktop host's version (Electron app or agent). */
  hostVersion: z.string(),
  host: z.enum(['electron', 'agent']),
  machineName: z.string(),
  uptimeSeconds: z.number(),
  /** Robots running right now on this machine. */
  runningRobots: z.int().check(z.nonnegative()),
  /** Holds a device token (LinkDevice). */
  deviceLinked: z.boolean(),
  at: z.string(),
});
export type AppStatus = z.infer<typeof appStatusSchema>;

/** What a robot running on this PC reports, as it happens (the server's run log gets the same lines). */
export const robotRunEventSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('log'), runId: z.string(), level: z.enum(['info', 'warn', 'error']), text: z.string(), at: z.string() }),
  z.object({ type: z.literal('progress'), runId: z.string(), successfulIterations: z.number(), totalIterations: z.number() }),
  z.object({
    type: z.literal('finished'),
    runId: z.string(),
    /** The outcome's kind: result, failed, crashed, timeout or stopped. */
    outcome: z.string(),
    outputFolder: z.nullable(z.string()),
    outputFileNames: z.array(z.string()),
  }),
]);
export type RobotRunEvent = z.infer<typeof robotRunEventSchema>;

/** Events the desktop pushes to the renderer. AppStatus is sent every second (spec §7). */
export const bridgeEvents = {
  AppStatus: appStatusSchema,
  RobotRun: robotRunEventSchema,
  /** The autopilot's snapshot, whenever it changes (a task starts or ends, a sync, a switch). */
  Autopilot: autopilotSnapshotSchema,
} as const;
export type BridgeEvent = keyof typeof bridgeEvents;
export type BridgeEventPayload<E extends BridgeEvent> = z.infer<(typeof bridgeEvents)[E]>;

export const APP_STATUS_INTERVAL_MS = 1000;

export function isBridgeCommand(name: unknown): name is BridgeCommand {
  return typeof name === 'string' && Object.hasOwn(bridgeCommands, name);
}
export function isBridgeEvent(name: unknown): name is BridgeEvent {
  return typeof name === 'string' && Object.hasOwn(bridgeEvents, name);
}
