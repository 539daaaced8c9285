import type { AppLogRequest } from '#shared/api/applogs.ts';

export interface ErrorReporterOptions {
  send: (log: AppLogRequest) => void;
  /** At most this many reports per window; a crash loop must not flood the server. */
  maxPerWindow?: number;
  windowMs?: number;
  now?: () => number;
}

/**
 * Reports uncaught errors and unhandled promise rejections to POST /api/applogs, throttled and
 * without repeating the same message inside one window. Returns the uninstaller.
 */
export function installErrorReporter(target: Window, options: ErrorReporterOptions): () => void {
  const { send, maxPerWindow = 5, windowMs = 60_000, now = Date.now } = options;
  let windowStart = now();
  let sentInWindow = 0;
  const recent = new Set<string>();

  const report = (message: string, stack: string | undefined) => {
    const time = now();
    if (time - windowStart >= windowMs) {
      windowStart = time;
      sentInWindow = 0;
      recent.clear();
    }
    if (sentInWindow >= maxPerWindow || recent.has(message)) return;
    sentInWindow += 1;
    recent.add(message);
    send({ level: 'error', message: message.slice(0, 4000), stack: stack?.slice(0, 20000), url: target.location.href.slice(0, 2000) });
  };

  const describe = (reason: unknown): [string, string | undefined] => {
    if (reason instanceof Error) return [`${reason.name}: ${reason.message}`, reason.stack];
    return [typeof reason === 'string' ? reason : JSON.stringify(reason) ?? String(reason), undefined];
  };

  const onError = (event: ErrorEvent) => {
    const [message, stack] = event.error !== undefined && event.error !== null ? describe(event.error) : [event.message || 'Error', undefined];
    report(message, stack);
  };
  const onRejection = (event: PromiseRejectionEvent) => {
    const [message, stack] = describe(event.reason);
    report(`Unhandled rejection: ${message}`, stack);
  };

  target.addEventListener('error', onError);
  target.addEventListener('unhandledrejection', onRejection);
  return () => {
    target.removeEventListener('error', onError);
    target.removeEventListener('unhandledrejection', onRejection);
  };
}
