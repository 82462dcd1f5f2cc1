import { act, renderHook } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { resetUiState } from '../test/render';
import { isNonEmptyAlert, uiState, useHasAnyPermission, useIsLoading } from './ui-state';

describe('shared UI state', () => {
  beforeEach(() => resetUiState());

  it('holds the specification fields in one store', () => {
    const state = uiState.getState();
    state.setSearchText('ana');
    state.setSectionSearchText('cardio');
    state.setPermissions(['users.manage']);
    state.setLanguage('en');
    expect(uiState.getState()).toMatchObject({
      searchText: 'ana',
      sectionSearchText: 'cardio',
      permissions: ['users.manage'],
      language: 'en',
      alert: null,
      loadingCount: 0,
    });
  });

  it('does not tell its readers about permissions or a language that did not change', () => {
    const state = uiState.getState();
    state.setPermissions(['records.write', 'audit.read']);
    state.setLanguage('es');
    const kept = uiState.getState().permissions;
    let notified = 0;
    const unsubscribe = uiState.subscribe(() => {
      notified += 1;
    });
    try {
      state.setPermissions(['records.write', 'audit.read']);
      state.setLanguage('es');
      expect(notified).toBe(0);
      expect(uiState.getState().permissions).toBe(kept);
      state.setPermissions(['audit.read', 'records.write']);
      expect(notified).toBe(1);
      expect(uiState.getState().permissions).toEqual(['audit.read', 'records.write']);
      state.setLanguage('en');
      expect(notified).toBe(2);
    } finally {
      unsubscribe();
    }
  });

  describe('publishAlert', () => {
    it.each([
      [null, false],
      [undefined, false],
      [{ type: 'error', content: '' }, false],
      [{ type: 'success', content: '   \n\t' }, false],
      [{ type: 'warning', content: 'x' }, false],
      [{ type: 'error', content: 'Falló' }, true],
      [{ type: 'success', content: '<b>Listo</b>' }, true],
    ])('%j is %s', (alert, accepted) => {
      expect(isNonEmptyAlert(alert as never)).toBe(accepted);
      expect(uiState.getState().publishAlert(alert as never)).toBe(accepted);
      expect(uiState.getState().alert !== null).toBe(accepted);
    });

    it('ignores a second alert while one is shown, and accepts one after dismissal', () => {
      const { publishAlert, dismissAlert } = uiState.getState();
      expect(publishAlert({ type: 'error', content: 'first' })).toBe(true);
      expect(publishAlert({ type: 'success', content: 'second' })).toBe(false);
      expect(uiState.getState().alert).toEqual({ type: 'error', content: 'first' });
      dismissAlert();
      expect(uiState.getState().alert).toBeNull();
      expect(publishAlert({ type: 'success', content: 'third' })).toBe(true);
      expect(uiState.getState().alert?.content).toBe('third');
    });
  });

  describe('loading flag', () => {
    it('stays on until every overlapping operation has finished', () => {
      const { result } = renderHook(() => useIsLoading());
      expect(result.current).toBe(false);
      let releaseFirst = () => {};
      let releaseSecond = () => {};
      void act(() => {
        releaseFirst = uiState.getState().beginLoading();
        releaseSecond = uiState.getState().beginLoading();
      });
      expect(result.current).toBe(true);
      void act(() => releaseFirst());
      expect(result.current).toBe(true);
      void act(() => releaseFirst()); // a second release of the same operation changes nothing
      expect(uiState.getState().loadingCount).toBe(1);
      void act(() => releaseSecond());
      expect(result.current).toBe(false);
    });
  });

  describe('useHasAnyPermission', () => {
    it('follows the permission list', () => {
      const { result } = renderHook(() => useHasAnyPermission(['audit.read', 'users.manage']));
      expect(result.current).toBe(false);
      void act(() => uiState.getState().setPermissions(['records.write']));
      expect(result.current).toBe(false);
      void act(() => uiState.getState().setPermissions(['records.write', 'audit.read']));
      expect(result.current).toBe(true);
      void act(() => uiState.getState().setPermissions([]));
      expect(result.current).toBe(false);
    });
  });
});
