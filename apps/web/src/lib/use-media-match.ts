import { useMediaQuery } from '@mantine/hooks';

/**
 * Whether a media query matches, read at the first render (and followed as the window changes).
 * Mantine's default reads it in an effect after the first render, which renders the component a
 * second time on every screen where the guess was wrong — for the signed-in frame on every page
 * load — and with an initial value it never reads it at the first render at all. Without a window
 * (a page pre-rendered at build time) nothing matches.
 */
export function useMediaMatch(query: string): boolean {
  return useMediaQuery(query, undefined, { getInitialValueInEffect: false }) ?? false;
}
