import { appointmentPageSchema, type Appointment } from '@telemedicina/shared/appointment';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { parseAnswer } from '../../../lib/parse-answer';
import { queryKeys } from '../../../lib/query-keys';

export interface AgendaRequest {
  doctorId: string;
  /** Instants bounding the visible days: appointments starting in [from, to). */
  from: string;
  to: string;
}

/** The most pages read for one agenda window (100 each): far more than a doctor's week holds. */
const maxPages = 10;

/**
 * `GET /appointments?doctorId&from&to&pageSize=100&sort=startsAt&order=asc`, page after page until
 * every appointment of the window is read.
 */
export async function getAgendaAppointments(
  request: AgendaRequest,
  signal?: AbortSignal,
): Promise<Appointment[]> {
  const all: Appointment[] = [];
  for (let page = 1; page <= maxPages; page += 1) {
    const body = await api.get<unknown>('/appointments', {
      query: { ...request, page, pageSize: 100, sort: 'startsAt', order: 'asc' },
      signal,
      alertOnError: false,
      showSpinner: false,
    });
    const answer = parseAnswer(appointmentPageSchema, body);
    all.push(...answer.data);
    if (answer.data.length === 0 || all.length >= answer.total) {
      break;
    }
  }
  return all;
}

export function useAgendaAppointments(request: AgendaRequest | null) {
  return useQuery(
    queryOptions({
      queryKey: queryKeys.appointments.agenda(request),
      queryFn: ({ signal }) => getAgendaAppointments(request!, signal),
      enabled: request !== null,
      retry: false,
      placeholderData: keepPreviousData,
    }),
  );
}
