import type { JSDOM } from 'jsdom';

declare global {
  /** Vitest's jsdom environment exposes the JSDOM instance (used to move the test page to a test server's origin). */
  var jsdom: JSDOM;
}
