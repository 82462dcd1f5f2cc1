import { LogController, type FastifyBaseLogger, type FastifyReply, type FastifyRequest } from 'fastify';
import type { Bindings, ChildLoggerOptions } from 'fastify/types/logger.js';

type LevelName = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';

/** The parent's level test (pino's `isLevelEnabled`), when it has one. */
interface LevelAware {
  isLevelEnabled?: (level: string) => boolean;
}

/**
 * A request's logger that makes pino's child only when a line is written.
 *
 * Fastify gives every request `logger.child({ requestId })`. Pino's child
 * serializes its bindings and rebuilds every level method at creation, which
 * is paid on each request even though, at the usual `warn` level, a healthy
 * request logs nothing. This logger answers the same calls and creates that
 * very child (same bindings, redaction and serializers) the first time a line
 * at an enabled level is written, so every line still carries the request id.
 */
export class RequestLogger implements FastifyBaseLogger {
  #child: FastifyBaseLogger | null = null;

  constructor(
    private readonly parent: FastifyBaseLogger,
    private readonly bindings: Bindings,
  ) {}

  get level(): string {
    return (this.#child ?? this.parent).level;
  }

  set level(level: string) {
    this.#real().level = level;
  }

  fatal(...args: unknown[]): void {
    this.#write('fatal', args);
  }
  error(...args: unknown[]): void {
    this.#write('error', args);
  }
  warn(...args: unknown[]): void {
    this.#write('warn', args);
  }
  info(...args: unknown[]): void {
    this.#write('info', args);
  }
  debug(...args: unknown[]): void {
    this.#write('debug', args);
  }
  trace(...args: unknown[]): void {
    this.#write('trace', args);
  }
  silent(): void {}

  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.#real().child(bindings, options);
  }

  isLevelEnabled(level: string): boolean {
    const target = (this.#child ?? this.parent) as LevelAware;
    return target.isLevelEnabled?.(level) ?? true;
  }

  #write(level: LevelName, args: unknown[]): void {
    if (this.#child === null && !this.isLevelEnabled(level)) {
      return;
    }
    const logger = this.#real();
    Reflect.apply(logger[level], logger, args);
  }

  #real(): FastifyBaseLogger {
    this.#child ??= this.parent.child(this.bindings);
    return this.#child;
  }
}

/**
 * Fastify `childLoggerFactory`: a {@link RequestLogger}, or pino's child at
 * once when the route sets its own level or serializers.
 */
export function createRequestLogger(
  logger: FastifyBaseLogger,
  bindings: Bindings,
  options: ChildLoggerOptions,
): FastifyBaseLogger {
  if (options.level !== undefined || options.serializers !== undefined) {
    return logger.child(bindings, options);
  }
  return new RequestLogger(logger, bindings);
}

/**
 * One log line per request instead of fastify's two ("incoming request",
 * then "request completed"): the completion line carries the request
 * (method, url, host, address), the status and the time taken, at `info`;
 * failures at `error`. Nothing is computed when `info` is off.
 */
export class RequestLogController extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    if (this.isLogDisabled(request)) {
      return;
    }
    if (error) {
      reply.log.error(
        { req: request, res: reply, err: error, responseTime: reply.elapsedTime },
        'request errored',
      );
      return;
    }
    if ((reply.log as LevelAware).isLevelEnabled?.('info') === false) {
      return;
    }
    reply.log.info({ req: request, res: reply, responseTime: reply.elapsedTime }, 'request completed');
  }
}
