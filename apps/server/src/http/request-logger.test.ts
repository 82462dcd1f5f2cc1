import { Writable } from 'node:stream';
import type { FastifyBaseLogger } from 'fastify';
import { pino } from 'pino';
import { describe, expect, it, vi } from 'vitest';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { createRequestLogger, RequestLogController, RequestLogger } from './request-logger.js';

/** A pino logger writing JSON lines into an array, with the child calls counted. */
function memoryLogger(level: string): {
  logger: FastifyBaseLogger;
  lines: () => Record<string, unknown>[];
  children: () => number;
} {
  const written: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      written.push(chunk.toString());
      callback();
    },
  });
  const logger = pino({ level, redact: ['req.headers.cookie'] }, stream);
  // Pino's children inherit the spy: count only the children of the request logger's parent.
  const child = vi.spyOn(logger, 'child');
  return {
    logger,
    lines: () =>
      written
        .join('')
        .trim()
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as Record<string, unknown>),
    children: () => child.mock.contexts.filter((context) => context === logger).length,
  };
}

describe('RequestLogger', () => {
  it('writes nothing and makes no pino child for lines below the level', () => {
    const memory = memoryLogger('warn');
    const log = new RequestLogger(memory.logger, { requestId: 'req-1' });
    log.info({ req: { url: '/x' } }, 'incoming request');
    log.debug('details');
    log.trace('more');
    expect(memory.lines()).toEqual([]);
    expect(memory.children()).toBe(0);
  });

  it('writes enabled lines through one pino child, each carrying the request id', () => {
    const memory = memoryLogger('info');
    const log = new RequestLogger(memory.logger, { requestId: 'req-2' });
    log.info({ statusCode: 404 }, 'not found');
    log.error({ err: new Error('boom') }, 'request failed');
    log.debug('hidden');
    expect(memory.children()).toBe(1);
    expect(memory.lines()).toEqual([
      expect.objectContaining({ level: 30, requestId: 'req-2', statusCode: 404, msg: 'not found' }),
      expect.objectContaining({
        level: 50,
        requestId: 'req-2',
        msg: 'request failed',
        err: expect.objectContaining({ message: 'boom' }),
      }),
    ]);
  });

  it('keeps the parent redaction', () => {
    const memory = memoryLogger('info');
    new RequestLogger(memory.logger, { requestId: 'req-3' }).warn(
      { req: { headers: { cookie: 'tm_session=secret' } } },
      'x',
    );
    expect(JSON.stringify(memory.lines())).not.toContain('secret');
  });

  it('follows the parent level until it has its own, and hands out grandchildren with the id', () => {
    const memory = memoryLogger('warn');
    const log = new RequestLogger(memory.logger, { requestId: 'req-4' });
    expect(log.level).toBe('warn');
    expect(log.isLevelEnabled('info')).toBe(false);
    memory.logger.level = 'info';
    expect(log.isLevelEnabled('info')).toBe(true);
    log.child({ job: 'mail' }).info('sent');
    expect(memory.lines()).toEqual([
      expect.objectContaining({ requestId: 'req-4', job: 'mail', msg: 'sent' }),
    ]);
    log.level = 'error';
    log.warn('dropped');
    expect(memory.lines()).toHaveLength(1);
  });

  it('is made by the factory unless the route asks for its own level or serializers', () => {
    const memory = memoryLogger('warn');
    expect(createRequestLogger(memory.logger, { requestId: 'a' }, {})).toBeInstanceOf(RequestLogger);
    expect(memory.children()).toBe(0);
    const own = createRequestLogger(memory.logger, { requestId: 'b' }, { level: 'debug' });
    expect(own).not.toBeInstanceOf(RequestLogger);
    expect(own.level).toBe('debug');
    expect(memory.children()).toBe(1);
  });
});

describe('RequestLogController', () => {
  /** A request and reply as the controller sees them; `elapsedTime` reads are counted. */
  function exchange(log: FastifyBaseLogger): {
    request: FastifyRequest;
    reply: FastifyReply;
    timings: () => number;
  } {
    let timings = 0;
    const request = { method: 'GET', url: '/api/v1/health', log } as unknown as FastifyRequest;
    const reply = {
      statusCode: 200,
      log,
      get elapsedTime() {
        timings += 1;
        return 1.5;
      },
    } as unknown as FastifyReply;
    return { request, reply, timings: () => timings };
  }

  it('writes one line per request, on completion, with the request id, the request and the time taken', () => {
    const memory = memoryLogger('info');
    const { request, reply } = exchange(new RequestLogger(memory.logger, { requestId: 'req-5' }));
    const controller = new RequestLogController({ requestIdLogLabel: 'requestId' });
    controller.incomingRequest();
    controller.requestCompleted(null, request, reply);
    expect(memory.lines()).toEqual([
      expect.objectContaining({
        level: 30,
        requestId: 'req-5',
        msg: 'request completed',
        responseTime: 1.5,
        req: expect.objectContaining({ method: 'GET', url: '/api/v1/health' }),
      }),
    ]);
  });

  it('logs failures at error, and computes nothing for a completed request when info is off', () => {
    const memory = memoryLogger('warn');
    const { request, reply, timings } = exchange(new RequestLogger(memory.logger, { requestId: 'req-6' }));
    const controller = new RequestLogController();
    controller.requestCompleted(undefined, request, reply);
    expect(memory.lines()).toEqual([]);
    expect(timings()).toBe(0);
    controller.requestCompleted(new Error('socket hang up'), request, reply);
    expect(memory.lines()).toEqual([
      expect.objectContaining({ level: 50, requestId: 'req-6', msg: 'request errored' }),
    ]);
  });
});
