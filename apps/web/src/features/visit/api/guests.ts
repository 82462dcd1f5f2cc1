import {
  guestInviteListSchema,
  guestInviteSchema,
  redeemGuestInviteResponseSchema,
  type CreateGuestInviteRequest,
  type GuestInvite,
  type RedeemGuestInviteResponse,
} from '@telemedicina/shared/visits';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { parseAnswer } from '../../../lib/parse-answer';
import { queryKeys } from '../../../lib/query-keys';

const guestsPath = (appointmentId: string) => `/visits/${encodeURIComponent(appointmentId)}/guests`;

/** `GET /visits/:id/guests`. */
export async function getGuests(appointmentId: string, signal?: AbortSignal): Promise<GuestInvite[]> {
  const body = await api.get<unknown>(guestsPath(appointmentId), { signal, alertOnError: false });
  return parseAnswer(guestInviteListSchema, body).data;
}

export function useGuests(appointmentId: string, enabled: boolean) {
  return useQuery(
    queryOptions({
      queryKey: queryKeys.visit.guests(appointmentId),
      queryFn: ({ signal }) => getGuests(appointmentId, signal),
      enabled,
      retry: false,
    }),
  );
}

/** `POST /visits/:id/guests`: a single-use link (its `url` comes only in this answer). */
export function useCreateGuest(appointmentId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (request: CreateGuestInviteRequest) =>
      parseAnswer(
        guestInviteSchema,
        await api.post<unknown>(guestsPath(appointmentId), request, { alertOnError: false }),
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.visit.guests(appointmentId) }),
  });
}

/** `DELETE /visits/:id/guests/:guestId`: the link stops working and the guest is disconnected. */
export function useRevokeGuest(appointmentId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (guestId: string) =>
      api.delete<unknown>(`${guestsPath(appointmentId)}/${encodeURIComponent(guestId)}`, {
        alertOnError: false,
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.visit.guests(appointmentId) }),
  });
}

/** `POST /visit-guests/redeem {token}` (public): sets the guest cookie; works once. */
export async function redeemGuestInvite(token: string): Promise<RedeemGuestInviteResponse> {
  const body = await api.post<unknown>('/visit-guests/redeem', { token }, { alertOnError: false });
  return parseAnswer(redeemGuestInviteResponseSchema, body);
}
