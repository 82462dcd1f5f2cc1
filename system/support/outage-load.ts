/**
 * The load of the database-outage test (crash-safety.system.ts): a patient reading, a second
 * patient booking and a monitor polling health, each answer recorded with the test's phase.
 */
import { performance } from 'node:perf_hooks';
import type { Clinic } from './clinic.js';
import { freeSlots } from './clinic.js';
import { HttpClient, sleep } from './clients.js';

export interface Sample {
  phase: string;
  route: string;
  status: number | 'no answer';
  code: string | null;
  ms: number;
  body: string;
}

/**
 * Keeps a patient reading its appointments and the doctors' slots, a second
 * patient booking, and a monitor polling health, recording every answer with
 * the phase the test is in. Resolves with the samples once `stop` is called.
 */
export function startLoad(
  baseUrl: string,
  clinic: Clinic,
): {
  phase: { name: string };
  until: (wanted: (samples: Sample[]) => boolean, what: string) => Promise<void>;
  stop: () => Promise<Sample[]>;
} {
  const phase = { name: 'before' };
  const samples: Sample[] = [];
  let isStopping = false;
  const reader = new HttpClient(baseUrl, 15_000);
  const writer = new HttpClient(baseUrl, 15_000);
  const monitor = new HttpClient(baseUrl, 15_000);
  const doctorId = clinic.doctors[1]!.id;
  const record = async (client: HttpClient, route: string, method: string, path: string, body?: unknown) => {
    const at = performance.now();
    const startedIn = phase.name;
    try {
      const answer = await client.request<{ error?: { code?: string } }>(method, path, body);
      samples.push({
        phase: startedIn === phase.name ? startedIn : `${startedIn}→${phase.name}`,
        route,
        status: answer.status,
        code: answer.body?.error?.code ?? null,
        ms: performance.now() - at,
        body: JSON.stringify(answer.body).slice(0, 300),
      });
    } catch (error) {
      samples.push({
        phase: startedIn === phase.name ? startedIn : `${startedIn}→${phase.name}`,
        route,
        status: 'no answer',
        code: null,
        ms: performance.now() - at,
        body: String(error),
      });
    }
  };
  const loop = async (step: () => Promise<void>): Promise<void> => {
    while (!isStopping) {
      await step();
      await sleep(40);
    }
  };
  const ready = Promise.all([
    reader.signIn(clinic.patients[2]!.email),
    writer.signIn(clinic.patients[3]!.email),
  ]);
  let slotIndex = 0;
  const loops = ready.then(async () => {
    const slots = await freeSlots(
      writer,
      doctorId,
      new Date(Date.now() + 47 * 3_600_000 + 600_000),
      new Date(Date.now() + 48 * 3_600_000),
    );
    await Promise.all([
      loop(() => record(reader, 'GET /appointments', 'GET', '/appointments?pageSize=5')),
      loop(() =>
        record(
          reader,
          'GET /doctors/:id/slots',
          'GET',
          `/doctors/${doctorId}/slots?from=${encodeURIComponent(new Date(Date.now() + 3_600_000).toISOString())}&to=${encodeURIComponent(new Date(Date.now() + 7_200_000).toISOString())}`,
        ),
      ),
      loop(async () => {
        const slot = slots[slotIndex % Math.max(1, slots.length)];
        slotIndex += 1;
        if (slot !== undefined) {
          await record(writer, 'POST /appointments', 'POST', '/appointments', {
            doctorId,
            startsAt: slot.startsAt,
            reason: 'Prueba de base de datos caída',
          });
        }
      }),
      loop(() => record(monitor, 'GET /health', 'GET', '/health')),
    ]);
  });
  return {
    phase,
    // A phase lasts until the load has produced what the test needs of it (a count of answers, a
    // 503 from health), not for a fixed time: a slow machine makes the phase longer, not thinner.
    until: async (wanted, what) => {
      const deadline = performance.now() + 120_000;
      while (!wanted(samples)) {
        if (performance.now() > deadline) {
          throw new Error(`load: still waiting for ${what} after 120 s (${samples.length} samples)`);
        }
        await sleep(50);
      }
    },
    stop: async () => {
      isStopping = true;
      await loops;
      return samples;
    },
  };
}
