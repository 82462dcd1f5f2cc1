import type { VisitState } from '@telemedicina/shared/visits';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { queryKeys } from '../../../lib/query-keys';
import { getGuestVisitState, getVisitState } from '../api/visit-state';

/**
 * How far into the credentials' lifetime the page asks for fresh ones: the rest is the margin, and
 * open connections take fresh ones a quarter lifetime older at most (see ice-refresh.ts).
 */
const renewAtFraction = 0.7;
/** After a failed renewal (offline, server restarting), the next try. */
const retryMs = 15_000;

/**
 * When to ask for fresh TURN credentials after receiving ones valid for `ttlSeconds`: at 70 % of
 * their lifetime (an hour's credentials are renewed after 42 minutes), never sooner than a second.
 */
export function renewalDelayMs(ttlSeconds: number): number {
  return Math.max(1_000, Math.floor(ttlSeconds * 1000 * renewAtFraction));
}

/** The TURN username issued in a state (it changes with every issue), or null. */
function issuedTurnUser(state: VisitState | undefined): string | null {
  const entry = state?.iceServers.find((server) => server.urls.some((url) => /^turns?:/.test(url)));
  return entry?.username ?? null;
}

/**
 * Keeps the visit's TURN credentials fresh for a long call: the server issues them short-lived in
 * the visit state (`iceServersTtlSeconds`), and before they lapse the page asks for its state again
 * (`GET /visits/:id`, or `GET /visit-guests/current` for a guest) and puts it in the cache. The
 * state is the one place the credentials come from, already authorized per participant, so no
 * other endpoint or rate limit is needed; the peer connections take the new servers without being
 * rebuilt (see `usePeerMesh` and ice-refresh.ts). A relay allocated earlier keeps working on its own credentials:
 * renewal matters for new connections and ICE restarts.
 */
export function useIceServerRenewal(state: VisitState | undefined, isGuest: boolean): void {
  const queryClient = useQueryClient();
  const appointmentId = state?.appointmentId ?? null;
  const ttlSeconds = state?.iceServersTtlSeconds ?? null;
  const issued = issuedTurnUser(state);

  useEffect(() => {
    if (appointmentId === null || ttlSeconds === null) {
      return;
    }
    let timer: ReturnType<typeof setTimeout> | null = null;
    const controller = new AbortController();
    const renew = () => {
      const fresh = isGuest
        ? getGuestVisitState(controller.signal)
        : getVisitState(appointmentId, controller.signal);
      fresh.then(
        (state) => queryClient.setQueryData(queryKeys.visit.state(appointmentId), state),
        () => {
          if (!controller.signal.aborted) {
            timer = setTimeout(renew, retryMs);
          }
        },
      );
    };
    timer = setTimeout(renew, renewalDelayMs(ttlSeconds));
    return () => {
      controller.abort();
      if (timer !== null) {
        clearTimeout(timer);
      }
    };
  }, [appointmentId, ttlSeconds, issued, isGuest, queryClient]);
}
