import { defaultLanguage, type Language } from '@telemedicina/shared/i18n';
import { hasAnyPermission } from '@telemedicina/shared/permission-check';
import { create } from 'zustand';

/** An alert for the global message dialog. `content` is HTML; it is sanitized before display. */
export interface Alert {
  type: 'error' | 'success';
  content: string;
}

/**
 * The application's shared interface state (specification §3), held in one store. Components
 * read it through the hooks below; non-React code (API client, i18n) uses `uiState`.
 */
export interface UiState {
  searchText: string;
  sectionSearchText: string;
  /** The alert the message dialog is showing, or null when it is closed. */
  alert: Alert | null;
  /** Number of operations currently asking for the spinner; the loading flag is `loadingCount > 0`. */
  loadingCount: number;
  permissions: string[];
  language: Language;
  setSearchText: (text: string) => void;
  setSectionSearchText: (text: string) => void;
  /**
   * Publishes an alert. An empty alert (null, or content that is empty or whitespace) opens
   * nothing. While an alert is already shown a new one is ignored — the dialog "opens only if it
   * is not already open" — so a burst of failing requests shows one dialog, not a cascade.
   * Returns whether the alert was accepted.
   */
  publishAlert: (alert: Alert | null | undefined) => boolean;
  /** Closes the dialog. */
  dismissAlert: () => void;
  /**
   * Turns the loading flag on until the returned release function is called (once; further calls
   * do nothing). Counting instead of a boolean keeps the spinner on while overlapping requests are
   * still in flight.
   */
  beginLoading: () => () => void;
  setPermissions: (names: readonly string[]) => void;
  setLanguage: (language: Language) => void;
}

/** True when the alert has something to show. */
export function isNonEmptyAlert(alert: Alert | null | undefined): alert is Alert {
  return (
    alert !== null &&
    alert !== undefined &&
    (alert.type === 'error' || alert.type === 'success') &&
    typeof alert.content === 'string' &&
    alert.content.trim() !== ''
  );
}

export const uiState = create<UiState>()((set, get) => ({
  searchText: '',
  sectionSearchText: '',
  alert: null,
  loadingCount: 0,
  permissions: [],
  language: defaultLanguage,
  setSearchText: (searchText) => set({ searchText }),
  setSectionSearchText: (sectionSearchText) => set({ sectionSearchText }),
  publishAlert: (alert) => {
    if (!isNonEmptyAlert(alert) || get().alert !== null) {
      return false;
    }
    set({ alert: { type: alert.type, content: alert.content } });
    return true;
  },
  dismissAlert: () => set({ alert: null }),
  beginLoading: () => {
    set((state) => ({ loadingCount: state.loadingCount + 1 }));
    let isReleased = false;
    return () => {
      if (isReleased) {
        return;
      }
      isReleased = true;
      set((state) => ({ loadingCount: Math.max(0, state.loadingCount - 1) }));
    };
  },
  // The same names again (the session re-read, or seeded before the first render and then synced
  // on mount) keep the same array: every reader would otherwise render again, synchronously
  // (a store read is never a transition), and the whole signed-in frame reads them.
  setPermissions: (names) =>
    set((state) => (sameNames(state.permissions, names) ? state : { permissions: [...names] })),
  setLanguage: (language) => set((state) => (state.language === language ? state : { language })),
}));

export const useSearchText = () => uiState((state) => state.searchText);
export const useSectionSearchText = () => uiState((state) => state.sectionSearchText);
export const useAlert = () => uiState((state) => state.alert);
export const useIsLoading = () => uiState((state) => state.loadingCount > 0);
export const usePermissions = () => uiState((state) => state.permissions);
export const useLanguage = () => uiState((state) => state.language);

/** Hook form of the permission check: re-renders when the user's permissions change. */
export function useHasAnyPermission(required: readonly string[]): boolean {
  return uiState((state) => hasAnyPermission(state.permissions, required));
}

function sameNames(current: readonly string[], next: readonly string[]): boolean {
  return current.length === next.length && current.every((name, index) => name === next[index]);
}
