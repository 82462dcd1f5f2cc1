// The shape of `window.__telemedicinaTest` (apps/web/src/lib/test-hooks.ts), as the browser tests use it.
interface TelemedicinaAlert {
  type: 'error' | 'success';
  content: string;
}

interface Window {
  __telemedicinaTest?: {
    publishAlert: (alert: TelemedicinaAlert | null) => boolean;
    setLoading: (isOn: boolean) => void;
    setPermissions: (names: string[]) => void;
    setLanguage: (language: string) => void;
    getState: () => {
      alert: TelemedicinaAlert | null;
      isLoading: boolean;
      permissions: string[];
      language: string;
    };
    apiRequest: (
      path: string,
      options?: { method?: string; body?: unknown; showSpinner?: boolean; alertOnError?: boolean },
    ) => Promise<{ ok: boolean; body?: unknown; status?: number; code?: string }>;
  };
}
