import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';

// Screens that load lazy chunks and talk to a real local server can take several seconds on a busy
// machine (seen: 5 s under a CPU hog). A wait returns as soon as its element is there, so a long
// limit costs nothing when the test passes and keeps it from failing for the machine's sake.
configure({ asyncUtilTimeout: 20_000 });

// jsdom lacks a few browser APIs Mantine relies on.
if (!window.matchMedia) {
  window.matchMedia = (query: string): MediaQueryList =>
    ({
      matches: false,
      media: query,
      onchange: null,
      addListener: () => {},
      removeListener: () => {},
      addEventListener: () => {},
      removeEventListener: () => {},
      dispatchEvent: () => false,
    }) as MediaQueryList;
}

if (!('ResizeObserver' in window)) {
  class ResizeObserverStub {
    observe() {}
    unobserve() {}
    disconnect() {}
  }
  Object.assign(window, { ResizeObserver: ResizeObserverStub });
  Object.assign(globalThis, { ResizeObserver: ResizeObserverStub });
}

if (!Element.prototype.scrollIntoView) {
  Element.prototype.scrollIntoView = () => {};
}

afterEach(() => {
  cleanup();
  document.cookie.split(';').forEach((part) => {
    const name = part.split('=')[0]?.trim();
    if (name) {
      document.cookie = `${name}=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/`;
    }
  });
  localStorage.clear();
  sessionStorage.clear();
});
