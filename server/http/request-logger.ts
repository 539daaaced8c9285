import type { FastifyBaseLogger } from 'fastify';
import type { Bindings, ChildLoggerOptions } from 'pino';

type Level = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';
/** What pino's LogFn takes: an object or a message first, then the message and its arguments. */
type LogArguments = [objectOrMessage: unknown, ...rest: unknown[]];

/**
 * A request's logger (request.log) that makes its pino child, bound to the request's id, only when
 * the request logs something. Fastify makes that child for every request, and pino writes the
 * bindings out as JSON each time: ~5 µs of a history page's ~280, for the few requests that ever
 * log (the request log keeps failures and slow ones only, request-log.ts).
 */
class RequestLogger implements FastifyBaseLogger {
  #child: FastifyBaseLogger | undefined;

  constructor(
    private readonly parent: FastifyBaseLogger,
    private readonly bindings: Bindings,
    private readonly options: ChildLoggerOptions,
  ) {}

  #logger(): FastifyBaseLogger {
    this.#child ??= this.parent.child(this.bindings, this.options);
    return this.#child;
  }

  get level(): string {
    return (this.#child ?? this.parent).level;
  }

  set level(level: string) {
    this.#logger().level = level;
  }

  /** Writes through the child, made only if the level is on (a debug line at 'info' makes nothing). */
  #write(level: Level, args: LogArguments): void {
    if (this.#child === undefined && !isEnabled(this.parent, level)) return;
    const logger = this.#logger();
    (logger[level] as (...args: LogArguments) => void)(...args);
  }

  fatal(...args: LogArguments): void {
    this.#write('fatal', args);
  }

  error(...args: LogArguments): void {
    this.#write('error', args);
  }

  warn(...args: LogArguments): void {
    this.#write('warn', args);
  }

  info(...args: LogArguments): void {
    this.#write('info', args);
  }

  debug(...args: LogArguments): void {
    this.#write('debug', args);
  }

  trace(...args: LogArguments): void {
    this.#write('trace', args);
  }

  silent(): void {}

  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.#logger().child(bindings, options);
  }
}

/** Whether a logger writes this level: pino's isLevelEnabled where there is one (Fastify's abstract logger has none). */
function isEnabled(logger: FastifyBaseLogger, level: string): boolean {
  const withCheck = logger as FastifyBaseLogger & { isLevelEnabled?: (level: string) => boolean };
  return withCheck.isLevelEnabled ? withCheck.isLevelEnabled(level) : true;
}

/** Fastify's childLoggerFactory: a RequestLogger in place of an eager pino child. */
export function lazyRequestLogger(logger: FastifyBaseLogger, bindings: Bindings, options: ChildLoggerOptions): FastifyBaseLogger {
  return new RequestLogger(logger, bindings, options);
}
