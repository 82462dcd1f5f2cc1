import type { MeResponse } from '@telemedicina/shared/auth';
import { createRoot } from 'react-dom/client';
import { afterEach, describe, expect, it } from 'vitest';
import { sessionState } from '../lib/session-state';
import { uiState } from '../lib/ui-state';
import { createTestI18n, resetUiState } from '../test/render';
import { startApp } from './start-app';

const me = {
  user: { id: 'u1', email: 'paciente1@example.com', language: 'es' },
  permissions: ['appointments.book', 'records.read.own'],
} as unknown as MeResponse;

describe('startApp', () => {
  afterEach(() => resetUiState());

  it('sets the known session’s permissions and signed-in state before the first render', () => {
    resetUiState();
    const container = document.createElement('div');
    const root = createRoot(container);
    try {
      void startApp(root, createTestI18n('es'), me);
      // Synchronously, before React has rendered anything: the frame's first render already has
      // them, so syncing them on mount changes nothing and nothing renders twice.
      expect(container.childElementCount).toBe(0);
      expect(uiState.getState().permissions).toEqual(['appointments.book', 'records.read.own']);
      expect(sessionState.getState().isSignedIn).toBe(true);
    } finally {
      root.unmount();
    }
  });

  it('leaves them alone while the session is still being asked for', () => {
    resetUiState();
    const container = document.createElement('div');
    const root = createRoot(container);
    try {
      void startApp(root, createTestI18n('es'), new Promise<MeResponse | null>(() => undefined));
      expect(uiState.getState().permissions).toEqual([]);
    } finally {
      root.unmount();
    }
  });
});
