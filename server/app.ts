import fastifyCookie from '@fastify/cookie';
import fastifyRateLimit from '@fastify/rate-limit';
import Fastify, { LogController, type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { okResponseSchema } from '#shared/api/auth.ts';
import type { AppContext } from './context.ts';
import { DEFAULT_RUNS_OPTIONS, type ServerConfig } from './server-config.ts';
import { connectDatabase, withStartupWrites } from './db/connect.ts';
import { migrateToLatest } from './db/migrate.ts';
import { DemoFiles, type DemoRobotRun } from './db/demo-files.ts';
import { seedCatalog, seedDemoAccount } from './db/seed.ts';
import { registerClientInfo, trustProxyOption } from './http/client-info.ts';
import { registerCompression } from './http/compression.ts';
import { registerErrorHandler } from './http/errors.ts';
import { registerJsonBodyParser } from './http/json-body.ts';
import { registerApiDocs, routeSchema } from './http/openapi.ts';
import { registerOriginCheck } from './http/origin-check.ts';
import { registerRequestLog } from './http/request-log.ts';
import { lazyRequestLogger } from './http/request-logger.ts';
import { registerSecurityHeaders } from './http/security-headers.ts';
import { rateLimitError } from './http/rate-limit.ts';
import { registerWebApp } from './http/web-app.ts';
import { createMailer } from './mail/mailer.ts';
import { registerAltasPublicRoutes } from './modules/altas/public-routes.ts';
import { registerAltasRoutes } from './modules/altas/routes.ts';
import { FORM_PURGE_INTERVAL_MS } from './modules/altas/form-caps.ts';
import { AltasService } from './modules/altas/service.ts';
import { registerAltasSubmissionRoutes } from './modules/altas/submission-routes.ts';
import { registerAppLogsRoutes } from './modules/applogs/routes.ts';
import { DocumentGenerator } from './modules/documents/generator.ts';
import { registerDocumentsRoutes } from './modules/documents/routes.ts';
import { PasswordGuard } from './modules/auth/guard.ts';
import { resolveAuthLimits } from './modules/auth/limits.ts';
import { registerRecoveryRoutes } from './modules/auth/recovery-routes.ts';
import { registerAuthRoutes } from './modules/auth/routes.ts';
import { registerGoogleSignInRoutes } from './modules/auth/google-routes.ts';
import { GoogleSignIn } from './modules/auth/google.ts';
import { registerDocumentManagerRoutes } from './modules/documentmanager/routes.ts';
import { DocumentManager } from './modules/documentmanager/service.ts';
import { registerGroupsRoutes } from './modules/groups/routes.ts';
import { registerShareRoutes } from './modules/share/routes.ts';
import { Shares } from './modules/share/service.ts';
import { DeviceAuth } from './modules/devices/auth.ts';
import { DeviceRunService } from './modules/devices/device-runs.ts';
import { registerDevicesRoutes } from './modules/devices/routes.ts';
import { DEFAULT_FIE_DECODER_OPTIONS, FieDecoder } from './modules/fie/decoder.ts';
import { FieA3 } from './modules/fie/a3.ts';
import { registerFieRoutes } from './modules/fie/routes.ts';
import { FieService } from './modules/fie/service.ts';
import { registerFlowlogRoutes } from './modules/flowlogs/routes.ts';
import { FlowCatalogue, syncCatalogue } from './modules/flows/catalogue.ts';
import { FlowDirectory } from './modules/flows/directory.ts';
import { registerFlowsRoutes } from './modules/flows/routes.ts';
import { registerMachinesRoutes } from './modules/machines/routes.ts';
import { registerMacrosRoutes } from './modules/macros/routes.ts';
import { Macros } from './modules/macros/store.ts';
import { MailAccounts } from './modules/mail/accounts.ts';
import { registerMailDeliveryRoutes } from './modules/mail/deliveries-routes.ts';
import { MailOutbox } from './modules/mail/outbox-worker.ts';
import { emailResultInputsOf, MailProducers } from './modules/mail/producers.ts';
import { mailProvidersFromEnv } from './modules/mail/providers.ts';
import { registerMailAccountRoutes } from './modules/mail/routes.ts';
import { NotificationsDigest } from './modules/notifications/digest.ts';
import { registerNotificationsRoutes } from './modules/notifications/routes.ts';
import { NotificationsService } from './modules/notifications/service.ts';
import { LocalRunQueue, PgBossRunQueue } from './modules/runs/queue.ts';
import { registerRunsRoutes } from './modules/runs/routes.ts';
import type { RunsOptions } from './modules/runs/options.ts';
import { RunService } from './modules/runs/service.ts';
import { ScheduleRunner } from './modules/schedules/runner.ts';
import { registerSchedulesRoutes } from './modules/schedules/routes.ts';
import { registerStorageRoutes } from './modules/storage/routes.ts';
import { FileStorage } from './modules/storage/service.ts';
import { UploadInspections } from './modules/storage/inspections.ts';
import { DEFAULT_INSPECTOR_OPTIONS, UploadInspector } from './files/inspector.ts';
import { builtInFlows } from '../resources/flows/index.ts';
import { registerNotesRoutes } from './modules/notes/routes.ts';
import { createOnlineForms } from './modules/onlineforms/module.ts';
import { registerOnlineFormsRoutes } from './modules/onlineforms/routes.ts';
import { registerPreferencesRoutes } from './modules/preferences/routes.ts';
import { DEFAULT_FILE_RETENTION_DAYS } from './modules/retention/retention.ts';
import { FileSweeper } from './modules/retention/sweeper.ts';
import { registerSubscriptionsRoutes } from './modules/subscriptions/routes.ts';
import { DEFAULT_SUPPORT_EMAIL } from './modules/support/config.ts';
import { registerSupportRoutes } from './modules/support/routes.ts';
import { BillingAccount } from './modules/billing/account.ts';
import { registerUsageReportRoutes } from './modules/billing/ledger-routes.ts';
import { registerBillingRoutes } from './modules/billing/routes.ts';
import { createStripeClient } from './modules/billing/stripe-client.ts';
import { BillingSync } from './modules/billing/sync.ts';
import { UsageReporter } from './modules/billing/usage-reports.ts';
import { registerStripeWebhookRoutes } from './modules/billing/webhook-routes.ts';
import { Colleagues } from './modules/colleagues/service.ts';
import { registerColleaguesRoutes } from './modules/colleagues/routes.ts';
import { registerTicketRoutes } from './modules/support/ticket-routes.ts';
import { SupportTickets } from './modules/support/tickets.ts';
import { registerUsersRoutes } from './modules/users/routes.ts';
import { ephemeralSecretsBox, loadSecretsBox } from './security/secrets.ts';
import { RepeatingPass } from './timers/repeating-pass.ts';

function loggerOptions(config: ServerConfig): FastifyServerOptions['logger'] {
  const level = config.logLevel ?? 'info';
  if (config.logStream) return { level, stream: config.logStream };
  return config.logger ? { level } : false;
}

/** The API server, migrated and ready; tests drive it with app.inject. */
export async function buildApp(config: ServerConfig): Promise<FastifyInstance> {
  // Fastify's two lines per request (~380 B) filled the disk under load; registerRequestLog keeps a lean summary.
  // A bad flow definition stops the server before anything is opened, with the flow's name.
  const catalogue = new FlowCatalogue(config.flows ?? builtInFlows);
  // Before the database opens: a bad SECRETS_KEY or key file stops the server with nothing to close.
  const secrets = config.secrets ? await loadSecretsBox(config.secrets) : ephemeralSecretsBox();
  const app = Fastify({
    logger: loggerOptions(config),
    logController: new LogController({ disableRequestLogging: true }),
    // Each request's pino child is made when it first logs, not for every request (request-logger.ts).
    childLoggerFactory: lazyRequestLogger,
    trustProxy: trustProxyOption(config.trustProxy),
    bodyLimit: 1_048_576,
  });
  const db = connectDatabase(config.database, (error) => app.log.warn({ err: error }, 'Conexión a PostgreSQL perdida mientras esperaba; se abrirá otra'));
  app.addHook('onClose', async () => db.destroy());
  const now = config.now ?? (() => new Date());
  if (config.database.kind === 'postgres' && config.secrets && !config.secrets.key) {
    // Each process would make a key of its own: a mailbox linked through one could not be read by another.
    app.log.warn('Sin SECRETS_KEY: con varios procesos del servidor sobre PostgreSQL, todos deben compartir la misma clave (SECRETS_KEY) o no podrán leer las cuentas de correo vinculadas por los demás');
  }

  // Before the seed: the demo account's notification documents are stored there.
  const storage = new FileStorage(config.storageDir ?? 'data/storage');
  let demoRobotRuns: DemoRobotRun[] = [];
  try {
    await withStartupWrites(db, async () => {
      await migrateToLatest(db);
      await seedCatalog(db, now());
      const demo = config.demoAccount ? await seedDemoAccount(db, now(), process.env.NODE_ENV, storage) : null;
      if (demo) {
        app.log.info('Cuenta de demostración creada: demo@autoasesor.es / Demo1234!');
        demoRobotRuns = demo;
      }
      await syncCatalogue(db, catalogue, now());
    });
  } catch (error) {
    await db.destroy();
    throw error;
  }

  const inspections = new UploadInspections(db, storage, new UploadInspector({ ...DEFAULT_INSPECTOR_OPTIONS, ...config.inspection }));
  const concurrency = config.runs?.concurrency ?? DEFAULT_RUNS_OPTIONS.concurrency;
  // Unless set, a firm may fill one process's slots; with other firms waiting, the ranks interleave them.
  const runsOptions: RunsOptions = { ...DEFAULT_RUNS_OPTIONS, runningPerFirm: concurrency, ...config.runs, flowsModule: config.flowsModule ?? null };
  const queue =
    config.database.kind === 'postgres'
      ? new PgBossRunQueue(config.database.url, runsOptions.concurrency, (error) => app.log.warn({ err: error }, 'Error en la cola de ejecuciones (pg-boss)'))
      : new LocalRunQueue(runsOptions.concurrency, runsOptions.runningPerFirm);
  // Macros (issue 41): the firm's own robots, run as flows 'macro-<id>' beside the built-in catalogue.
  const macros = new Macros({ db, now });
  const flows = new FlowDirectory(catalogue, macros);
  const runs = new RunService({ db, now, flows, storage, inspections, queue, options: runsOptions, log: app.log });
  const deviceRuns = new DeviceRunService({ db, now, flows, runs, storage, leaseMs: runsOptions.leaseMs });
  // Machines' long polls answer at once rather than holding the close.
  app.addHook('preClose', async () => deviceRuns.shutdown());
  // Before the database closes: runs executing here end (not charged) and the queue lets go.
  app.addHook('preClose', async () => runs.shutdown());
  const scheduleRunner = new ScheduleRunner({ db, launcher: runs, now, log: app.log });
  // preClose hooks run in order: the runs above end first (299), so their schedules are released, not waited for.
  app.addHook('preClose', async () => scheduleRunner.stop());
  const fileRetentionDays = config.fileRetention?.days ?? DEFAULT_FILE_RETENTION_DAYS;
  const fileSweeper = new FileSweeper({ db, storage, now, retentionDays: fileRetentionDays, log: app.log });
  app.addHook('preClose', async () => fileSweeper.stop());
  // The demo's robots, started once the app is ready, end before the database closes.
  let demoFiles: DemoFiles | null = null;
  app.addHook('preClose', async () => demoFiles?.stop());

  const loginRateLimit = config.loginRateLimit ?? { max: 10, timeWindowMs: 60_000 };
  const ctx: AppContext = {
    db,
    now,
    mailer: createMailer(config.smtp, app.log),
    publicUrl: config.publicUrl.replace(/\/+$/, ''),
    cookieSecure: config.cookieSecure,
    loginRateLimit,
    signupsPerIpHour: config.signupsPerIpHour ?? 50,
    fileRetentionDays,
  };
  // What one module gives others is passed to their register functions below, never through ctx.
  const digest = new NotificationsDigest({ db, mailer: ctx.mailer, now, publicUrl: ctx.publicUrl });
  const digestTimer = new RepeatingPass(() => digest.run(), (error) => app.log.error({ err: error }, 'No se ha podido enviar el resumen diario de notificaciones'));
  app.addHook('preClose', async () => digestTimer.stop());
  // Mail accounts (issue 25): linked mailboxes and their sealed tokens; the outbox sends through mailAccounts.
  const mailProviders = config.mail ?? mailProvidersFromEnv({});
  const mailAccounts = new MailAccounts({ db, now, secrets, providers: mailProviders, publicUrl: ctx.publicUrl, mailer: ctx.mailer, log: app.log, rowLocks: config.database.kind === 'postgres' });
  // The outbox: result mails and failure notices, sent off the request path with retries (never inline).
  const mailOutbox = new MailOutbox({
    db, storage, tokens: mailAccounts, mailer: ctx.mailer, now, log: app.log,
    apiBaseUrls: { google: mailProviders.google.apiBaseUrl, microsoft: mailProviders.microsoft.apiBaseUrl },
    producers: [new MailProducers({ db, now, publicUrl: ctx.publicUrl, emailResultInputs: emailResultInputsOf(catalogue.list().map((flow) => flow.definition)) })],
    // SQLite has one server process: an attempt left 'sending' at start was cut off by its end.
    singleProcess: config.database.kind === 'sqlite',
  });
  app.addHook('preClose', async () => mailOutbox.stop());
  // Billing (issue 26): Stripe when configured; webhooks keep the subscription, a pass reports extra usage.
  const billingConfig = config.billing ?? null;
  const stripe = billingConfig ? createStripeClient(billingConfig) : null;
  const billingDeps = { db, now, stripe, config: billingConfig, publicUrl: ctx.publicUrl, log: app.log };
  const billing = new BillingAccount(billingDeps);
  const billingSync = new BillingSync({ ...billingDeps, mailer: ctx.mailer });
  const usageReporter = new UsageReporter(billingDeps);
  const usageTimer = new RepeatingPass(() => usageReporter.run(), (error) => app.log.error({ err: error }, 'No se ha podido enviar a Stripe el consumo por encima del plan'));
  const plansTimer = new RepeatingPass(() => billing.syncPlans(), (error) => app.log.warn({ err: error }, 'No se han podido leer los planes de Stripe; se reintentará'));
  app.addHook('preClose', async () => {
    await Promise.all([usageTimer.stop(), plansTimer.stop()]);
  });
  // Support tickets and colleagues (issue 26).
  const tickets = new SupportTickets({ db, now, mailer: ctx.mailer, publicUrl: ctx.publicUrl, support: config.support ?? { email: DEFAULT_SUPPORT_EMAIL }, log: app.log });
  const colleagues = new Colleagues({ db, now, mailer: ctx.mailer, publicUrl: ctx.publicUrl, log: app.log, mailboxes: mailAccounts });
  const authLimits = resolveAuthLimits(loginRateLimit, config.authLimits);
  const passwords = new PasswordGuard(ctx, authLimits);

  registerErrorHandler(app);
  registerRequestLog(app);
  registerSecurityHeaders(app, { hsts: config.publicUrl.startsWith('https://') });
  registerJsonBodyParser(app);
  await app.register(fastifyCookie);
  // Off by default; routes opt in with config.rateLimit. Must be registered before the routes.
  await app.register(fastifyRateLimit, { global: false, errorResponseBuilder: () => rateLimitError() });
  // Before the routes too: it wraps each route as it is added.
  await registerCompression(app);
  registerClientInfo(app);
  registerOriginCheck(app, config.allowedOrigins);
  // Before the routes: the document lists the routes added after it.
  await registerApiDocs(app);

  app.get('/api/health', { schema: routeSchema({ tag: 'health', summary: 'Whether the server answers', response: { 200: okResponseSchema } }) }, async () => ({ ok: true }));
  registerAuthRoutes(app, ctx, authLimits, passwords);
  registerRecoveryRoutes(app, ctx, authLimits);
  registerUsersRoutes(app, ctx, passwords);
  registerPreferencesRoutes(app, ctx);
  registerAppLogsRoutes(app, ctx, config.appLogs);
  registerNotesRoutes(app, ctx);
  registerSubscriptionsRoutes(app, ctx);
  registerFlowlogRoutes(app, ctx);
  registerFlowsRoutes(app, ctx, flows);
  await registerStorageRoutes(app, ctx, storage, inspections);
  registerRunsRoutes(app, ctx, runs, storage);
  // One DeviceAuth for every device route: it writes a machine's last call at most every few seconds.
  const deviceAuth = new DeviceAuth(db, now, config.deviceTouchEveryMs);
  registerSchedulesRoutes(app, ctx, flows, runs, deviceAuth);
  registerMachinesRoutes(app, ctx, flows);
  await registerFieRoutes(app, ctx, new FieService(db, now, new FieDecoder({ ...DEFAULT_FIE_DECODER_OPTIONS, ...config.fieDecoder }), app.log), new FieA3(db, now), deviceAuth);
  const altas = new AltasService(ctx, storage, passwords, app.log, deviceAuth, config.altas?.uploadCaps);
  const formPurge = new RepeatingPass(() => altas.public.purge(), (error) => app.log.error({ err: error }, 'No se han podido borrar las sesiones caducadas del formulario de altas'));
  app.addHook('preClose', async () => formPurge.stop());
  await registerAltasRoutes(app, ctx, altas);
  // Documents (issue 40): one generator renders every document (the creator's and online forms' submissions) in child processes.
  const documentGenerator = new DocumentGenerator({ db, storage, now, log: app.log });
  app.addHook('preClose', async () => documentGenerator.stop());
  // SQLite has one server process: a document a previous process left 'generating' will never be finished.
  if (config.database.kind === 'sqlite') await documentGenerator.failInterrupted();
  await registerDocumentsRoutes(app, ctx, documentGenerator);
  // Online forms (issue 40 §2): clients' submissions make their documents through the same generator.
  const onlineForms = createOnlineForms(ctx, { storage, generator: documentGenerator, log: app.log, caps: config.onlineForms });
  app.addHook('preClose', async () => onlineForms.publicForms.settle());
  registerOnlineFormsRoutes(app, ctx, onlineForms);
  registerMacrosRoutes(app, ctx, macros);
  registerAltasSubmissionRoutes(app, ctx, altas);
  await registerAltasPublicRoutes(app, ctx, altas);
  await registerNotificationsRoutes(app, ctx, new NotificationsService(db, storage, now), deviceAuth);
  registerMailAccountRoutes(app, ctx, mailAccounts);
  registerMailDeliveryRoutes(app, ctx);
  registerDevicesRoutes(app, ctx, deviceAuth, deviceRuns);
  registerSupportRoutes(app, config.support ?? { email: DEFAULT_SUPPORT_EMAIL });
  await registerTicketRoutes(app, ctx, tickets, storage);
  registerBillingRoutes(app, ctx, billing);
  await registerStripeWebhookRoutes(app, ctx, billingSync);
  registerUsageReportRoutes(app, ctx);
  registerColleaguesRoutes(app, ctx, colleagues, passwords);
  // Documents (issue 40): sharing, the document manager, the firm's screen settings, Sign in with Google.
  registerShareRoutes(app, ctx, new Shares({ db, now }));
  registerDocumentManagerRoutes(app, ctx, new DocumentManager({ db, now, fileRetentionDays }));
  registerGroupsRoutes(app, ctx);
  registerGoogleSignInRoutes(app, ctx, new GoogleSignIn({ db, now, config: config.google ?? null, redirectUri: `${ctx.publicUrl}/api/auth/google/callback`, log: app.log }));
  await registerWebApp(app, config.webRoot ?? 'dist/renderer');

  await app.ready();
  try {
    // SQLite has one server process: runs a previous process left queued are queued again here.
    await runs.start({ queueSurvivesProcess: config.database.kind === 'postgres' });
    const scheduleCheckMs = config.scheduleRunnerIntervalMs ?? 5_000;
    if (scheduleCheckMs > 0) scheduleRunner.start(scheduleCheckMs);
    const fileSweepMs = config.fileRetention?.sweepIntervalMs ?? 60 * 60_000;
    if (fileSweepMs > 0) fileSweeper.start(fileSweepMs);
    const digestCheckMs = config.notificationsDigestIntervalMs ?? 10 * 60_000;
    if (digestCheckMs > 0) digestTimer.start(digestCheckMs);
    const formPurgeMs = config.altas?.purgeIntervalMs ?? FORM_PURGE_INTERVAL_MS;
    if (formPurgeMs > 0) formPurge.start(formPurgeMs, Math.min(formPurgeMs, 60_000));
    const mailOutboxMs = config.mailOutboxIntervalMs ?? 5_000;
    if (mailOutboxMs > 0) await mailOutbox.start(mailOutboxMs);
    if (stripe) {
      const plansMs = config.billingPlansIntervalMs ?? 60 * 60_000;
      if (plansMs > 0) plansTimer.start(plansMs, 0);
      const usageMs = config.billingUsageIntervalMs ?? 10_000;
      if (usageMs > 0) usageTimer.start(usageMs);
    }
    if (demoRobotRuns.length > 0 && config.demoFiles !== false) {
      demoFiles = new DemoFiles({ db, storage, warn: (message) => app.log.warn(message) }, demoRobotRuns);
    }
  } catch (error) {
    await app.close();
    throw error;
  }
  return app;
}
