import { appointmentPageSchema, type AppointmentPage } from '@telemedicina/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../../../lib/api-client';
import { parseAnswer } from '../../../lib/parse-answer';
import { upcomingWindowStart } from '../upcoming';

/**
 * The viewer's appointments from a little before now, soonest first (the server limits the list to
 * what the viewer may see: a patient's own, a doctor's own, the whole clinic for staff). The key
 * sits under `['appointments', 'list']`, so booking, cancelling or rescheduling refreshes it.
 */
export function useUpcomingAppointments(enabled = true) {
  const [from] = useState(() => upcomingWindowStart(new Date()));
  return useQuery(
    queryOptions({
      queryKey: ['appointments', 'list', 'home', from],
      queryFn: async ({ signal }): Promise<AppointmentPage> =>
        parseAnswer(
          appointmentPageSchema,
          await api.get<unknown>('/appointments', {
            query: { page: 1, pageSize: 20, from, sort: 'startsAt', order: 'asc' },
            signal,
            alertOnError: false,
          }),
        ),
      retry: false,
      enabled,
    }),
  );
}
