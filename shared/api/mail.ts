import { z } from 'zod/mini';
import { EMAIL_PROVIDERS } from './machines.ts';

/**
 * Mail accounts (issue 25, spec §2 'Email configuration wizard', §7 OAuthConnect and /oauth-response):
 * a firm links a Google or Microsoft mailbox, and robots send their results and failure notices from
 * it. The tokens stay on the server, sealed; no response ever carries one.
 *
 * Linking, on the web: POST oauthStart -> the browser goes to the provider -> the provider returns to
 * /oauth-response?code&state -> that page POSTs oauthComplete. In the desktop app: the bridge's
 * OAuthConnect runs the loopback flow (RFC 8252 §7.3, PKCE S256) and hands back the single-use code and
 * its verifier, which the renderer POSTs to oauthDesktop; the server redeems it.
 */
export const mailPaths = {
  /** GET { items: MailAccount[] }: the firm's linked accounts, the caller's first. */
  accounts: '/api/mail/accounts',
  /** DELETE: unlinks (the provider's token is revoked where the provider allows it). Who linked it, or the firm's other advisors. */
  account: '/api/mail/accounts/:id',
  /** POST { provider, loginHint? } -> { authorizationUrl }: where to send the browser (web flow). */
  oauthStart: '/api/mail/oauth/start',
  /** POST { state, code } or { state, error, errorDescription? } (what /oauth-response received) -> MailAccount (201). */
  oauthComplete: '/api/mail/oauth/complete',
  /** POST { provider, code, codeVerifier, redirectUri } (what OAuthConnect returned) -> MailAccount (201). */
  oauthDesktop: '/api/mail/oauth/desktop',
  /** GET -> DesktopClients: the desktop app's OAuth client at each provider, which OAuthConnect uses unless its own settings name one. */
  oauthDesktopClients: '/api/mail/oauth/desktop-clients',
  /** GET ?runId= -> { items: MailDelivery[] }: the messages a run caused (its result, a failure notice). */
  deliveries: '/api/mail/deliveries',
} as const;

export type MailProvider = (typeof EMAIL_PROVIDERS)[number];
export { EMAIL_PROVIDERS };

/** Least privilege: send only, plus the identity claims that say which address was linked. */
export const MAIL_SCOPES: Record<MailProvider, readonly string[]> = {
  google: ['openid', 'email', 'https://www.googleapis.com/auth/gmail.send'],
  microsoft: ['openid', 'profile', 'email', 'offline_access', 'https://graph.microsoft.com/Mail.Send'],
};

export const MAIL_PROVIDER_NAMES: Record<MailProvider, string> = { google: 'Google (Gmail)', microsoft: 'Microsoft (Outlook)' };

// ---------------------------------------------------------------------------------------------------
// Messages

export const OAUTH_STATE_INVALID_MESSAGE = 'La autorización ha caducado o ya se ha usado. Vuelve a conectar la cuenta.';
export const OAUTH_DENIED_MESSAGE = 'No se ha concedido el permiso para enviar correo. Vuelve a conectar la cuenta y acepta el permiso.';
export const OAUTH_EXCHANGE_FAILED_MESSAGE = 'No se ha podido completar la conexión con el proveedor de correo. Inténtalo de nuevo.';
export const OAUTH_NOT_CONFIGURED_MESSAGE = 'Este servidor no tiene configurada la conexión con este proveedor de correo.';
export const MAIL_ACCOUNT_NOT_FOUND_MESSAGE = 'No se ha encontrado esta cuenta de correo';
export const MAIL_ACCOUNT_REQUIRED_MESSAGE = 'Conecta una cuenta de correo antes de guardar la configuración.';
export const MAIL_ACCOUNT_NEEDS_RELINK_MESSAGE = 'La cuenta de correo necesita volver a conectarse: el proveedor ha retirado el permiso.';
export const MAIL_RECIPIENTS_REQUIRED_MESSAGE = 'Indica al menos un destinatario';
export const MAIL_CONFIG_REQUIRED_MESSAGE = 'Elige la configuración de correo con la que se envía';
export const MAIL_CONFIG_NOT_USABLE_MESSAGE = 'La configuración de correo elegida no existe o no tiene una cuenta conectada';
/** How many people one result may go to: a firm's client and a few colleagues, not a mailing list. */
export const MAIL_MAX_RECIPIENTS = 20;

// ---------------------------------------------------------------------------------------------------
// Accounts

export const MAIL_ACCOUNT_STATUSES = ['linked', 'needs_relink'] as const;
export type MailAccountStatus = (typeof MAIL_ACCOUNT_STATUSES)[number];

export const mailAccountSchema = z.object({
  _id: z.string(),
  provider: z.enum(EMAIL_PROVIDERS),
  email: z.string(),
  /** 'needs_relink': the provider refused the refresh token (invalid_grant); nothing sends until it is linked again. */
  status: z.enum(MAIL_ACCOUNT_STATUSES),
  /** Why it needs re-linking, in Spanish; null when linked. */
  problem: z.nullable(z.string()),
  /** Linked by the caller. */
  mine: z.boolean(),
  linkedBy: z.object({ name: z.string(), email: z.string() }),
  linkedAt: z.string(),
  lastUsedAt: z.nullable(z.string()),
});
export type MailAccount = z.infer<typeof mailAccountSchema>;
export const mailAccountsResponseSchema = z.object({ items: z.array(mailAccountSchema) });
export type MailAccountsResponse = z.infer<typeof mailAccountsResponseSchema>;

const email = z.email('Introduce una dirección de correo electrónico válida');

export const oauthStartRequestSchema = z.strictObject({
  provider: z.enum(EMAIL_PROVIDERS),
  /** Pre-fills the provider's account chooser (re-linking a known address). */
  loginHint: z.optional(email),
});
export type OAuthStartRequest = z.infer<typeof oauthStartRequestSchema>;
export const oauthStartResponseSchema = z.object({ authorizationUrl: z.string() });
export type OAuthStartResponse = z.infer<typeof oauthStartResponseSchema>;

const oauthState = z.string().check(z.minLength(16), z.maxLength(200));
export const oauthCompleteRequestSchema = z.strictObject({
  state: oauthState,
  code: z.optional(z.string().check(z.minLength(1), z.maxLength(4000))),
  /** The provider's own error (access_denied...), when it sent one instead of a code. */
  error: z.optional(z.string().check(z.maxLength(200))),
  errorDescription: z.optional(z.string().check(z.maxLength(2000))),
});
export type OAuthCompleteRequest = z.infer<typeof oauthCompleteRequestSchema>;

/** RFC 7636 §4.1: 43-128 unreserved characters. */
export const codeVerifierSchema = z.string().check(z.regex(/^[A-Za-z0-9\-._~]{43,128}$/, 'El verificador PKCE no es válido'));
/** RFC 8252 §7.3: the loopback IP literal, any port, our path. */
export const loopbackRedirectSchema = z.string().check(z.regex(/^http:\/\/127\.0\.0\.1:\d{1,5}\/[\w\-./]*$/, 'La dirección de vuelta no es una dirección local válida'));

/**
 * Public facts (a public client's id is not a secret): where the desktop sends the browser and which
 * client it asks for. An installed app learns them from its server, so one configuration serves both.
 */
export const desktopClientSchema = z.object({ authorizationUrl: z.string().check(z.maxLength(500)), issuer: z.string().check(z.maxLength(500)), clientId: z.string().check(z.minLength(1), z.maxLength(300)) });
export type DesktopClient = z.infer<typeof desktopClientSchema>;
export const desktopClientsSchema = z.object({ google: z.nullable(desktopClientSchema), microsoft: z.nullable(desktopClientSchema) });
export type DesktopClients = z.infer<typeof desktopClientsSchema>;

export const oauthDesktopRequestSchema = z.strictObject({
  provider: z.enum(EMAIL_PROVIDERS),
  code: z.string().check(z.minLength(1), z.maxLength(4000)),
  codeVerifier: codeVerifierSchema,
  redirectUri: loopbackRedirectSchema,
});
export type OAuthDesktopRequest = z.infer<typeof oauthDesktopRequestSchema>;

// ---------------------------------------------------------------------------------------------------
// Deliveries (the outbox as a run's history shows it)

/** result: a robot's result to its recipients; notice: a failed, aborted or refused scheduled/remote run, to whoever launched it; account: a mailbox that needs re-linking, to its owner. */
export const MAIL_DELIVERY_KINDS = ['result', 'notice', 'account'] as const;
/**
 * pending: waiting for its (next) attempt; sending: an attempt is under way; sent: the provider took it;
 * failed: given up (a permanent refusal, or out of attempts); unknown: the server stopped during an
 * attempt, so it may have gone out; it is never tried again, to never send one run's mail twice.
 */
export const MAIL_DELIVERY_STATES = ['pending', 'sending', 'sent', 'failed', 'unknown'] as const;
export const MAIL_TRANSPORTS = ['google', 'microsoft', 'smtp'] as const;

export const mailDeliverySchema = z.object({
  _id: z.string(),
  kind: z.enum(MAIL_DELIVERY_KINDS),
  to: z.array(z.string()),
  subject: z.string(),
  transport: z.enum(MAIL_TRANSPORTS),
  /** The linked mailbox it goes from; null through the server's SMTP. */
  from: z.nullable(z.string()),
  attachments: z.array(z.object({ name: z.string(), size: z.int() })),
  state: z.enum(MAIL_DELIVERY_STATES),
  attempts: z.int(),
  /** The provider's message id once sent (Gmail's id; Graph answers 202 without one: null). */
  providerMessageId: z.nullable(z.string()),
  /** The last failure, in Spanish. */
  error: z.nullable(z.string()),
  createdAt: z.string(),
  sentAt: z.nullable(z.string()),
  nextAttemptAt: z.nullable(z.string()),
});
export type MailDelivery = z.infer<typeof mailDeliverySchema>;
export const deliveriesQuerySchema = z.object({ runId: z.string().check(z.uuid('El identificador de la ejecución no es válido')) });
export const deliveriesResponseSchema = z.object({ items: z.array(mailDeliverySchema) });
export type DeliveriesResponse = z.infer<typeof deliveriesResponseSchema>;

// ---------------------------------------------------------------------------------------------------
// The flow input 'Enviar resultado por email' (template 'EmailResult', shared/flows/definition.ts)

/**
 * Null or absent: the result is not emailed. configId names a machine config with emailSettings (the
 * message and the linked account it goes from), visible to whoever launches.
 */
export const emailResultValueSchema = z.nullable(
  z.strictObject({
    configId: z.string().check(z.minLength(1, MAIL_CONFIG_REQUIRED_MESSAGE), z.maxLength(64)),
    recipients: z.array(email).check(z.minLength(1, MAIL_RECIPIENTS_REQUIRED_MESSAGE), z.maxLength(MAIL_MAX_RECIPIENTS, `Hasta ${MAIL_MAX_RECIPIENTS} destinatarios`)),
  }),
);
export type EmailResultValue = z.infer<typeof emailResultValueSchema>;
