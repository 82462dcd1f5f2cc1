import { clinicDaySchema, type ClinicDay } from '@telemedicina/shared/reception';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { parseAnswer } from '../../../lib/parse-answer';
import { queryKeys } from '../../../lib/query-keys';

/** `GET /clinic-day?date=`: every doctor's appointments and free times on one day of the viewer's zone. */
export async function getClinicDay(date: string, signal?: AbortSignal): Promise<ClinicDay> {
  const body = await api.get<unknown>('/clinic-day', {
    query: { date },
    signal,
    alertOnError: false,
    showSpinner: false,
  });
  return parseAnswer(clinicDaySchema, body);
}

export function clinicDayQuery(date: string) {
  return queryOptions({
    queryKey: queryKeys.appointments.clinicDay(date),
    queryFn: ({ signal }) => getClinicDay(date, signal),
    retry: false,
    placeholderData: keepPreviousData,
    // Arrivals and calls change the day while reception looks at it.
    refetchInterval: 60_000,
  });
}

export function useClinicDay(date: string) {
  return useQuery(clinicDayQuery(date));
}
