import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { WebSocketServer, type WebSocket } from 'ws';
import type { AgentMessage } from '#shared/bridge/envelope.ts';
import { agentRequestSchema } from '#shared/bridge/envelope.ts';
import type { BridgeEvent, BridgeEventPayload } from '#shared/bridge/contract.ts';
import type { BridgeContext } from '../bridge/context.ts';
import { dispatch } from '../bridge/registry.ts';

export interface AgentSocketOptions {
  port: number;
  token: string;
  /** Page origins allowed to connect (the renderer's server); loopback origins are always allowed. */
  allowedOrigins: string[];
  /** Where socket faults are reported (the agent's stderr); the agent keeps serving after them. */
  log?: (message: string) => void;
}

export interface AgentSocket {
  url: string;
  port: number;
  broadcast<E extends BridgeEvent>(event: E, payload: BridgeEventPayload<E>): void;
  close(): Promise<void>;
}

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]', '::1']);
const MAX_MESSAGE_BYTES = 1_000_000;

/**
 * Serves the bridge on a loopback WebSocket for the renderer in development and e2e. It binds to
 * 127.0.0.1 only and every connection must present the token, so other users of the machine and
 * other web pages cannot drive it.
 */
export function startAgentSocket(ctx: BridgeContext, options: AgentSocketOptions): Promise<AgentSocket> {
  const server = new WebSocketServer({
    host: '127.0.0.1',
    port: options.port,
    maxPayload: MAX_MESSAGE_BYTES,
    verifyClient: ({ req }: { req: IncomingMessage }) => isAllowedConnection(req, options),
  });
  const log = options.log ?? ((message: string) => console.error(message));
  server.on('connection', (socket) => serve(socket, ctx, log));

  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.once('listening', () => {
      server.off('error', reject);
      // After start a server fault must not become an uncaught 'error' that ends the agent.
      server.on('error', (error) => log(`Agente: error del servidor del puente: ${error.message}`));
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : options.port;
      resolve({
        url: `ws://127.0.0.1:${port}`,
        port,
        broadcast: (event, payload) => {
          const message = JSON.stringify({ kind: 'event', event, payload } satisfies AgentMessage);
          for (const client of server.clients) client.send(message);
        },
        close: () =>
          new Promise<void>((done) => {
            for (const client of server.clients) client.terminate();
            server.close(() => done());
          }),
      });
    });
  });
}

export function isAllowedConnection(req: IncomingMessage, options: Pick<AgentSocketOptions, 'token' | 'allowedOrigins'>): boolean {
  const remote = req.socket.remoteAddress ?? '';
  if (!(remote === '127.0.0.1' || remote === '::1' || remote === '::ffff:127.0.0.1')) return false;
  const token = new URL(req.url ?? '/', 'ws://127.0.0.1').searchParams.get('token') ?? '';
  if (!sameSecret(token, options.token)) return false;
  const origin = req.headers.origin;
  if (!origin) return true;
  if (options.allowedOrigins.includes(origin)) return true;
  try {
    return LOOPBACK_HOSTS.has(new URL(origin).hostname);
  } catch {
    return false;
  }
}

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

function serve(socket: WebSocket, ctx: BridgeContext, log: (message: string) => void): void {
  // ws reports a frame over maxPayload or a text frame with invalid UTF-8 as an 'error' on this
  // socket (and closes it with 1009 / 1007). Without a listener that error ends the whole process,
  // so one token holder could stop the bridge for every window: log it and drop only this socket.
  socket.on('error', (error: Error & { code?: string }) => {
    log(`Agente: conexión cerrada por un mensaje no válido (${error.code ?? error.message})`);
    socket.terminate();
  });
  socket.on('message', async (data) => {
    const response = await answer(data.toString(), ctx);
    if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(response));
  });
}

/**
 * A message that is not JSON or not a request still gets an answer (a BAD_ARGS envelope, with the
 * request's id when one can be read) instead of closing the socket: closing would drop the answers
 * of other requests still in flight on the same connection.
 */
async function answer(text: string, ctx: BridgeContext): Promise<AgentMessage> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return badRequest(-1, 'El mensaje no es JSON válido.');
  }
  const request = agentRequestSchema.safeParse(parsed);
  if (!request.success) return badRequest(readableId(parsed), 'El mensaje no es una petición válida del puente.');
  const envelope = await dispatch(request.data.command, request.data.args, ctx);
  return { kind: 'response', id: request.data.id, envelope };
}

function badRequest(id: number, message: string): AgentMessage {
  return { kind: 'response', id, envelope: { ok: false, error: { code: 'BAD_ARGS', message } } };
}

function readableId(parsed: unknown): number {
  const id = typeof parsed === 'object' && parsed !== null ? (parsed as { id?: unknown }).id : undefined;
  return Number.isSafeInteger(id) ? (id as number) : -1;
}
