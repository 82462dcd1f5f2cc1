import type { DeviceCheckResult, DeviceCheckStatus } from '@telemedicina/shared/visits';

/** Why a camera or microphone could not be opened, as a guidance to show. */
export type MediaProblem = 'denied' | 'missing' | 'inUse' | 'insecure' | 'unknown';

/** The name of a getUserMedia failure (a DOMException's name), as the person's next step. */
export function mediaProblemOf(error: unknown): MediaProblem {
  const name = isNamed(error) ? error.name : '';
  switch (name) {
    case 'NotAllowedError':
    case 'PermissionDeniedError':
    case 'SecurityError':
      return 'denied';
    case 'NotFoundError':
    case 'DevicesNotFoundError':
    case 'OverconstrainedError':
      return 'missing';
    case 'NotReadableError':
    case 'TrackStartError':
    case 'AbortError':
      return 'inUse';
    case 'InsecureContextError':
      return 'insecure';
    default:
      return 'unknown';
  }
}

function isNamed(value: unknown): value is { name: string } {
  return (
    typeof value === 'object' && value !== null && typeof (value as { name?: unknown }).name === 'string'
  );
}

/** A device's status for the stored result. */
export function deviceStatusOf(problem: MediaProblem | null): DeviceCheckStatus {
  if (problem === null) {
    return 'ok';
  }
  if (problem === 'denied' || problem === 'insecure') {
    return 'denied';
  }
  return problem === 'missing' ? 'missing' : 'error';
}

/** What the browser offers for a video visit. */
export interface BrowserSupport {
  peerConnection: boolean;
  getUserMedia: boolean;
  webSocket: boolean;
  secureContext: boolean;
}

export function browserSupportOf(scope: {
  RTCPeerConnection?: unknown;
  WebSocket?: unknown;
  isSecureContext?: boolean;
  navigator?: { mediaDevices?: { getUserMedia?: unknown } };
}): BrowserSupport {
  return {
    peerConnection: typeof scope.RTCPeerConnection === 'function',
    getUserMedia: typeof scope.navigator?.mediaDevices?.getUserMedia === 'function',
    webSocket: typeof scope.WebSocket === 'function',
    secureContext: scope.isSecureContext === true,
  };
}

export function isBrowserSupported(support: BrowserSupport): boolean {
  return support.peerConnection && support.getUserMedia && support.webSocket && support.secureContext;
}

/**
 * ICE gathering's verdict from the candidate types found (`host`, `srflx`, `prflx`, `relay`):
 * a direct path when any non-relay candidate exists, a relay when only TURN answered, else failed.
 */
export function connectivityOf(candidateTypes: readonly string[]): 'direct' | 'relay' | 'failed' {
  if (candidateTypes.some((type) => type === 'host' || type === 'srflx' || type === 'prflx')) {
    return 'direct';
  }
  return candidateTypes.includes('relay') ? 'relay' : 'failed';
}

/** The browser family, for the "how to allow the camera" hint. */
export type BrowserFamily = 'chrome' | 'edge' | 'firefox' | 'safari' | 'other';

export function browserFamilyOf(userAgent: string): BrowserFamily {
  if (/Edg\//.test(userAgent)) {
    return 'edge';
  }
  if (/Firefox\/|FxiOS\//.test(userAgent)) {
    return 'firefox';
  }
  if (/Chrome\/|Chromium\/|CriOS\//.test(userAgent)) {
    return 'chrome';
  }
  if (/Safari\//.test(userAgent)) {
    return 'safari';
  }
  return 'other';
}

/** A short description for staff ("Chrome 131 on Android"). */
export function describeBrowser(userAgent: string): string {
  const family = browserFamilyOf(userAgent);
  const version =
    {
      edge: /Edg\/(\d+)/,
      firefox: /(?:Firefox|FxiOS)\/(\d+)/,
      chrome: /(?:Chrome|Chromium|CriOS)\/(\d+)/,
      safari: /Version\/(\d+)/,
      other: /$^/,
    }[family].exec(userAgent)?.[1] ?? '';
  const system = /Android/.test(userAgent)
    ? 'Android'
    : /iPhone|iPad|iPod/.test(userAgent)
      ? 'iOS'
      : /Windows/.test(userAgent)
        ? 'Windows'
        : /Mac OS X|Macintosh/.test(userAgent)
          ? 'macOS'
          : /Linux/.test(userAgent)
            ? 'Linux'
            : '';
  const name = { edge: 'Edge', firefox: 'Firefox', chrome: 'Chrome', safari: 'Safari', other: 'Browser' }[
    family
  ];
  return [name, version].filter(Boolean).join(' ') + (system ? ` / ${system}` : '');
}

export interface DeviceCheckFindings {
  support: BrowserSupport;
  camera: MediaProblem | null;
  microphone: MediaProblem | null;
  speaker: 'ok' | 'failed' | 'untested';
  connectivity: DeviceCheckResult['connectivity'];
  realtimeRttMs: number | null;
  userAgent: string;
}

/** The result stored on the appointment (`PUT /visits/:id/device-check`). */
export function buildDeviceCheckResult(findings: DeviceCheckFindings): DeviceCheckResult {
  return {
    browserSupported: isBrowserSupported(findings.support),
    camera: deviceStatusOf(findings.camera),
    microphone: deviceStatusOf(findings.microphone),
    speaker: findings.speaker,
    connectivity: findings.connectivity,
    realtimeRttMs:
      findings.realtimeRttMs === null
        ? null
        : Math.min(60_000, Math.max(0, Math.round(findings.realtimeRttMs))),
    browser: describeBrowser(findings.userAgent).slice(0, 120),
  };
}
