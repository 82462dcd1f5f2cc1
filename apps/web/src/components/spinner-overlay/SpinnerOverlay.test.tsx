import { act, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { uiState } from '../../lib/ui-state';
import { renderWithProviders } from '../../test/render';
import { SpinnerOverlay } from './SpinnerOverlay';

const spinner = () => screen.queryByTestId('spinner-overlay');
const advance = (ms: number) => {
  void act(() => vi.advanceTimersByTime(ms));
};

describe('SpinnerOverlay', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    renderWithProviders(<SpinnerOverlay />);
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('is shown while the loading flag is on and hidden when it is off', () => {
    let release = () => {};
    void act(() => {
      release = uiState.getState().beginLoading();
    });
    advance(200);
    expect(spinner()).not.toBeNull();
    expect(spinner()?.getAttribute('role')).toBe('status');
    advance(2_000);
    expect(spinner()).not.toBeNull();
    void act(() => release());
    advance(0);
    expect(spinner()).toBeNull();
  });

  it('shows nothing for a request faster than 150 ms', () => {
    let release = () => {};
    void act(() => {
      release = uiState.getState().beginLoading();
    });
    advance(120);
    void act(() => release());
    advance(500);
    expect(spinner()).toBeNull();
  });

  it('once shown, stays at least 300 ms so it never blinks', () => {
    let release = () => {};
    void act(() => {
      release = uiState.getState().beginLoading();
    });
    advance(160);
    expect(spinner()).not.toBeNull();
    void act(() => release());
    advance(200);
    expect(spinner()).not.toBeNull();
    advance(120);
    expect(spinner()).toBeNull();
  });

  it('stays on across overlapping requests', () => {
    let first = () => {};
    let second = () => {};
    void act(() => {
      first = uiState.getState().beginLoading();
    });
    advance(200);
    void act(() => {
      second = uiState.getState().beginLoading();
      first();
    });
    advance(1_000);
    expect(spinner()).not.toBeNull();
    void act(() => second());
    advance(1_000);
    expect(spinner()).toBeNull();
  });
});
