import type { z } from 'zod/mini';
import { DEVICE_AUTH_SCHEME, DEVICE_TOKEN_INVALID_MESSAGE } from '#shared/api/devices.ts';
import { apiErrorSchema } from '#shared/api/errors.ts';
import { DeviceError, unreachableMessage } from './errors.ts';

export interface DeviceApiOptions {
  serverUrl: string;
  deviceToken: string;
  fetch: typeof fetch;
  requestTimeoutMs?: number;
}

export type DeviceApiCall = <S extends z.ZodMiniType>(method: 'GET' | 'POST', path: string, schema: S, body?: FormData | unknown) => Promise<z.infer<S>>;

/**
 * One call to the server's API with this PC's device token (the FIE and altas clients): a JSON or
 * multipart body, the answer checked with `schema`, failures as DeviceError with the server's Spanish
 * message (401: the token was refused; 5xx or no answer: unreachable).
 */
export function deviceApiCall(options: DeviceApiOptions): DeviceApiCall {
  const { serverUrl } = options;
  const timeoutMs = options.requestTimeoutMs ?? 120_000;
  return async (method, path, schema, body) => {
    let response: Response;
    try {
      const json = body !== undefined && !(body instanceof FormData);
      response = await options.fetch(new URL(path, serverUrl), {
        method,
        headers: { authorization: `${DEVICE_AUTH_SCHEME} ${options.deviceToken}`, ...(json ? { 'content-type': 'application/json' } : {}) },
        body: body === undefined ? undefined : body instanceof FormData ? body : JSON.stringify(body),
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch {
      throw new DeviceError('unreachable', unreachableMessage(serverUrl));
    }
    const answer: unknown = await response.json().catch(() => undefined);
    if (!response.ok) {
      const message = apiErrorSchema.safeParse(answer).data?.message;
      if (response.status === 401) throw new DeviceError('token-refused', message ?? DEVICE_TOKEN_INVALID_MESSAGE);
      if (response.status >= 500) throw new DeviceError('unreachable', `El servidor ${serverUrl} no está disponible ahora (${response.status}).`);
      throw new DeviceError('server', message ?? `El servidor ${serverUrl} ha rechazado la petición (${response.status}).`);
    }
    const parsed = schema.safeParse(answer);
    if (!parsed.success) throw new DeviceError('server', `El servidor ${serverUrl} ha respondido algo inesperado: ¿es un servidor de AutoAsesor actualizado?`);
    return parsed.data;
  };
}
