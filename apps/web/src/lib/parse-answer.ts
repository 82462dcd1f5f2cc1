import type { z } from 'zod';
import { ApiError } from './api-client';

/**
 * Checks a server answer against its shared schema. A mismatch becomes an `UNEXPECTED_RESPONSE`
 * ApiError (shown as "the server's answer is not in the expected format"), never a crash later.
 */
export function parseAnswer<S extends z.ZodType>(schema: S, body: unknown): z.output<S> {
  const parsed = schema.safeParse(body);
  if (!parsed.success) {
    throw new ApiError(200, 'UNEXPECTED_RESPONSE', 'Unexpected answer', body);
  }
  return parsed.data;
}
