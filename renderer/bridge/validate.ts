import { bridgeCommands, bridgeEvents } from '#shared/bridge/contract.ts';
import type { BridgeCommand, BridgeEvent, BridgeEventPayload, BridgeResult } from '#shared/bridge/contract.ts';
import { bridgeEnvelopeSchema } from '#shared/bridge/envelope.ts';
import type { BridgeEnvelope, BridgeErrorCode } from '#shared/bridge/envelope.ts';

export function failure(code: BridgeErrorCode, message: string): { ok: false; error: { code: BridgeErrorCode; message: string } } {
  return { ok: false, error: { code, message } };
}

/** Trust nothing from the other side: the envelope and its data are checked against the contract. */
export function toCommandEnvelope<C extends BridgeCommand>(command: C, raw: unknown): BridgeEnvelope<BridgeResult<C>> {
  const envelope = bridgeEnvelopeSchema.safeParse(raw);
  if (!envelope.success) return failure('FAILED', 'La aplicación de escritorio ha devuelto una respuesta no válida');
  if (!envelope.data.ok) return envelope.data;
  const result = bridgeCommands[command].result.safeParse(envelope.data.data);
  if (!result.success) return failure('FAILED', 'La aplicación de escritorio ha devuelto una respuesta no válida');
  return { ok: true, data: result.data as BridgeResult<C> };
}

/** The event's payload when it matches the contract, else undefined (dropped). */
export function toEventPayload<E extends BridgeEvent>(event: E, raw: unknown): BridgeEventPayload<E> | undefined {
  const parsed = bridgeEvents[event].safeParse(raw);
  return parsed.success ? (parsed.data as BridgeEventPayload<E>) : undefined;
}
