import { z } from 'zod/mini';

/**
 * Bridge results travel in an envelope instead of as thrown errors, so the renderer always gets a
 * code it can act on and a Spanish message it can show.
 */
export const bridgeErrorCodes = ['BAD_ARGS', 'UNKNOWN_COMMAND', 'FORBIDDEN', 'UNAVAILABLE', 'FAILED', 'WRONG_PASSWORD', 'NOT_FOUND', 'NOT_LINKED', 'TIMEOUT', 'DENIED'] as const;
export type BridgeErrorCode = (typeof bridgeErrorCodes)[number];

export const bridgeErrorSchema = z.object({ code: z.enum(bridgeErrorCodes), message: z.string() });
export type BridgeError = z.infer<typeof bridgeErrorSchema>;

export type BridgeEnvelope<T> = { ok: true; data: T } | { ok: false; error: BridgeError };

export const bridgeEnvelopeSchema = z.union([
  z.object({ ok: z.literal(true), data: z.unknown() }),
  z.object({ ok: z.literal(false), error: bridgeErrorSchema }),
]);

/** Messages of the agent's loopback socket: requests carry an id that their response echoes. */
export const agentRequestSchema = z.object({
  id: z.int(),
  command: z.string().check(z.maxLength(100)),
  args: z.unknown(),
});
export type AgentRequest = z.infer<typeof agentRequestSchema>;
export type AgentMessage =
  | { kind: 'response'; id: number; envelope: BridgeEnvelope<unknown> }
  | { kind: 'event'; event: string; payload: unknown };
