import { visitStateSchema, type VisitState } from '@telemedicina/shared/visits';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { parseAnswer } from '../../../lib/parse-answer';
import { queryKeys } from '../../../lib/query-keys';

/** `GET /visits/:appointmentId`: the visit as the asking participant sees it. */
export async function getVisitState(appointmentId: string, signal?: AbortSignal): Promise<VisitState> {
  const body = await api.get<unknown>(`/visits/${encodeURIComponent(appointmentId)}`, {
    signal,
    alertOnError: false,
  });
  return parseAnswer(visitStateSchema, body);
}

/**
 * `GET /visit-guests/current`: a redeemed guest's own visit (the guest cookie), e.g. to renew the
 * TURN credentials of a long call; guests have no access to `GET /visits/:id`.
 */
export async function getGuestVisitState(signal?: AbortSignal): Promise<VisitState> {
  const body = await api.get<unknown>('/visit-guests/current', {
    signal,
    alertOnError: false,
    showSpinner: false,
  });
  return parseAnswer(visitStateSchema, body);
}

export function visitStateQuery(appointmentId: string) {
  return queryOptions({
    queryKey: queryKeys.visit.state(appointmentId),
    queryFn: ({ signal }) => getVisitState(appointmentId, signal),
    retry: false,
    refetchOnWindowFocus: false,
  });
}

/** Disabled for a guest, whose page gets the state with the join acknowledgement (no REST access). */
export function useVisitState(appointmentId: string, enabled = true) {
  return useQuery({ ...visitStateQuery(appointmentId), enabled });
}
