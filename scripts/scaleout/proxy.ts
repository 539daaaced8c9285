/**
 * The proxy in front of the server processes, as a deployment's (nginx, a cloud load balancer) would be:
 * requests go round-robin to the upstreams; one that refuses the connection (a process being
 * restarted) is skipped and the request goes to the next, and a GET whose upstream died mid-way is
 * tried once more elsewhere. Other requests that die mid-way answer 502, as nginx's default
 * `proxy_next_upstream error timeout` does for non-idempotent methods: the client decides.
 *
 * The load tool names each virtual client in `x-scaleout-client`; the proxy turns it into the
 * X-Forwarded-For it sets itself (the servers trust only the loopback proxy), so per-IP limits see 500
 * firms' offices, not one address. Nothing else a client sends in X-Forwarded-For passes.
 */
import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Upstream {
  url: URL;
}

export interface FailoverProxy {
  baseUrl: string;
  /** Requests sent on to another upstream after one refused or died (counted for the report). */
  retried(): number;
  /** Requests answered 502: every upstream refused, or a non-GET died mid-way. */
  failed(): number;
  close(): Promise<void>;
}

const CLIENT_HEADER = 'x-scaleout-client';

export async function startFailoverProxy(upstreams: () => readonly Upstream[]): Promise<FailoverProxy> {
  let next = 0;
  let retried = 0;
  let failed = 0;

  const forward = (incoming: IncomingMessage, body: Buffer, upstream: Upstream): Promise<{ response: IncomingMessage } | { error: NodeJS.ErrnoException; sent: boolean }> =>
    new Promise((resolve) => {
      const headers = { ...incoming.headers };
      const client = headers[CLIENT_HEADER];
      delete headers[CLIENT_HEADER];
      headers['x-forwarded-for'] = typeof client === 'string' ? client : (incoming.socket.remoteAddress ?? '127.0.0.1');
      headers['content-length'] = String(body.length);
      delete headers['transfer-encoding'];
      let sent = false;
      const outgoing = httpRequest({ host: upstream.url.hostname, port: upstream.url.port, method: incoming.method, path: incoming.url, headers }, (response) => resolve({ response }));
      // A kept-alive socket is already connected: what is written on it may have reached the upstream.
      outgoing.on('socket', (socket) => {
        if (!socket.connecting) sent = true;
        else socket.once('connect', () => (sent = true));
      });
      outgoing.on('error', (error: NodeJS.ErrnoException) => resolve({ error, sent }));
      outgoing.end(body);
    });

  const handle = async (incoming: IncomingMessage, reply: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of incoming) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const targets = upstreams();
    const first = next++ % targets.length;
    for (let attempt = 0; attempt < targets.length; attempt += 1) {
      const upstream = targets[(first + attempt) % targets.length] as Upstream;
      const outcome = await forward(incoming, body, upstream);
      if ('response' in outcome) {
        reply.writeHead(outcome.response.statusCode ?? 502, outcome.response.headers);
        outcome.response.pipe(reply);
        outcome.response.on('error', () => reply.destroy());
        return;
      }
      const retryable = !outcome.sent || incoming.method === 'GET' || incoming.method === 'HEAD';
      if (!retryable || attempt === targets.length - 1) break;
      retried += 1;
    }
    failed += 1;
    reply.writeHead(502, { 'content-type': 'application/json' }).end('{"message":"Ningún servidor ha contestado"}');
  };

  const server: Server = createServer((incoming, reply) => {
    handle(incoming, reply).catch(() => reply.destroy());
  });
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    retried: () => retried,
    failed: () => failed,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
