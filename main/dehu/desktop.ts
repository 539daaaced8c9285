import type { LemaEnvio, LemaRealizada, NotificationDocument, RobotAccess, RobotCertificate } from '#shared/api/notifications.ts';
import { CERTIFICATE_REQUIRED_MESSAGE } from '#shared/api/notifications.ts';
import type { LocalCertificate } from '#shared/certificates/certificate.ts';
import { BridgeFailure } from '../bridge/failure.ts';
import type { CertificateSource } from '../bridge/context.ts';
import { DeviceError } from '../device/errors.ts';
import { requireLinkRecord, type DeviceLinkReader } from '../device/linked-record.ts';
import { earliestRealizadasFechaDesde, latestFechaHasta } from './lema/dates.ts';
import { dehuServerClient, type DehuServerClient } from './server-client.ts';
import type { DehuDesktopSettings } from './settings.ts';
import type { DehuDesktop, LemaClient, LemaClientOptions, LemaDocument, LemaPeriod, OpenResult, UpdateResult } from './types.ts';

export interface DehuDesktopOptions {
  /** The device link: the server and token the statuses, notifications and documents go to. */
  link: DeviceLinkReader;
  /** This PC's store: which certificates are here, and each one's key in memory for LEMA. */
  certificates: Pick<CertificateSource, 'list' | 'clientCertificate'>;
  settings: () => Promise<DehuDesktopSettings>;
  /** main/dehu/lema/client.ts createLemaClient; tests pass a fake. */
  lemaClient: (options: LemaClientOptions) => LemaClient;
  fetch: typeof fetch;
  now: () => Date;
}

export const certificateNotHereMessage = (commonName: string) =>
  `El certificado «${commonName}» no está en este equipo: actualiza sus notificaciones desde el equipo que lo tiene.`;
export const openElsewhereMessage = (commonName: string) => `Abre esta notificación desde el equipo que tiene el certificado «${commonName}».`;
export const NO_NIF_MESSAGE = 'No se conoce el NIF del certificado: DEHÚ lo necesita para abrir la notificación.';
export const openedButNotStoredMessage = (problems: readonly string[]) =>
  `La notificación se ha abierto en DEHÚ, pero no se ha podido guardar todo: ${problems.join(' ')}`;

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));
/** The server keeps at most 1000 characters of a failure. */
const shortMessage = (text: string) => (text.length > 1000 ? `${text.slice(0, 999)}…` : text);
const documentName = (name: string, fallback: string) => (name.trim() === '' ? fallback : name.trim().slice(0, 200));

/**
 * The period both services accept, today excluded (LEMA refuses it): from Madrid midnight 29 days back
 * (LocalizaRealizadas refuses more than 30 days, 4224) to yesterday 23:59:59.
 */
export function lookbackPeriod(now: Date): LemaPeriod {
  return { fechaDesde: earliestRealizadasFechaDesde(now), fechaHasta: latestFechaHasta(now) };
}

type UpdateTarget = RobotCertificate & { local: LocalCertificate | null };
type UpdateRequest = NonNullable<Parameters<DehuDesktop['update']>[0]>;

export function createDehuDesktop(options: DehuDesktopOptions): DehuDesktop {
  async function server(): Promise<DehuServerClient> {
    const record = await requireLinkRecord(options.link);
    return dehuServerClient({ serverUrl: record.serverUrl, deviceToken: record.deviceToken, fetch: options.fetch });
  }

  async function localCertificates(): Promise<Map<string, LocalCertificate>> {
    const { certificates } = await options.certificates.list();
    return new Map(certificates.map((certificate) => [certificate.fingerprint, certificate]));
  }

  async function lemaFor(fingerprint: string): Promise<LemaClient> {
    const settings = await options.settings();
    const { pfx, passphrase } = await options.certificates.clientCertificate(fingerprint);
    return options.lemaClient({
      lemaUrl: settings.lemaUrl,
      realizadasUrl: settings.realizadasUrl,
      pfx,
      passphrase,
      now: options.now,
      ...(settings.ca ? { ca: settings.ca } : {}),
      ...(settings.servername ? { servername: settings.servername } : {}),
      ...(settings.successCodes ? { successCodes: settings.successCodes } : {}),
    });
  }

  /** The watched certificates on this PC, or those listed (one listed but not watched is still read: the server adds it). */
  async function targetsOf(client: DehuServerClient, listed: readonly string[] | undefined): Promise<UpdateTarget[]> {
    const [watched, local] = await Promise.all([client.certificates(), localCertificates()]);
    const byFingerprint = new Map(watched.map((certificate) => [certificate.fingerprint, certificate]));
    const chosen = listed && listed.length > 0 ? [...new Set(listed)] : watched.map((certificate) => certificate.fingerprint);
    return chosen.map((fingerprint) => {
      const here = local.get(fingerprint) ?? null;
      const known = byFingerprint.get(fingerprint);
      return {
        fingerprint,
        commonName: known?.commonName ?? here?.commonName ?? fingerprint.slice(0, 12),
        nif: known?.nif ?? here?.nifVat ?? here?.holderNif ?? null,
        local: here,
      };
    });
  }

  async function readMailbox(target: UpdateTarget, signal: AbortSignal | undefined): Promise<{ pendientes: LemaEnvio[]; realizadas: LemaRealizada[] }> {
    const lema = await lemaFor(target.fingerprint);
    const period = lookbackPeriod(options.now());
    const pendientes = await lema.localiza(period, signal);
    const realizadas = await lema.localizaRealizadas(period, signal);
    return { pendientes, realizadas };
  }

  async function updateNow({ certificates, log = () => undefined, signal }: UpdateRequest): Promise<UpdateResult> {
    const client = await server();
    const targets = await targetsOf(client, certificates);
    if (targets.length === 0) throw new BridgeFailure('UNAVAILABLE', CERTIFICATE_REQUIRED_MESSAGE);
    const results: UpdateResult['certificates'] = [];
    // One certificate at a time: each opens its own TLS session with its own key.
    for (const target of targets) {
      if (signal?.aborted) throw signal.reason instanceof Error ? signal.reason : new Error('Actualización detenida.');
      const { fingerprint, commonName } = target;
      log('info', `Consultando DEHÚ con el certificado «${commonName}»…`);
      try {
        if (!target.local) throw new Error(certificateNotHereMessage(commonName));
        await client.status({ fingerprint, state: 'running' });
        const { pendientes, realizadas } = await readMailbox(target, signal);
        const { added } = await client.upsert(fingerprint, pendientes, realizadas);
        const found = pendientes.length + realizadas.length;
        await client.status({ fingerprint, state: 'done', found, added });
        log('info', `«${commonName}»: ${found} notificación(es) en DEHÚ (${pendientes.length} pendiente(s)), ${added} nueva(s).`);
        results.push({ fingerprint, commonName, state: 'done', found, added, message: null });
      } catch (error) {
        if (signal?.aborted) throw error;
        // A lost device link or server stops everything: no other certificate could be reported either.
        if (error instanceof DeviceError && error.reason !== 'server') throw error;
        const message = shortMessage(messageOf(error));
        log('error', `«${commonName}»: ${message}`);
        // A listed certificate the server does not know on this machine cannot take a status (400): its result says why.
        await client.status({ fingerprint, state: 'error', message }).catch((reportError: unknown) => {
          if (!(reportError instanceof DeviceError && reportError.reason === 'server')) throw reportError;
        });
        results.push({ fingerprint, commonName, state: 'error', found: 0, added: 0, message });
      }
    }
    return { certificates: results };
  }

  // One update at a time on this PC (the screen, a scheduled run and the autopilot may ask at once): the
  // second starts after the first, so a certificate's statuses never interleave and LEMA is not asked twice at once.
  let updating: Promise<unknown> = Promise.resolve();
  const opening = new Map<string, Promise<OpenResult>>();

  return {
    update(request = {}) {
      const next = updating.then(() => updateNow(request), () => updateNow(request));
      updating = next.catch(() => undefined);
      return next;
    },

    open(notificationId, signal) {
      // A second ask while one is under way (a double click, two windows) joins it: PeticionAcceso only once.
      const under = opening.get(notificationId);
      if (under) return under;
      const started = openNow(notificationId, signal).finally(() => opening.delete(notificationId));
      opening.set(notificationId, started);
      return started;
    },
  };

  async function openNow(notificationId: string, signal: AbortSignal | undefined): Promise<OpenResult> {
    const client = await server();
    const access = await client.access(notificationId);
    // PeticionAcceso has legal effect once: an opened notification answers what is already stored.
    if (access.estado !== 'pendiente') return resultOf(notificationId, access.documents);
    const here = (await localCertificates()).get(access.certificate.fingerprint);
    if (!here) throw new BridgeFailure('UNAVAILABLE', openElsewhereMessage(access.certificate.commonName));
    const nif = access.certificate.nif ?? here.nifVat ?? here.holderNif;
    if (!nif) throw new BridgeFailure('FAILED', NO_NIF_MESSAGE);
    const lema = await lemaFor(access.certificate.fingerprint).catch((error: unknown) => {
      throw new BridgeFailure('FAILED', messageOf(error));
    });
    return openPending(client, lema, access, nif, signal);
  }
}

function resultOf(notificationId: string, documents: readonly Pick<NotificationDocument, '_id' | 'kind' | 'name'>[]): OpenResult {
  return { notificationId, documents: documents.map(({ _id, kind, name }) => ({ _id, kind, name })) };
}

/**
 * PeticionAcceso, then the documents. The comparecencia is recorded on the server right after the notice
 * is stored, before the annexes and the acuse: were it last, a failed annex would leave the notification
 * 'pendiente' here although DEHÚ already counts it as notified, and a retry would ask PeticionAcceso again.
 */
async function openPending(client: DehuServerClient, lema: LemaClient, access: RobotAccess, nifReceptor: string, signal: AbortSignal | undefined): Promise<OpenResult> {
  const { _id: id, identificador, codigoOrigen, concepto } = access;
  const nombreReceptor = access.certificate.commonName;
  const opened = await lema.peticionAcceso({ identificador, codigoOrigen, concepto, nifReceptor, nombreReceptor }, signal).catch((error: unknown) => {
    throw new BridgeFailure('FAILED', messageOf(error));
  });
  const stored: NotificationDocument[] = [];
  const problems: string[] = [];
  const store = async (kind: NotificationDocument['kind'], fallbackName: string, fetchDocument: () => Promise<LemaDocument>) => {
    try {
      const document = await fetchDocument();
      stored.push(await client.uploadDocument(id, { kind, name: documentName(document.name, fallbackName) }, document));
    } catch (error) {
      problems.push(`${fallbackName}: ${messageOf(error)}.`);
    }
  };

  await store('documento', 'notificacion.pdf', async () => opened.documento);
  await client.opened(id, { fechaEvento: opened.fechaEvento, csvResguardo: opened.csvResguardo, receptor: { nombre: nombreReceptor, nif: nifReceptor } });
  for (const [index, anexo] of opened.anexos.entries()) {
    await store('anexo', documentName(anexo.name, `anexo-${index + 1}.pdf`), () =>
      lema.consultaAnexos({ identificador, codigoOrigen, nifReceptor, referencia: anexo.referencia }, signal),
    );
  }
  await store('acuse', 'acuse.pdf', () =>
    lema.consultaAcusePdf({ identificador, codigoOrigen, nifReceptor, csvResguardo: opened.csvResguardo, referencia: opened.referenciaPdfAcuse }, signal),
  );
  if (problems.length > 0) throw new BridgeFailure('FAILED', openedButNotStoredMessage(problems));
  return resultOf(id, stored);
}
