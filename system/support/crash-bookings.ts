/**
 * The booking side of the SIGKILL test (crash-safety.system.ts): one patient's booking retried
 * through crashes until the server answers, and the error lines a 500 left in the server's log.
 */
import type { HttpClient } from './clients.js';
import { sleep } from './clients.js';

/** The reason every booking of the crash test carries (the test finds its rows by it). */
export const bookingReason = 'Prueba de caída del servidor';

export interface Slot {
  doctorId: string;
  startsAt: string;
}

export interface BookingOutcome extends Slot {
  patientId: string;
  kind: 'distinct' | 'contended';
  /** `acked`: 2xx with an id; `taken`: 409 SLOT_TAKEN; `stopped`: never answered before the end. */
  outcome: 'acked' | 'taken' | 'stopped';
  id: string | null;
  tries: number;
}

export interface LoadStats {
  networkErrors: number;
  statuses: Map<number, number>;
  unexpected: string[];
  /** Bodies of 500 answers, to say what broke when the count is not zero. */
  serverErrors: string[];
}

/** The error-level lines (pino level ≥ 50) of a server's output: what a 500 left behind. */
export function errorLines(output: string): string {
  return output
    .split('\n')
    .filter((line) => /"level":(50|60)/.test(line))
    .slice(-20)
    .join('\n');
}

/**
 * Books `slot` for the client's patient, retrying (same request) while the
 * server is unreachable or answers 5xx. Only a 2xx answer counts as written.
 */
export async function bookUntilAnswered(
  client: HttpClient,
  patientId: string,
  slot: Slot,
  kind: BookingOutcome['kind'],
  stats: LoadStats,
  isStopping: () => boolean,
): Promise<BookingOutcome> {
  const result: BookingOutcome = { ...slot, patientId, kind, outcome: 'stopped', id: null, tries: 0 };
  for (;;) {
    result.tries += 1;
    try {
      const answer = await client.request<{ id?: string; error?: { code: string } }>(
        'POST',
        '/appointments',
        {
          doctorId: slot.doctorId,
          startsAt: slot.startsAt,
          reason: bookingReason,
        },
      );
      stats.statuses.set(answer.status, (stats.statuses.get(answer.status) ?? 0) + 1);
      if (answer.status === 500) {
        stats.serverErrors.push(JSON.stringify(answer.body));
      }
      if (answer.status === 200 || answer.status === 201) {
        result.outcome = 'acked';
        result.id = answer.body.id ?? null;
        return result;
      }
      if (answer.status === 409 && answer.body.error?.code === 'SLOT_TAKEN') {
        result.outcome = 'taken';
        return result;
      }
      if (answer.status < 500) {
        stats.unexpected.push(`${answer.status} ${JSON.stringify(answer.body)}`);
        return result;
      }
    } catch {
      stats.networkErrors += 1;
    }
    if (isStopping() && result.tries > 200) {
      return result;
    }
    await sleep(50);
  }
}
