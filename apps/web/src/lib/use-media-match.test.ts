import { renderHook } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useMediaMatch } from './use-media-match';

describe('useMediaMatch', () => {
  afterEach(() => vi.restoreAllMocks());

  it.each([true, false])('has the real answer (%s) at the first render and renders once', (matches) => {
    vi.spyOn(window, 'matchMedia').mockImplementation(
      (query: string) =>
        ({
          matches,
          media: query,
          onchange: null,
          addListener: () => undefined,
          removeListener: () => undefined,
          addEventListener: () => undefined,
          removeEventListener: () => undefined,
          dispatchEvent: () => false,
        }) as MediaQueryList,
    );
    const seen: boolean[] = [];
    renderHook(() => {
      const value = useMediaMatch('(min-width: 48em)');
      seen.push(value);
      return value;
    });
    expect(seen).toEqual([matches]);
  });
});
