/// <reference lib="dom" />
import type { BrowserContext, Page } from 'playwright-core';

/** What {@link watchCalls} counted on a page since it loaded. */
export interface CallWatch {
  /** Remote tracks received (`track` events of every RTCPeerConnection). */
  remoteTracks: number;
  /** Offers this page made (local descriptions of type offer). */
  offers: number;
  /** Times this page asked for the camera or microphone. */
  mediaRequests: number;
  /** Peer connections this page made. */
  connections: number;
  /** When the first of them connected (ms since the epoch). */
  connectedAt: number | null;
}

/**
 * Counts, in every page of `context` from its first script on, the remote tracks its peer
 * connections receive, the offers they make and the camera/microphone requests: whether anyone is
 * seen or heard before admission, and whether admitting made a second offer or a second camera.
 */
export async function watchCalls(context: BrowserContext): Promise<void> {
  // Run through tsx (the benchmarks), named functions come with esbuild's `__name` helper, which
  // the page does not have.
  await context.addInitScript({ content: 'globalThis.__name ??= (target) => target;' });
  await context.addInitScript(() => {
    const watch = {
      remoteTracks: 0,
      offers: 0,
      mediaRequests: 0,
      connections: 0,
      connectedAt: null as number | null,
    };
    (window as unknown as { __callWatch: typeof watch }).__callWatch = watch;
    const Native = window.RTCPeerConnection;
    if (typeof Native === 'function') {
      const proto = Native.prototype;
      type SetLocal = (
        this: RTCPeerConnection,
        description?: RTCLocalSessionDescriptionInit,
      ) => Promise<void>;
      const setLocal = Object.getOwnPropertyDescriptor(proto, 'setLocalDescription')?.value as SetLocal;
      const counting: SetLocal = async function (description) {
        await setLocal.call(this, description);
        if (this.localDescription?.type === 'offer') {
          watch.offers += 1;
        }
      };
      Object.defineProperty(proto, 'setLocalDescription', {
        value: counting,
        configurable: true,
        writable: true,
      });
      window.RTCPeerConnection = class extends Native {
        constructor(configuration?: RTCConfiguration) {
          super(configuration);
          watch.connections += 1;
          (window as unknown as { __pcs?: RTCPeerConnection[] }).__pcs ??= [];
          (window as unknown as { __pcs: RTCPeerConnection[] }).__pcs.push(this);
          this.addEventListener('connectionstatechange', () => {
            if (this.connectionState === 'connected') {
              watch.connectedAt ??= Date.now();
            }
          });
          this.addEventListener('track', () => {
            watch.remoteTracks += 1;
          });
        }
      };
    }
    const devices = navigator.mediaDevices;
    if (devices && typeof devices.getUserMedia === 'function') {
      const getUserMedia = devices.getUserMedia.bind(devices);
      devices.getUserMedia = (constraints?: MediaStreamConstraints) => {
        watch.mediaRequests += 1;
        return getUserMedia(constraints);
      };
    }
  });
}

/** The counts of {@link watchCalls} on `page`. */
export async function callWatch(page: Page): Promise<CallWatch> {
  return page.evaluate(() => (window as unknown as { __callWatch: CallWatch }).__callWatch);
}
