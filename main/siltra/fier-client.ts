import { request } from 'node:https';
import { z } from 'zod/mini';
import { FIE_UPLOAD_MAX_FILE_BYTES } from '#shared/api/fie.ts';
import type { FetchedFieFile } from './folder.ts';
import { splitRange } from './dates.ts';

/**
 * The FIER service of Sistema RED Online ("Fichero INSS Empresas – Recepción"): the FIE files of the
 * companies the certificate's RED authorisation covers, by processing date. Research (external-systems
 * §3) found neither its query form nor its wire format; this client speaks the stand-in's JSON API
 * (standins/fier), which models it as a query by date range and one download per file, over mutual TLS
 * with the user's certificate. The real endpoint is configuration (FIER_URL) once it is known.
 */
export const FIER_PATHS = {
  /** GET ?fechaDesde=yyyy-mm-dd&fechaHasta=yyyy-mm-dd -> { ficheros: FierFile[] } (at most FIER_MAX_RANGE_DAYS days). */
  list: '/fier/ficheros',
  /** GET -> the file's bytes. */
  file: '/fier/ficheros/:id',
} as const;
export const FIER_MAX_RANGE_DAYS = 31;

export const fierFileSchema = z.object({
  id: z.string().check(z.regex(/^[A-Za-z0-9_-]{1,80}$/)),
  nombre: z.string().check(z.minLength(1), z.maxLength(255)),
  /** Processing day, yyyy-mm-dd. */
  fecha: z.string().check(z.regex(/^\d{4}-\d{2}-\d{2}$/)),
  tamano: z.number(),
});
export type FierFile = z.infer<typeof fierFileSchema>;
const fierListSchema = z.object({ ficheros: z.array(fierFileSchema) });
const fierErrorSchema = z.object({ mensaje: z.string() });

export interface FierClientOptions {
  /** FIER_URL: https://host[:port], no path. */
  baseUrl: string;
  /** The user's certificate and key (CertificateSource.clientCertificate), kept in memory only. */
  pfx: Buffer;
  passphrase: string;
  /** Extra CAs to trust for the server (the stand-in's test CA); the system's otherwise. */
  ca?: string[];
  /** TLS server name when it differs from the URL's host (the stand-in's CN is 'localhost'). */
  servername?: string;
  timeoutMs?: number;
}

export class FierError extends Error {}

export interface FierClient {
  list(from: string, to: string): Promise<FierFile[]>;
  download(file: FierFile): Promise<FetchedFieFile>;
}

export function fierClient(options: FierClientOptions): FierClient {
  const timeoutMs = options.timeoutMs ?? 30_000;
  const base = new URL(options.baseUrl);
  if (base.protocol !== 'https:') throw new FierError(`La dirección de FIER debe ser https:// (FIER_URL: «${options.baseUrl}»).`);

  function get(path: string, maxBytes: number): Promise<{ status: number; type: string; body: Buffer }> {
    const url = new URL(path, base);
    return new Promise((resolve, reject) => {
      const req = request(
        url,
        { method: 'GET', pfx: options.pfx, passphrase: options.passphrase, ca: options.ca, servername: options.servername, timeout: timeoutMs, headers: { accept: 'application/json, application/octet-stream' } },
        (response) => {
          const chunks: Buffer[] = [];
          let size = 0;
          response.on('data', (chunk: Buffer) => {
            size += chunk.length;
            if (size > maxBytes) {
              req.destroy(new FierError('FIER ha enviado un archivo demasiado grande.'));
              return;
            }
            chunks.push(chunk);
          });
          response.on('end', () => resolve({ status: response.statusCode ?? 0, type: String(response.headers['content-type'] ?? ''), body: Buffer.concat(chunks) }));
          response.on('error', reject);
        },
      );
      req.on('timeout', () => req.destroy(new FierError(`FIER no ha respondido en ${Math.round(timeoutMs / 1000)} s.`)));
      req.on('error', (error) => reject(error instanceof FierError ? error : new FierError(connectionMessage(error, options.baseUrl))));
      req.end();
    });
  }

  function refusal(status: number, body: Buffer): FierError {
    let message: string | undefined;
    try {
      message = fierErrorSchema.safeParse(JSON.parse(body.toString('utf8'))).data?.mensaje;
    } catch {
      message = undefined;
    }
    if (status === 401 || status === 403) return new FierError(message ?? 'FIER no acepta el certificado elegido.');
    return new FierError(message ? `FIER: ${message}` : `FIER ha respondido con un error (${status}).`);
  }

  return {
    async list(from, to) {
      const files: FierFile[] = [];
      for (const window of splitRange(from, to, FIER_MAX_RANGE_DAYS)) {
        const { status, body } = await get(`${FIER_PATHS.list}?fechaDesde=${window.from}&fechaHasta=${window.to}`, 4 * 1024 * 1024);
        if (status !== 200) throw refusal(status, body);
        let parsed: unknown;
        try {
          parsed = JSON.parse(body.toString('utf8'));
        } catch {
          parsed = undefined;
        }
        const answer = fierListSchema.safeParse(parsed);
        if (!answer.success) throw new FierError('FIER ha respondido algo inesperado a la consulta.');
        files.push(...answer.data.ficheros);
      }
      return files;
    },
    async download(file) {
      const { status, body } = await get(FIER_PATHS.file.replace(':id', encodeURIComponent(file.id)), FIE_UPLOAD_MAX_FILE_BYTES);
      if (status !== 200) throw refusal(status, body);
      return { name: file.nombre, bytes: new Uint8Array(body), day: file.fecha, source: 'fier' };
    },
  };
}

/** A TLS or network failure in words a user can act on. */
function connectionMessage(error: Error & { code?: string }, baseUrl: string): string {
  const code = error.code ?? '';
  if (code === 'ECONNREFUSED' || code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'ECONNRESET') return `No se puede contactar con FIER (${baseUrl}).`;
  if (/alert|handshake|certificate required|bad certificate|unknown ca/i.test(`${code} ${error.message}`)) {
    return 'FIER ha rechazado la conexión con el certificado elegido: comprueba que es válido y está autorizado en Sistema RED.';
  }
  if (code.startsWith('ERR_TLS') || /CERT|VERIFY|SELF_SIGNED|ISSUER/.test(code)) return `No se puede comprobar la identidad del servidor de FIER (${baseUrl}).`;
  if (code === 'ERR_OSSL_PKCS12_MAC_VERIFY_FAILURE' || /mac verify|pkcs12/i.test(error.message)) return 'No se ha podido abrir el certificado elegido.';
  return `No se puede contactar con FIER (${baseUrl}): ${error.message}`;
}
