import { appointmentPageSchema } from '@telemedicina/shared/appointment';
import { doctorProfileSchema } from '@telemedicina/shared/doctors';
import { chartNoteListSchema } from '@telemedicina/shared/notes';
import { prescriptionListSchema } from '@telemedicina/shared/prescriptions';
import type { QueryClient, QueryKey } from '@tanstack/react-query';
import type { z } from 'zod';
import { queryKeys } from '../../../lib/query-keys';
import { currentPortalBoot, portalPastLimit } from './portal-boot';

/** How long the first render of the home waits for the boot's answers before drawing without them. */
const defaultMaxWaitMs = 4_000;

/**
 * Puts the boot's answers (`portal-boot.ts`) in the query cache under the keys the home's queries
 * use, once they have all come (or `maxWaitMs` has passed: the page then renders and its queries
 * ask as usual). An answer that failed or does not match its schema is left out: its query asks
 * again and shows its own error. Called before the application's first render on `/portal`.
 */
export async function seedPortalBoot(queryClient: QueryClient, maxWaitMs = defaultMaxWaitMs): Promise<void> {
  const boot = currentPortalBoot();
  if (!boot) {
    return;
  }
  let timer: ReturnType<typeof setTimeout> | undefined;
  const answers = await Promise.race([
    Promise.all([boot.upcoming, boot.past, boot.prescriptions, boot.notes, boot.doctor]),
    new Promise<null>((resolve) => {
      timer = setTimeout(() => resolve(null), maxWaitMs);
    }),
  ]);
  clearTimeout(timer);
  if (!answers) {
    return;
  }
  const [upcoming, past, prescriptions, notes, doctor] = answers;
  seed(queryClient, queryKeys.appointments.portalUpcoming(boot.window.from), appointmentPageSchema, upcoming);
  seed(
    queryClient,
    queryKeys.appointments.portalPast(boot.window.to, portalPastLimit),
    appointmentPageSchema,
    past,
  );
  seed(queryClient, queryKeys.prescriptions.ofPatient(boot.patientId), prescriptionListSchema, prescriptions);
  seed(queryClient, queryKeys.notes.ofPatient(boot.patientId), chartNoteListSchema, notes);
  if (doctor) {
    seed(queryClient, queryKeys.doctors.profile(doctor.id), doctorProfileSchema, doctor.body);
  }
}

function seed(queryClient: QueryClient, queryKey: QueryKey, schema: z.ZodType, body: unknown): void {
  if (body === null) {
    return;
  }
  const parsed = schema.safeParse(body);
  if (parsed.success) {
    queryClient.setQueryData(queryKey, parsed.data);
  }
}
