import { z } from 'zod/mini';
import { CERTIFICATE_KINDS, CERTIFICATE_STORES, certificateMetadataSchema } from '../certificates/certificate.ts';
import { isValidCcc } from '../validation/identifiers.ts';

/**
 * Machines, their synced certificates and configs, and script settings (spec §3 Machine, Certificate,
 * Machine config, Script setting; §7 machines, certificates, scripts). Everything is scoped to the
 * caller's group: a user sees the machines they registered and the ones shared with their firm;
 * anything else answers 404.
 */
export const machinesPaths = {
  /** GET (optional ?machineHashCode=): { items: Machine[] }, the caller's first, then shared, by name. */
  machines: '/api/machines',
  /** PATCH { savedAs?, shared? } (the machine's owner only); DELETE. */
  machine: '/api/machines/:id',
  /** POST { name, cccList, emailSettings? } -> MachineConfig (201). */
  machineConfigs: '/api/machines/:id/configs',
  /** PUT { name, cccList, emailSettings? } -> MachineConfig (a device's or the firm's); DELETE. */
  machineConfig: '/api/machines/configs/:configId',
  /**
   * The firm's own configs, on no device (issue 43): a firm without a PC keeps its email configurations
   * here, and any robot of the firm (the server's included) sends its result with them.
   * GET { items: MachineConfig[] } by name; POST { name, cccList, emailSettings? } -> MachineConfig (201).
   */
  firmConfigs: '/api/configs',
  /** POST ?machineName= { machineHashCode, digitalCertificates[] }: registers the machine if new and replaces its synced set. */
  certificates: '/api/certificates',
  /** GET ?days=60: the radar, certificates of every visible machine expiring within `days` (or expired ≤ 30 days ago). */
  certificatesExpiring: '/api/certificates/expiring',
  /** GET { items: ScriptSetting[] }; POST { name, data } -> ScriptSetting (201). */
  scriptSettings: '/api/scripts/:flowId/settings',
  /** DELETE. */
  scriptSetting: '/api/scripts/settings/:id',
} as const;

export const MACHINE_DELETE_FAILED_MESSAGE = 'No se ha podido eliminar este dispositivo';
export const DEVICE_NAME_REQUIRED_MESSAGE = 'Pon un nombre a este dispositivo para sincronizarlo';
export const SCRIPT_SETTING_INVALID_MESSAGE = 'Comprueba la información';
/** How many certificates one machine may sync: far above any real office PC, low enough to bound a request. */
export const MAX_CERTIFICATES_PER_MACHINE = 500;

const machineHash = z.string().check(z.regex(/^[0-9a-f]{64}$/, 'El identificador del dispositivo no es válido'));
const deviceName = z.string().check(
  z.trim(),
  z.minLength(1, DEVICE_NAME_REQUIRED_MESSAGE),
  z.maxLength(100, 'El nombre del dispositivo admite hasta 100 caracteres'),
);

// ---------------------------------------------------------------------------------------------------
// Certificates

/** A certificate as the server keeps it for a machine (spec §3 Certificate). */
export const syncedCertificateSchema = z.object({
  _id: z.string(),
  fingerprint: z.string(),
  serialNumber: z.string(),
  subjectString: z.string(),
  subject: z.object({ CN: z.string() }),
  issuer: z.string(),
  notBefore: z.string(),
  notAfter: z.string(),
  nifVat: z.nullable(z.string()),
  kind: z.enum(CERTIFICATE_KINDS),
  store: z.enum(CERTIFICATE_STORES),
  machine: z.object({ _id: z.string(), name: z.string() }),
  syncedAt: z.string(),
});
export type SyncedCertificate = z.infer<typeof syncedCertificateSchema>;

export const certificatesSyncQuerySchema = z.object({ machineName: deviceName });
export const certificatesSyncRequestSchema = z.strictObject({
  machineHashCode: machineHash,
  digitalCertificates: z.array(certificateMetadataSchema).check(
    z.maxLength(MAX_CERTIFICATES_PER_MACHINE, `Un dispositivo puede sincronizar hasta ${MAX_CERTIFICATES_PER_MACHINE} certificados`),
  ),
});
export type CertificatesSyncRequest = z.infer<typeof certificatesSyncRequestSchema>;

export const expiringQuerySchema = z.object({
  days: z._default(z.coerce.number().check(z.int('Indica un número de días entero'), z.gte(1), z.lte(365)), 60),
});
export const expiringCertificateSchema = z.object({
  ...syncedCertificateSchema.shape,
  /** Whole days left (negative once expired). */
  daysLeft: z.int(),
  /** The tightest radar threshold it is within (60, 30, 14, 7, 1), 0 once expired. */
  threshold: z.int(),
});
export type ExpiringCertificate = z.infer<typeof expiringCertificateSchema>;
export const expiringResponseSchema = z.object({ items: z.array(expiringCertificateSchema), days: z.int() });
export type ExpiringResponse = z.infer<typeof expiringResponseSchema>;

// ---------------------------------------------------------------------------------------------------
// Machine configs

export const EMAIL_PROVIDERS = ['google', 'microsoft'] as const;

/**
 * What a robot run on this machine writes in the mail it sends. The linked account's tokens are not
 * part of it: they belong to the mail accounts module and stay encrypted there.
 */
export const emailSettingsSchema = z.strictObject({
  subject: z.string().check(z.maxLength(300)),
  body: z.string().check(z.maxLength(20_000)),
  provider: z.enum(EMAIL_PROVIDERS),
  email: z.email('Introduce un correo válido'),
  replyTo: z.optional(z.union([z.email('Introduce un correo válido'), z.literal('')])),
  senderName: z.optional(z.string().check(z.maxLength(200))),
});
export type EmailSettings = z.infer<typeof emailSettingsSchema>;

export const machineConfigRequestSchema = z.strictObject({
  name: z.string().check(z.trim(), z.minLength(1, 'Pon un nombre a la configuración'), z.maxLength(100)),
  cccList: z._default(
    z.array(z.string().check(z.trim(), z.refine(isValidCcc, 'Introduce un CCC válido'))).check(z.maxLength(1000)),
    [],
  ),
  emailSettings: z.optional(emailSettingsSchema),
});
export type MachineConfigRequest = z.input<typeof machineConfigRequestSchema>;

export const machineConfigSchema = z.object({
  _id: z.string(),
  name: z.string(),
  cccList: z.array(z.string()),
  emailSettings: z.nullable(emailSettingsSchema),
  /** Spec §3: a saved config whose settings are not an object is flagged, not a crash. */
  error: z.nullable(z.string()),
  createdAt: z.string(),
});
export type MachineConfig = z.infer<typeof machineConfigSchema>;
export const machineConfigsResponseSchema = z.object({ items: z.array(machineConfigSchema) });
export type MachineConfigsResponse = z.infer<typeof machineConfigsResponseSchema>;

// ---------------------------------------------------------------------------------------------------
// Machines

export const machineSchema = z.object({
  _id: z.string(),
  /** The PC's own name, as its desktop reported it. */
  name: z.string(),
  /** The name the user saved it as (shown on its card). */
  savedAs: z.string(),
  machineHashCode: z.string(),
  /** Whether it has certificates synced to the server. */
  sync: z.boolean(),
  /** Shared with the firm: everyone in the group sees it and can launch robots on it remotely. */
  shared: z.boolean(),
  /** Registered by the caller (only they may rename, share, unshare or delete it). */
  mine: z.boolean(),
  owner: z.object({ email: z.string(), name: z.string() }),
  certificates: z.array(syncedCertificateSchema),
  configs: z.array(machineConfigSchema),
  lastSyncAt: z.nullable(z.string()),
  /** Its desktop app or agent holds a device token (it can receive remote launches). */
  linked: z.boolean(),
  /** Its desktop called the server within DEVICE_ONLINE_WINDOW_MS (shared/api/devices.ts). */
  online: z.boolean(),
  lastSeenAt: z.nullable(z.string()),
  createdAt: z.string(),
});
export type Machine = z.infer<typeof machineSchema>;

export const machinesQuerySchema = z.object({ machineHashCode: z.optional(machineHash) });
export const machinesResponseSchema = z.object({ items: z.array(machineSchema) });
export type MachinesResponse = z.infer<typeof machinesResponseSchema>;

export const machineUpdateRequestSchema = z.strictObject({
  savedAs: z.optional(deviceName),
  shared: z.optional(z.boolean()),
});
export type MachineUpdateRequest = z.infer<typeof machineUpdateRequestSchema>;

export const machineIdParamsSchema = z.object({ id: z.string().check(z.uuid('El identificador del dispositivo no es válido')) });
export const machineConfigIdParamsSchema = z.object({ configId: z.string().check(z.uuid('El identificador de la configuración no es válido')) });

// ---------------------------------------------------------------------------------------------------
// Script settings (a flow's saved configurations, spec §3 Script setting)

const settingScalar = z.union([z.string().check(z.maxLength(5000)), z.number(), z.boolean(), z.null()]);
/** A multi key/value row (e.g. a company's CCC list): both label and key are needed. */
const keyValueRow = z.object({
  label: z.string().check(z.trim(), z.minLength(1, SCRIPT_SETTING_INVALID_MESSAGE)),
  key: z.string().check(z.trim(), z.minLength(1, SCRIPT_SETTING_INVALID_MESSAGE)),
});
/** The 'configuration' group: named values, each a scalar or a list of key/value rows. */
export const scriptConfigurationSchema = z.record(
  z.string().check(z.minLength(1), z.maxLength(100)),
  z.union([settingScalar, z.array(keyValueRow).check(z.maxLength(1000))]),
);

export const scriptSettingRequestSchema = z.strictObject({
  name: z.string().check(z.trim(), z.minLength(1, 'Pon un nombre a la configuración'), z.maxLength(100)),
  data: z.looseObject({ configuration: scriptConfigurationSchema }),
});
export type ScriptSettingRequest = z.input<typeof scriptSettingRequestSchema>;

export const scriptSettingSchema = z.object({
  _id: z.string(),
  name: z.string(),
  settings: z.record(z.string(), z.unknown()),
  createdAt: z.string(),
});
export type ScriptSetting = z.infer<typeof scriptSettingSchema>;
export const scriptSettingsResponseSchema = z.object({ items: z.array(scriptSettingSchema) });
export const scriptSettingIdParamsSchema = z.object({ id: z.string().check(z.uuid('El identificador de la configuración no es válido')) });
export const scriptFlowParamsSchema = z.object({ flowId: z.string().check(z.minLength(1), z.maxLength(64)) });
