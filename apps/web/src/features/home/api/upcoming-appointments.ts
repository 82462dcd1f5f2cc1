import { appointmentPageSchema, type AppointmentPage } from '@telemedicina/shared/appointment';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { parseAnswer } from '../../../lib/parse-answer';
import { requestUpcomingAppointments, upcomingWindowStart } from '../../../lib/upcoming-appointments';
import { takeBootUpcoming, type BootUpcoming } from './boot-upcoming';
import { queryKeys } from '../../../lib/query-keys';

/** How long an answer counts as current for the home page (booking changes refresh it anyway). */
const freshForMs = 30_000;

/**
 * The viewer's appointments from a little before now, soonest first (the server limits the list to
 * what the viewer may see: a patient's own, a doctor's own, the whole clinic for staff). The key
 * sits under `['appointments', 'list']`, so booking, cancelling or rescheduling refreshes it.
 *
 * The first home page of a page load starts from the request its boot already made
 * (api/boot-upcoming.ts): drawn with its answer when it has come, else waiting for it rather than
 * asking again.
 */
export function useUpcomingAppointments(enabled = true) {
  const [boot] = useState<BootUpcoming | null>(() => (enabled ? takeBootUpcoming() : null));
  const [from] = useState(() => boot?.from ?? upcomingWindowStart(new Date()));
  return useQuery(
    queryOptions({
      queryKey: queryKeys.appointments.home(from),
      queryFn: async ({ signal }): Promise<AppointmentPage> => {
        // The boot request still on its way serves the first fetch only (a refresh asks again).
        const pending = boot?.takePending() ?? null;
        const answer = pending
          ? pending.catch(() => requestUpcomingAppointments(from, signal))
          : requestUpcomingAppointments(from, signal);
        return parseAnswer(appointmentPageSchema, await answer);
      },
      initialData: () => bootAnswer(boot),
      initialDataUpdatedAt: boot?.settled?.receivedAt,
      staleTime: freshForMs,
      retry: false,
      enabled,
    }),
  );
}

/** The boot request's answer when it has come and is what the page expects; otherwise nothing. */
function bootAnswer(boot: BootUpcoming | null): AppointmentPage | undefined {
  const parsed = boot?.settled ? appointmentPageSchema.safeParse(boot.settled.body) : null;
  return parsed?.success ? parsed.data : undefined;
}
