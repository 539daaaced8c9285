import { z } from 'zod/mini';

/**
 * The altas y bajas module's API (spec §7 Form-to-flow, §3 Registration, Form definition, Client
 * company, Group, User client; issue 23). Everything belongs to the caller's firm (group): another
 * firm's company, group, form or submission answers 404 and is never listed. The advisor's calls take
 * a session; the robot's calls (records, results, pending) also take a linked device's token
 * (`Authorization: Device <token>`); the company's calls (form-to-flow-form) take the company's own
 * cookie session, never an advisor's.
 */
export const altasPaths = {
  /** GET -> FormDefinition: the firm's effective form for the flow (built-in fields with the firm's overrides). */
  formDefinition: '/api/form-to-flow/:flowId',
  /** GET -> FormConfiguration; PATCH FormConfigurationUpdate -> FormConfiguration. */
  formConfiguration: '/api/form-to-flow-configuration/:flowId',
  /** GET -> { items: ClientCompany[] } (not removed, by name); PATCH ClientCompanyUpdate -> ClientCompany. */
  companies: '/api/form-to-flow-client',
  /** GET -> ClientCompany. */
  company: '/api/form-to-flow-client/:id',
  /**
   * POST ClientCreate -> ClientCompany (201). A company's email is unique within the firm only (the firm's
   * client user of that email is reused; other firms are never looked at); 409 'Este email ya está en uso'
   * for a member of the firm's own email; 429 past 30 creations or email changes a minute per client.
   */
  createClient: '/api/form-to-flow-user/client',
  /** PATCH ClientUpdate -> ClientCompany; DELETE -> 204 (the company is marked removed, its submissions stay). */
  client: '/api/form-to-flow-user/client/:id',
  /**
   * PUT -> { email }: emails the company its form link and a new password (the old one stops working).
   * 409 with NO_GROUP_MESSAGE when the company has no group; 502 with MAIL_FAILED_MESSAGE when mail fails.
   */
  sendEmail: '/api/form-to-flow-user/sendemail/:id',
  /** POST and PATCH { [groupKey]: GroupBody } -> ClientCompany. :field is 'groups'. */
  groups: '/api/form-to-flow-client-group/:id/:field',
  /** DELETE -> ClientCompany. */
  group: '/api/form-to-flow-client-group/:id/:field/:key',
  /** GET ?flow=&company=&populate=company -> { items: Submission[] } newest first; POST SubmissionCreate -> Submission (201). */
  submissions: '/api/form-to-flow-submission',
  /** PATCH fieldsValues -> Submission; DELETE -> 204 (marked removed). */
  submission: '/api/form-to-flow-submission/:id',
  /**
   * POST MarkRegisteredBody -> Submission: 'Marcar como registrada' (issue 44, 3), the advisor filed it in RED
   * by other means; who and when are recorded and the company is told. 404 for another firm's alta, 409
   * for one already registered; nothing written either way.
   */
  markRegistered: '/api/form-to-flow-submission/:id/registered',
  /** GET -> ReceivedSummary: the altas companies sent that are not in RED yet (Home's notice, issue 44, 3). */
  received: '/api/form-to-flow-submission/received',
  /** GET -> the bytes of a file the company attached to this submission (advisor's session). */
  submissionFile: '/api/form-to-flow-submission/:id/files/:fileId',
  /** GET -> PendingSummary: what the autopilot and the robots have left to do (session or device). */
  pending: '/api/form-to-flow-submission/pending',
  /** POST { ids } -> { records: RedAltaRecord[], problems: SubmissionProblem[] }: the RED robot's input (session or device). */
  redRecords: '/api/form-to-flow-submission/red-records',
  /** POST { results: RedResult[] } -> { updated }: what RED answered per submission (session or device). */
  redResults: '/api/form-to-flow-submission/red-results',
  /** POST { ids } -> { rows: A3AltaRow[], problems: SubmissionProblem[] }: the A3 '202 – MA' rows (session or device). */
  a3Rows: '/api/form-to-flow-submission/a3-rows',
  /** POST { results: A3AltaResult[] } -> { updated } (session or device). */
  a3Results: '/api/form-to-flow-submission/a3-results',
  /** GET -> FormSettings; PUT multipart (title, url, logo file optional) -> FormSettings. */
  formSettings: '/api/users/formToFlow',
  /** GET -> the logo image (public: the company's form shows it). */
  formLogo: '/api/users/formToFlow/logo/:id',
  /** The company's side (public, own cookie session). POST { url, email, password } -> PublicFormSession. */
  publicAuth: '/api/form-to-flow-form/auth',
  /** POST -> 204: ends the company's session. */
  publicLogout: '/api/form-to-flow-form/logout',
  /** GET -> PublicForm (:id is the form's slug); POST PublicSubmission -> { _id } (201). */
  publicForm: '/api/form-to-flow-form/:id',
  /**
   * POST multipart, one file in field `file` -> PublicUploadedFile: a file field's file (images and PDF, by
   * name and content: 415 otherwise; 413 over 10 MB). 429/413 past the unsent-files caps (README).
   */
  publicFiles: '/api/form-to-flow-form/:id/files',
} as const;

/** The one form this module ships: a worker's alta (spec §3 Registration's known keys). */
export const ALTAS_FLOW_ID = 'alta-trabajador';
/** Spec §5 Form config: the URL is stored with this prefix; the public route is /form/:context/:id. */
export const FORM_URL_PREFIX = '/form/flows/';

export const ALTAS_LOGO_MAX_BYTES = 1_000_000;
export const ALTAS_LOGO_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'image/gif'] as const;
/** The names a logo may have (shared/files claimedFileType's types); its content must be that type too. */
export const ALTAS_LOGO_EXTENSIONS = ['png', 'jpg', 'jpeg', 'webp', 'gif'] as const;
export const ALTAS_FILE_MAX_BYTES = 10_000_000;
export const ALTAS_FILE_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'application/pdf'] as const;
/** The names a company's file may have; its content must be that type too, else 415. */
export const ALTAS_FILE_EXTENSIONS = ['png', 'jpg', 'jpeg', 'webp', 'pdf'] as const;
export const ALTAS_MAX_IDS_PER_REQUEST = 500;
/** Issue 39 (2): bytes of one results body (RED's or A3's answers); the desktop sends them in pages within it (shared/api/pages.ts). */
export const ALTAS_RESULTS_BODY_LIMIT = 512 * 1024;

/** Spec §8 texts this module answers with. */
export const EMAIL_IN_USE_MESSAGE = 'Este email ya está en uso';
export const URL_IN_USE_MESSAGE = 'La URL introducida ya existe.';
export const MAIL_FAILED_MESSAGE = 'Ha ocurrido un error al enviar el correo';
export const noGroupMessage = (company: string) => `Necesitas crear al menos un grupo en la empresa ${company} para continuar.`;
export const emailSentMessage = (email: string) => `El email se ha enviado correctamente a ${email}`;
export const BAD_CREDENTIALS_MESSAGE = 'El email o la contraseña no son correctos';

const id = z.string().check(z.minLength(1), z.maxLength(64));
const text = (max: number) => z.string().check(z.trim(), z.maxLength(max));
const email = z.string().check(z.trim(), z.toLowerCase(), z.maxLength(254), z.regex(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, 'Introduce una dirección de correo electrónico válida'));
const uuid = z.string().check(z.regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/, 'La clave del grupo no es válida'));
const isoTime = z.string();

export const idParamsSchema = z.object({ id });
export const flowParamsSchema = z.object({ flowId: id });
export const submissionFileParamsSchema = z.object({ id, fileId: id });
export const groupParamsSchema = z.object({ id, field: z.literal('groups') });
export const groupKeyParamsSchema = z.object({ id, field: z.literal('groups'), key: uuid });

// The form's definition, configuration and settings: ./altas-form.ts, exported from here too.
export * from './altas-form.ts';
import { FORM_SLUG_PATTERN, formFieldSchema, formPageSchema } from './altas-form.ts';

// ---- Companies, groups, client users ----

export const cccRowSchema = z.object({ label: text(100), key: text(20) });
export type CccRow = z.infer<typeof cccRowSchema>;

/** A group (profile) of a company: its key, name and the advisor's 'userBefore' values. */
export const groupBodySchema = z.object({
  text: text(120).check(z.minLength(1, 'Este campo es obligatorio')),
  fieldsValues: z.optional(z.record(z.string().check(z.maxLength(80)), z.union([z.string().check(z.maxLength(500)), z.boolean(), z.null()]))),
});
export const companyGroupSchema = z.object({ key: z.string(), text: z.string(), fieldsValues: z.record(z.string(), z.union([z.string(), z.boolean(), z.null()])) });
export type CompanyGroup = z.infer<typeof companyGroupSchema>;
/** POST/PATCH body: { [key]: GroupBody }, one or more groups. */
export const groupsBodySchema = z.record(uuid, groupBodySchema);

export const clientCompanySchema = z.object({
  _id: z.string(),
  credentials: z.object({ client: z.string(), enabled: z.boolean(), emailSentAt: z.nullable(isoTime) }),
  formToFlowConfiguration: z.string(),
  fieldsValues: z.object({ nombreEmpresa: z.string(), email: z.string(), CCC: z.array(cccRowSchema) }),
  groups: z.array(companyGroupSchema),
  open: z.boolean(),
  removed: z.boolean(),
  createdAt: isoTime,
});
export type ClientCompany = z.infer<typeof clientCompanySchema>;
export const companiesResponseSchema = z.object({ items: z.array(clientCompanySchema) });

/** Spec §7: POST form-to-flow-user/client with name, email, cccList. */
export const clientCreateSchema = z.strictObject({
  name: text(160).check(z.minLength(1, 'Este campo es obligatorio')),
  email,
  cccList: z.array(cccRowSchema).check(z.maxLength(50)),
});
export const clientUpdateSchema = z.strictObject({
  name: z.optional(text(160).check(z.minLength(1, 'Este campo es obligatorio'))),
  email: z.optional(email),
  cccList: z.optional(z.array(cccRowSchema).check(z.maxLength(50))),
});
/** Spec §7: PATCH form-to-flow-client with credentials, formToFlowConfiguration, fieldsValues. */
export const clientCompanyUpdateSchema = z.strictObject({
  _id: id,
  credentials: z.optional(z.strictObject({ enabled: z.boolean() })),
  formToFlowConfiguration: z.optional(id),
  fieldsValues: z.optional(z.strictObject({ nombreEmpresa: z.optional(text(160).check(z.minLength(1))), CCC: z.optional(z.array(cccRowSchema).check(z.maxLength(50))) })),
  open: z.optional(z.boolean()),
});

// ---- Submissions (spec §3 Registration) ----

/** A file a company attached (DNI photo, contract), stored by the server. */
export const submissionFileSchema = z.object({ fileId: z.string(), name: z.string(), size: z.number(), type: z.string() });
export type SubmissionFile = z.infer<typeof submissionFileSchema>;
export const fieldValueSchema = z.union([z.string().check(z.maxLength(500)), z.boolean(), z.null(), submissionFileSchema]);
export const fieldsValuesSchema = z.record(z.string().check(z.maxLength(80)), fieldValueSchema);
export type FieldsValues = z.infer<typeof fieldsValuesSchema>;

export const submissionSchema = z.object({
  _id: z.string(),
  /** Worker name plus company. */
  title: z.string(),
  flowId: z.string(),
  company: z.object({ _id: z.string(), name: z.string() }),
  groupKey: z.nullable(z.string()),
  fieldsValues: fieldsValuesSchema,
  processed: z.object({ syncSistemaRed: z.nullable(isoTime), syncA3: z.nullable(isoTime) }),
  /** The chain a registration goes through (issue 23 ★): received -> RED -> A3 -> company told. */
  chain: z.object({ receivedAt: isoTime, redAt: z.nullable(isoTime), a3At: z.nullable(isoTime), companyNotifiedAt: z.nullable(isoTime) }),
  /** RED's resolution text (the #DIL answer) once registered. */
  redResolution: z.nullable(z.string()),
  /** An AFI remittance written for SILTRA (second channel), waiting to be sent. */
  afiFile: z.nullable(z.string()),
  lastError: z.nullable(z.string()),
  /** When RED or A3 last refused it (with lastError). */
  lastErrorAt: z.nullable(isoTime),
  /** 'Marcar como registrada': the advisor filed it in RED by other means (when is chain.redAt). */
  manualRegistration: z.nullable(z.object({ byName: z.string(), reference: z.nullable(z.string()) })),
  createdBy: z.enum(['advisor', 'client']),
  createdAt: isoTime,
  removed: z.boolean(),
});
export type Submission = z.infer<typeof submissionSchema>;
export const submissionsResponseSchema = z.object({ items: z.array(submissionSchema) });
export const submissionsQuerySchema = z.object({
  flow: z.optional(id),
  company: z.optional(id),
  populate: z.optional(text(60)),
});
export const submissionCreateSchema = z.strictObject({
  companyId: id,
  groupKey: z.optional(z.nullable(uuid)),
  fieldsValues: fieldsValuesSchema,
});
/** Spec §7: the PATCH body is fieldsValues. */
export const submissionUpdateSchema = fieldsValuesSchema;

/** 'Marcar como registrada': RED's reference number if the advisor has one. */
export const markRegisteredBodySchema = z.strictObject({
  reference: z.optional(z.nullable(text(100))),
});
export type MarkRegisteredBody = z.infer<typeof markRegisteredBodySchema>;

/** Home's notice: how many altas the companies sent are waiting to be filed in RED, and the newest one's time. */
export const receivedSummarySchema = z.object({ count: z.int(), newestAt: z.nullable(isoTime) });
export type ReceivedSummary = z.infer<typeof receivedSummarySchema>;

export const idsBodySchema = z.strictObject({ ids: z.array(id).check(z.minLength(1, 'Necesitas seleccionar al menos un Alta para continuar.'), z.maxLength(ALTAS_MAX_IDS_PER_REQUEST)) });
export const submissionProblemSchema = z.object({ submissionId: z.string(), title: z.string(), message: z.string() });
export type SubmissionProblem = z.infer<typeof submissionProblemSchema>;

/**
 * One alta as RED Online's ATR01 takes it (research external-systems §2.2): screen 1 then screen 2.
 * Built from a submission and its group by the server; the robot types it as it is.
 */
export const redAltaRecordSchema = z.object({
  submissionId: z.string(),
  worker: z.string(),
  company: z.string(),
  /** NAF: province (2) and the rest (10). */
  nafProvince: z.string(),
  nafNumber: z.string(),
  /** '0111' Régimen General. */
  regimen: z.string(),
  /** IPF type: '1' DNI, '2' pasaporte, '6' NIE; number left-padded with 0 to 10. */
  ipfType: z.string(),
  ipfNumber: z.string(),
  /** CCC: province (2) and the rest (9). */
  cccProvince: z.string(),
  cccNumber: z.string(),
  /** '01' alta. */
  situacion: z.string(),
  /** Fecha real de alta, yyyy-mm-dd. */
  fechaReal: z.string(),
  grupoCotizacion: z.string(),
  /** TGSS table T19, 3 digits. */
  tipoContrato: z.string(),
  /** Per mil, 3 digits, '' for full time. */
  coeficienteParcialidad: z.string(),
  /** 14 digits or ''. */
  convenio: z.string(),
  /** CNO ocupación, 4 digits or ''. */
  ocupacion: z.string(),
  /** For the AFI remittance and A3 (AYN, FAB). */
  primerApellido: z.string(),
  segundoApellido: z.string(),
  nombre: z.string(),
  fechaNacimiento: z.string(),
  /** '1' hombre, '2' mujer, '' unknown. */
  sexo: z.string(),
});
export type RedAltaRecord = z.infer<typeof redAltaRecordSchema>;
export const redRecordsResponseSchema = z.object({ records: z.array(redAltaRecordSchema), problems: z.array(submissionProblemSchema) });

/** registered: RED accepted it; error: a fatal #DIL code (message is the #DIL text); afi-written: the AFI file waits for SILTRA. */
export const RED_RESULT_STATES = ['registered', 'error', 'afi-written'] as const;
export const redResultSchema = z.object({
  submissionId: id,
  state: z.enum(RED_RESULT_STATES),
  message: text(1000),
  /** The AFI file's name (afi-written). */
  afiFile: z.optional(text(255)),
});
export type RedResult = z.infer<typeof redResultSchema>;
export const redResultsBodySchema = z.strictObject({ results: z.array(redResultSchema).check(z.minLength(1), z.maxLength(ALTAS_MAX_IDS_PER_REQUEST)) });

/** One row of A3's '202 – MA' import workbook (our columns: A3's template headers are not public). */
export const a3AltaRowSchema = z.object({
  submissionId: z.string(),
  ccc: z.string(),
  nif: z.string(),
  naf: z.string(),
  primerApellido: z.string(),
  segundoApellido: z.string(),
  nombre: z.string(),
  fechaAlta: z.string(),
  tipoContrato: z.string(),
  grupoCotizacion: z.string(),
  coeficienteParcialidad: z.string(),
  convenio: z.string(),
  ocupacion: z.string(),
  categoria: z.string(),
  fechaNacimiento: z.string(),
  sexo: z.string(),
});
export type A3AltaRow = z.infer<typeof a3AltaRowSchema>;
export const a3RowsResponseSchema = z.object({ rows: z.array(a3AltaRowSchema), problems: z.array(submissionProblemSchema) });
export const a3AltaResultSchema = z.object({ submissionId: id, state: z.enum(['synced', 'error']), error: z.nullable(text(1000)) });
export const a3ResultsBodySchema = z.strictObject({ results: z.array(a3AltaResultSchema).check(z.minLength(1), z.maxLength(ALTAS_MAX_IDS_PER_REQUEST)) });
export const updatedResponseSchema = z.object({ updated: z.int() });

/** What is left to do: submissions not yet in RED (and without a pending AFI), and RED-registered ones not yet in A3. */
export const pendingSummarySchema = z.object({
  red: z.array(z.object({ _id: z.string(), title: z.string() })),
  a3: z.array(z.object({ _id: z.string(), title: z.string() })),
});
export type PendingSummary = z.infer<typeof pendingSummarySchema>;

// ---- The company's side ----

export const PUBLIC_SUBMISSION_STATUSES = ['received', 'attention', 'registered'] as const;
export type PublicSubmissionStatus = (typeof PUBLIC_SUBMISSION_STATUSES)[number];

export const publicAuthSchema = z.strictObject({
  /** The form's URL as the company opened it ('/form/flows/<slug>'). */
  url: text(200),
  email,
  password: z.string().check(z.minLength(1, 'Este campo es obligatorio'), z.maxLength(200)),
});
export const publicFormParamsSchema = z.object({ id: z.string().check(z.regex(FORM_SLUG_PATTERN, 'Este formulario no existe')) });

export const publicFormSchema = z.object({
  title: z.string(),
  logo: z.nullable(z.string()),
  /** Null until the company signs in. */
  session: z.nullable(z.object({
    email: z.string(),
    /** The companies this client user has in the firm (usually one). */
    companies: z.array(z.object({
      _id: z.string(),
      name: z.string(),
      ccc: z.array(cccRowSchema),
      /** Its groups as the choice of profile (name only: the advisor's values stay on the server). */
      groups: z.array(z.object({ key: z.string(), text: z.string() })),
    })),
    /** The fields the company fills (fieldWriter 'client'), in order, paged. */
    fields: z.record(z.string(), formFieldSchema),
    formPages: z.array(formPageSchema),
    /**
     * Its own submissions only. status: 'received' (waiting for the firm), 'attention' (RED refused it: the
     * firm is looking at it; the company never sees RED's own error), 'registered' (in the Seguridad Social).
     */
    submissions: z.array(z.object({ _id: z.string(), title: z.string(), company: z.string(), createdAt: isoTime, registered: z.boolean(), status: z.enum(PUBLIC_SUBMISSION_STATUSES) })),
  })),
});
export type PublicForm = z.infer<typeof publicFormSchema>;
export const publicSubmissionSchema = z.strictObject({
  companyId: id,
  groupKey: uuid,
  fieldsValues: fieldsValuesSchema,
});
export const publicUploadedFileSchema = submissionFileSchema;
