import { create } from 'zustand';

/** Why the last session on this page ended; the sign-in page explains `expired` and `idle`. */
export type SessionEndReason = 'signedOut' | 'expired' | 'idle';

/** localStorage key other tabs of the same browser read the last server contact from. */
export const lastServerContactStorageKey = 'telemedicina.lastServerContact';

export interface SessionState {
  /** A signed-in user's data is on the page (GET /me answered with a user). */
  isSignedIn: boolean;
  endReason: SessionEndReason | null;
  /** When the server last answered a request of this browser (ms since the epoch). */
  lastServerContactAt: number;
  markSignedIn: () => void;
  /** Ends the session on this page; the session layer clears the cached data and permissions. */
  endSession: (reason: SessionEndReason) => void;
  /**
   * A 401 UNAUTHENTICATED / SESSION_EXPIRED answer arrived. While signed in it means the server
   * ended the session: the page signs out and the person is sent to sign in again (returns true).
   * Signed out, it is an ordinary answer for the caller (returns false).
   */
  handleSessionEnd: (code: string) => boolean;
  recordServerContact: (at?: number) => void;
  clearEndReason: () => void;
}

let lastSharedWrite = 0;

/**
 * The client side of the session, outside React so the API client can reach it. The user's data
 * itself lives in the query cache (`GET /me`); this store only says whether there is one and why
 * the last one ended.
 */
export const sessionState = create<SessionState>()((set, get) => ({
  isSignedIn: false,
  endReason: null,
  lastServerContactAt: Date.now(),
  markSignedIn: () => {
    if (!get().isSignedIn || get().endReason !== null) {
      set({ isSignedIn: true, endReason: null });
    }
  },
  endSession: (reason) => set({ isSignedIn: false, endReason: reason }),
  handleSessionEnd: () => {
    if (!get().isSignedIn) {
      return false;
    }
    get().endSession('expired');
    return true;
  },
  recordServerContact: (at = Date.now()) => {
    set({ lastServerContactAt: Math.max(at, get().lastServerContactAt) });
    // Other tabs keep their idle timers in step: the server's clock is per session, not per tab.
    if (at - lastSharedWrite >= 5_000) {
      lastSharedWrite = at;
      try {
        localStorage.setItem(lastServerContactStorageKey, String(at));
      } catch {
        // Storage unavailable: each tab keeps its own clock.
      }
    }
  },
  clearEndReason: () => set({ endReason: null }),
}));

export const useSessionEndReason = () => sessionState((state) => state.endReason);
