import { systemPingSchema, type AckResult, type SystemPong } from '@telemedicina/shared/realtime';
import { z } from 'zod';
import type { TypedSocket } from './types.js';

/** Registers the `system.*` events on one connection. */
export function registerSystemEvents(socket: TypedSocket, now: () => Date): void {
  socket.on('system.ping', (payload: unknown, ack: unknown) => {
    // Payloads come from the network: never trust the compile-time event map.
    if (typeof ack !== 'function') {
      return;
    }
    const reply = ack as (result: AckResult<SystemPong>) => void;
    const parsed = systemPingSchema.safeParse(payload);
    if (!parsed.success) {
      reply({
        ok: false,
        error: {
          code: 'VALIDATION_FAILED',
          message: 'Invalid system.ping payload.',
          details: z.treeifyError(parsed.error),
        },
      });
      return;
    }
    reply({ ok: true, data: { nonce: parsed.data.nonce, at: now().toISOString() } });
  });
}
