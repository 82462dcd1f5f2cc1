import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/** Ids we accept from callers: short, and free of anything that could forge log lines. */
const acceptablePattern = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * Fastify `genReqId`: honour the caller's `x-request-id` (a proxy or the
 * browser tracing one action) when it is a plausible id, otherwise make one.
 */
export function generateRequestId(request: IncomingMessage): string {
  const incoming = request.headers['x-request-id'];
  return typeof incoming === 'string' && acceptablePattern.test(incoming) ? incoming : randomUUID();
}
