import type { BridgeErrorCode } from '#shared/bridge/envelope.ts';

/** Thrown by handlers for an expected failure; the registry turns it into an error envelope. */
export class BridgeFailure extends Error {
  constructor(
    readonly code: BridgeErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'BridgeFailure';
  }
}
