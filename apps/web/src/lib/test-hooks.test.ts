import { beforeEach, describe, expect, it } from 'vitest';
import { resetUiState } from '../test/render';
import { installTestHooks, testHooksStorageKey } from './test-hooks';
import { uiState } from './ui-state';

describe('browser-test hooks', () => {
  beforeEach(() => {
    resetUiState();
    delete window.__telemedicinaTest;
  });

  it('are not exposed unless the profile opted in', () => {
    expect(installTestHooks(window)).toBe(false);
    expect(window.__telemedicinaTest).toBeUndefined();
    localStorage.setItem(testHooksStorageKey, 'true');
    expect(installTestHooks(window)).toBe(false);
  });

  it('drive the shared state when opted in', () => {
    localStorage.setItem(testHooksStorageKey, '1');
    expect(installTestHooks(window)).toBe(true);
    const hooks = window.__telemedicinaTest!;
    expect(hooks.publishAlert({ type: 'error', content: '<b>x</b>' })).toBe(true);
    expect(hooks.publishAlert({ type: 'success', content: 'y' })).toBe(false);
    hooks.setLoading(true);
    hooks.setLoading(true);
    expect(uiState.getState().loadingCount).toBe(1);
    hooks.setLoading(false);
    expect(uiState.getState().loadingCount).toBe(0);
    hooks.setPermissions(['audit.read']);
    hooks.setLanguage('en');
    hooks.setLanguage('klingon');
    expect(hooks.getState()).toMatchObject({
      alert: { type: 'error', content: '<b>x</b>' },
      isLoading: false,
      permissions: ['audit.read'],
      language: 'en',
    });
  });
});
