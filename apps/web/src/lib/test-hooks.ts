import { api, type RequestOptions } from './api-client';
import { chooseLanguage } from './i18n';
import { uiState, type Alert } from './ui-state';
import { isLanguage } from '@telemedicina/shared/i18n';

/** localStorage key that turns the browser-test hooks on for this browser profile. */
export const testHooksStorageKey = 'telemedicina.testHooks';

export interface TelemedicinaTestHooks {
  publishAlert: (alert: Alert | null) => boolean;
  setLoading: (isOn: boolean) => void;
  setPermissions: (names: string[]) => void;
  setLanguage: (language: string) => void;
  getState: () => {
    searchText: string;
    sectionSearchText: string;
    alert: Alert | null;
    isLoading: boolean;
    permissions: string[];
    language: string;
  };
  apiRequest: (
    path: string,
    options?: RequestOptions,
  ) => Promise<{ ok: boolean; body?: unknown; status?: number; code?: string }>;
}

declare global {
  interface Window {
    __telemedicinaTest?: TelemedicinaTestHooks;
  }
}

/**
 * Browser tests drive the shell through `window.__telemedicinaTest`, which exists only when the
 * profile's localStorage holds `telemedicina.testHooks = '1'` (the e2e suite sets it before
 * loading the page). It can only do what the page's own code can do — show an alert, turn the
 * spinner on, show or hide menu items (the server still enforces every permission) — so being
 * present in production builds is harmless, and without the key nothing is exposed at all.
 */
export function installTestHooks(target: Window = window): boolean {
  let isEnabled: boolean;
  try {
    isEnabled = target.localStorage.getItem(testHooksStorageKey) === '1';
  } catch {
    isEnabled = false;
  }
  if (!isEnabled) {
    return false;
  }
  let releaseLoading: (() => void) | null = null;
  target.__telemedicinaTest = {
    publishAlert: (alert) => uiState.getState().publishAlert(alert),
    setLoading: (isOn) => {
      if (isOn && !releaseLoading) {
        releaseLoading = uiState.getState().beginLoading();
      } else if (!isOn && releaseLoading) {
        releaseLoading();
        releaseLoading = null;
      }
    },
    setPermissions: (names) => uiState.getState().setPermissions(names),
    setLanguage: (language) => {
      if (isLanguage(language)) {
        chooseLanguage(language);
      }
    },
    getState: () => {
      const state = uiState.getState();
      return {
        searchText: state.searchText,
        sectionSearchText: state.sectionSearchText,
        alert: state.alert,
        isLoading: state.loadingCount > 0,
        permissions: [...state.permissions],
        language: state.language,
      };
    },
    apiRequest: async (path, options) => {
      try {
        const body = await api.request<unknown>(path, options);
        return { ok: true, body };
      } catch (error) {
        const details = error as { status?: number; code?: string };
        return { ok: false, status: details.status, code: details.code };
      }
    },
  };
  return true;
}
