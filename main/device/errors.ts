import { BridgeFailure } from '../bridge/failure.ts';

/**
 * A device call that went wrong in a way the user can act on. It is a BridgeFailure, so a handler
 * that lets it through answers with its code and its Spanish message.
 */
export class DeviceError extends BridgeFailure {
  constructor(
    readonly reason: 'not-linked' | 'token-refused' | 'unreachable' | 'conflict' | 'not-found' | 'refused' | 'server' | 'invalid',
    message: string,
  ) {
    super(codeFor(reason), message);
    this.name = 'DeviceError';
  }
}

function codeFor(reason: DeviceError['reason']): BridgeFailure['code'] {
  switch (reason) {
    case 'not-linked':
    case 'token-refused':
      return 'NOT_LINKED';
    case 'unreachable':
      return 'UNAVAILABLE';
    case 'invalid':
      return 'BAD_ARGS';
    case 'not-found':
      return 'NOT_FOUND';
    case 'conflict':
    case 'refused':
    case 'server':
      return 'FAILED';
  }
}

export const NOT_LINKED_MESSAGE = 'Este dispositivo no está conectado a tu cuenta: conéctalo para ejecutar robots en él.';

export function unreachableMessage(serverUrl: string): string {
  return `No se puede contactar con el servidor ${serverUrl}. Se vuelve a intentar en unos segundos.`;
}
