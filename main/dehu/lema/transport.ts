import { request } from 'node:https';
import { LemaError } from '../types.ts';

/** The HTTP side of a LEMA call: one POST over mutual TLS, no redirects, a size cap, a timeout, an abort signal. */

export const LEMA_RESPONSE_MAX_BYTES = 30 * 1024 * 1024;

export interface TransportOptions {
  pfx: Buffer;
  passphrase: string;
  ca?: string[];
  servername?: string;
  timeoutMs: number;
  maxBytes?: number;
}

export interface HttpAnswer {
  status: number;
  contentType: string;
  body: Buffer;
}

export function postSoap(url: string, envelope: string, action: string, options: TransportOptions, signal?: AbortSignal): Promise<HttpAnswer> {
  const maxBytes = options.maxBytes ?? LEMA_RESPONSE_MAX_BYTES;
  const payload = Buffer.from(envelope, 'utf8');
  return new Promise((resolve, reject) => {
    // The first failure wins; what a destroyed socket reports afterwards is not news.
    let settled = false;
    const fail = (error: LemaError) => {
      if (settled) return;
      settled = true;
      reject(error);
    };
    if (signal?.aborted) {
      reject(new LemaError('Se ha cancelado la consulta a DEHÚ.', null));
      return;
    }
    const req = request(
      url,
      {
        method: 'POST',
        pfx: options.pfx,
        passphrase: options.passphrase,
        ca: options.ca,
        servername: options.servername,
        timeout: options.timeoutMs,
        headers: {
          'content-type': 'text/xml; charset=utf-8',
          'content-length': payload.length,
          soapaction: `"${action}"`,
          accept: 'text/xml, multipart/related',
        },
      },
      (response) => {
        const status = response.statusCode ?? 0;
        // A SOAP POST is not repeated elsewhere: say where it was sent (se-dehuws answers 301 to se-gd-dehuws).
        if (status >= 300 && status < 400) {
          const location = response.headers.location;
          fail(new LemaError(`DEHÚ ha redirigido la petición (${status}) de ${url}${location ? ` a ${location}` : ''}: revisa la dirección configurada.`, null));
          response.destroy();
          return;
        }
        const chunks: Buffer[] = [];
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          if (settled) return;
          size += chunk.length;
          if (size > maxBytes) {
            fail(new LemaError(`DEHÚ ha enviado una respuesta demasiado grande (más de ${Math.ceil(maxBytes / 1024 / 1024)} MB).`, null));
            response.destroy();
            return;
          }
          chunks.push(chunk);
        });
        response.on('end', () => {
          if (settled) return;
          settled = true;
          resolve({ status, contentType: String(response.headers['content-type'] ?? ''), body: Buffer.concat(chunks) });
        });
        response.on('error', (error) => fail(asLemaError(error, url)));
      },
    );
    const onAbort = () => {
      fail(new LemaError('Se ha cancelado la consulta a DEHÚ.', null));
      req.destroy();
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    req.on('close', () => signal?.removeEventListener('abort', onAbort));
    req.on('timeout', () => {
      fail(new LemaError(`DEHÚ no ha respondido en ${Math.round(options.timeoutMs / 1000)} s.`, null));
      req.destroy();
    });
    req.on('error', (error) => fail(asLemaError(error, url)));
    req.end(payload);
  });
}

function asLemaError(error: Error, url: string): LemaError {
  return error instanceof LemaError ? error : new LemaError(connectionMessage(error, url), null);
}

/** A TLS or network failure in words a user can act on. */
export function connectionMessage(error: Error & { code?: string }, url: string): string {
  const code = error.code ?? '';
  if (code === 'ECONNREFUSED' || code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'ECONNRESET') return `No se puede contactar con DEHÚ (${url}).`;
  if (/alert|handshake|certificate required|bad certificate|unknown ca/i.test(`${code} ${error.message}`)) {
    return 'DEHÚ ha rechazado la conexión con el certificado elegido: comprueba que es válido y está dado de alta como Gran Destinatario.';
  }
  if (code.startsWith('ERR_TLS') || /CERT|VERIFY|SELF_SIGNED|ISSUER/.test(code)) return `No se puede comprobar la identidad del servidor de DEHÚ (${url}).`;
  if (code === 'ERR_OSSL_PKCS12_MAC_VERIFY_FAILURE' || /mac verify|pkcs12/i.test(error.message)) return 'No se ha podido abrir el certificado elegido.';
  return `No se puede contactar con DEHÚ (${url}): ${error.message}`;
}
