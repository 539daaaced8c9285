import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { failedPage, NOT_THIS_CONNECTION_MESSAGE } from './page.ts';

/** Where the provider sends the browser back (RFC 8252 §7.3: the loopback IP literal, any port, our path). */
export const CALLBACK_PATH = '/oauth/callback';

export interface LoopbackAnswer {
  status: 200 | 400;
  /** A whole HTML page (page.ts). */
  page: string;
}

export interface LoopbackListener {
  /** http://127.0.0.1:{port}/oauth/callback */
  redirectUri: string;
  /** Stops listening at once (a later connect is refused); an answer being written still finishes. */
  close(): Promise<void>;
}

const PAGE_HEADERS = {
  'Content-Type': 'text/html; charset=utf-8',
  // The page carries no script, style or image: nothing may load or run on it.
  'Content-Security-Policy': "default-src 'none'",
  'Cache-Control': 'no-store',
  'Referrer-Policy': 'no-referrer',
  'X-Content-Type-Options': 'nosniff',
  // One answer per connection, so closing the listener is not held by a browser's keep-alive.
  Connection: 'close',
};

/**
 * An HTTP listener on 127.0.0.1 with an ephemeral port: never 0.0.0.0 (the network must not reach
 * it) nor 'localhost' (it may resolve to ::1, or be remapped; RFC 8252 §8.3). A GET to CALLBACK_PATH
 * goes to `handle` with its query; anything else gets 400 and changes nothing.
 */
export async function listenOnLoopback(handle: (params: URLSearchParams) => LoopbackAnswer): Promise<LoopbackListener> {
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    let answer: LoopbackAnswer;
    if (request.method !== 'GET' || url.pathname !== CALLBACK_PATH) {
      answer = { status: 400, page: failedPage(NOT_THIS_CONNECTION_MESSAGE) };
    } else {
      try {
        answer = handle(url.searchParams);
      } catch {
        answer = { status: 400, page: failedPage(NOT_THIS_CONNECTION_MESSAGE) };
      }
    }
    response.writeHead(answer.status, PAGE_HEADERS);
    response.end(answer.page);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  let closing: Promise<void> | null = null;
  return {
    redirectUri: `http://127.0.0.1:${port}${CALLBACK_PATH}`,
    close() {
      closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
        // A browser that keeps a connection open without asking anything must not keep the port.
        setTimeout(() => server.closeAllConnections(), 2_000).unref();
      });
      return closing;
    },
  };
}
