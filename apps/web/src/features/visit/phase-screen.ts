import type { VisitState } from '@telemedicina/shared/visits';

/** What the visit page shows. */
export type VisitScreen = 'device_check' | 'lobby' | 'waiting' | 'call' | 'ended' | 'closed' | 'overview';

/**
 * The visit page's content from the visit's phase and who is looking. The host (doctor) goes
 * straight to the call screen while the visit is open (it shows the waiting patient and Admit);
 * staff who cannot host get an overview. A patient or guest first checks their devices (once
 * per page load, unless the stored check says it was done), then checks in and waits, and
 * reaches the call only once the server says they are admitted.
 */
export function screenFor(state: VisitState, options: { deviceCheckDone: boolean }): VisitScreen {
  if (state.phase === 'ended') {
    return 'ended';
  }
  if (state.phase === 'closed') {
    return 'closed';
  }
  if (state.canHost) {
    return 'call';
  }
  if (state.self.role === 'staff') {
    return 'overview';
  }
  if (state.phase === 'in_call') {
    return 'call';
  }
  if (!options.deviceCheckDone) {
    return 'device_check';
  }
  return state.phase === 'waiting' ? 'waiting' : 'lobby';
}
