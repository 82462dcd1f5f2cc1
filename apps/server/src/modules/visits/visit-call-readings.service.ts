import type { ConnectionReading, VisitParticipant } from '@telemedicina/shared/visits';
import type { VisitDependencies } from './visit-context.js';
import { updateCallReading, type StoredCallReading } from './visit-call-readings.repository.js';

/**
 * The shortest time between two writes of one connection's readings (ms). Clients report every few
 * seconds; a client that reports faster only has its readings combined (worst kept) in memory
 * until the next write, so the database sees at most one write per connection in this time.
 */
export const callReadingWriteIntervalMs = 5_000;

const maxOf = (a: number | null, b: number | null): number | null =>
  a === null ? b : b === null ? a : Math.max(a, b);

/** Two readings of the same connection as one: the worse values, the later indicator. */
export function combineReadings(earlier: ConnectionReading, later: ConnectionReading): ConnectionReading {
  return {
    indicator: later.indicator,
    rttMs: maxOf(earlier.rttMs, later.rttMs),
    packetLoss: maxOf(earlier.packetLoss, later.packetLoss),
    relayed: earlier.relayed === true || later.relayed === true ? true : (later.relayed ?? earlier.relayed),
  };
}

/**
 * A participant's kept readings after one more report: the worst round trip and loss ever
 * reported, relayed once relayed, the latest indicator.
 */
export function mergeCallReading(
  previous: StoredCallReading | null,
  role: VisitParticipant['role'],
  reading: ConnectionReading,
  at: Date,
): StoredCallReading {
  return {
    role,
    worstRttMs: maxOf(previous?.worstRttMs ?? null, reading.rttMs),
    worstPacketLoss: maxOf(previous?.worstPacketLoss ?? null, reading.packetLoss),
    relayed: (previous?.relayed ?? false) || reading.relayed === true,
    lastIndicator: reading.indicator,
    updatedAt: at.toISOString(),
  };
}

export interface CallReadingRecorder {
  /** One reading from the participant's page (the caller checked they are in the call). */
  report(reading: ConnectionReading): Promise<void>;
  /** Writes what is still held (the connection closes). */
  flush(): Promise<void>;
}

/**
 * Keeps one connection's readings on the visit: at most one write per
 * {@link callReadingWriteIntervalMs}, readings in between combined so no worst value is lost.
 */
export function createCallReadingRecorder(
  deps: Pick<VisitDependencies, 'db' | 'now'>,
  appointmentId: string,
  participant: Pick<VisitParticipant, 'key' | 'role'>,
): CallReadingRecorder {
  let held: ConnectionReading | null = null;
  let lastWriteAt = Number.NEGATIVE_INFINITY;
  const write = async (): Promise<void> => {
    const reading = held;
    if (reading === null) {
      return;
    }
    held = null;
    const at = deps.now();
    lastWriteAt = at.getTime();
    await updateCallReading(
      deps.db,
      appointmentId,
      participant.key,
      (previous) => mergeCallReading(previous, participant.role, reading, at),
      at,
    );
  };
  return {
    async report(reading) {
      held = held === null ? reading : combineReadings(held, reading);
      if (deps.now().getTime() - lastWriteAt >= callReadingWriteIntervalMs) {
        await write();
      }
    },
    flush: write,
  };
}
