import { z } from 'zod/mini';
import { bridgeEnvelopeSchema } from '#shared/bridge/envelope.ts';
import type { BridgeClient } from './types.ts';
import { failure, toCommandEnvelope, toEventPayload } from './validate.ts';

export { AGENT_BRIDGE_STORAGE_KEY } from './detect.ts';

export interface AgentBridgeConfig {
  url: string;
  token: string;
}

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

const configSchema = z.object({ url: z.string(), token: z.string().check(z.minLength(1)) });

/** The stored agent settings, only when they point at this machine over plain ws:// (never a remote host). */
export function readAgentConfig(stored: string | null): AgentBridgeConfig | null {
  if (!stored) return null;
  let json: unknown;
  try {
    json = JSON.parse(stored);
  } catch {
    return null;
  }
  const parsed = configSchema.safeParse(json);
  if (!parsed.success) return null;
  let url: URL;
  try {
    url = new URL(parsed.data.url);
  } catch {
    return null;
  }
  if (url.protocol !== 'ws:' || !LOOPBACK_HOSTS.has(url.hostname)) return null;
  return { url: parsed.data.url.replace(/\/+$/, ''), token: parsed.data.token };
}

const incomingSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('response'), id: z.int(), envelope: bridgeEnvelopeSchema }),
  z.object({ kind: z.literal('event'), event: z.string(), payload: z.unknown() }),
]);

export type WebSocketFactory = (url: string) => WebSocket;

/**
 * The headless agent's loopback socket (dev and embedded e2e). It connects on first use, queues
 * requests until open, and answers every pending request with UNAVAILABLE if the socket closes.
 */
export function createAgentBridge(config: AgentBridgeConfig, openSocket: WebSocketFactory = (url) => new WebSocket(url)): BridgeClient {
  let socket: WebSocket | null = null;
  let nextId = 1;
  const pending = new Map<number, (raw: unknown) => void>();
  const listeners = new Map<string, Set<(raw: unknown) => void>>();
  const unavailable = failure('UNAVAILABLE', 'No se ha podido contactar con el agente de escritorio');

  const connect = (): WebSocket => {
    if (socket && socket.readyState <= WebSocket.OPEN) return socket;
    const opened = openSocket(`${config.url}/?token=${encodeURIComponent(config.token)}`);
    opened.addEventListener('message', (message) => onMessage(message.data));
    opened.addEventListener('close', () => {
      if (socket === opened) socket = null;
      for (const resolve of pending.values()) resolve(unavailable);
      pending.clear();
    });
    socket = opened;
    return opened;
  };

  const onMessage = (data: unknown) => {
    if (typeof data !== 'string') return;
    let json: unknown;
    try {
      json = JSON.parse(data);
    } catch {
      return;
    }
    const message = incomingSchema.safeParse(json);
    if (!message.success) return;
    if (message.data.kind === 'response') {
      pending.get(message.data.id)?.(message.data.envelope);
      pending.delete(message.data.id);
    } else {
      for (const listener of listeners.get(message.data.event) ?? []) listener(message.data.payload);
    }
  };

  const send = (ws: WebSocket, text: string) => {
    if (ws.readyState === WebSocket.OPEN) ws.send(text);
    else ws.addEventListener('open', () => ws.send(text), { once: true });
  };

  return {
    kind: 'agent',
    available: true,
    invoke(command, args) {
      const id = nextId++;
      return new Promise((resolve) => {
        pending.set(id, (raw) => resolve(toCommandEnvelope(command, raw)));
        send(connect(), JSON.stringify({ id, command, args }));
      });
    },
    on(event, callback) {
      const listener = (raw: unknown) => {
        const payload = toEventPayload(event, raw);
        if (payload !== undefined) callback(payload);
      };
      const forEvent = listeners.get(event) ?? new Set();
      forEvent.add(listener);
      listeners.set(event, forEvent);
      connect();
      return () => forEvent.delete(listener);
    },
  };
}
