import { deviceRiskOf } from '@telemedicina/shared/visits';
import { describe, expect, it } from 'vitest';
import {
  browserFamilyOf,
  browserSupportOf,
  buildDeviceCheckResult,
  connectivityOf,
  describeBrowser,
  mediaProblemOf,
} from './device-check-result';

const chromeAndroid =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36';
const safariIos =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
const firefox = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0';

const fullSupport = { peerConnection: true, getUserMedia: true, webSocket: true, secureContext: true };

describe('device check result', () => {
  it('turns getUserMedia failures into guidance', () => {
    expect(mediaProblemOf(new DOMException('x', 'NotAllowedError'))).toBe('denied');
    expect(mediaProblemOf(new DOMException('x', 'NotFoundError'))).toBe('missing');
    expect(mediaProblemOf(new DOMException('x', 'NotReadableError'))).toBe('inUse');
    expect(mediaProblemOf({ name: 'OverconstrainedError' })).toBe('missing');
    expect(mediaProblemOf(new Error('boom'))).toBe('unknown');
    expect(mediaProblemOf(undefined)).toBe('unknown');
  });

  it('classifies ICE gathering', () => {
    expect(connectivityOf(['host', 'srflx'])).toBe('direct');
    expect(connectivityOf(['relay'])).toBe('relay');
    expect(connectivityOf([])).toBe('failed');
  });

  it('names browsers and reads their support', () => {
    expect(browserFamilyOf(chromeAndroid)).toBe('chrome');
    expect(browserFamilyOf(safariIos)).toBe('safari');
    expect(browserFamilyOf(firefox)).toBe('firefox');
    expect(describeBrowser(chromeAndroid)).toBe('Chrome 131 / Android');
    expect(describeBrowser(safariIos)).toBe('Safari 17 / iOS');
    expect(describeBrowser(firefox)).toBe('Firefox 133 / Windows');
    expect(browserSupportOf({})).toEqual({
      peerConnection: false,
      getUserMedia: false,
      webSocket: false,
      secureContext: false,
    });
  });

  it('builds the stored result, whose risk follows the findings', () => {
    const ok = buildDeviceCheckResult({
      support: fullSupport,
      camera: null,
      microphone: null,
      speaker: 'ok',
      connectivity: 'direct',
      realtimeRttMs: 12.6,
      userAgent: chromeAndroid,
    });
    expect(ok).toEqual({
      browserSupported: true,
      camera: 'ok',
      microphone: 'ok',
      speaker: 'ok',
      connectivity: 'direct',
      realtimeRttMs: 13,
      browser: 'Chrome 131 / Android',
    });
    expect(deviceRiskOf(ok)).toBe('ok');
    const noCamera = buildDeviceCheckResult({
      support: fullSupport,
      camera: 'denied',
      microphone: null,
      speaker: 'untested',
      connectivity: 'direct',
      realtimeRttMs: null,
      userAgent: firefox,
    });
    expect(noCamera.camera).toBe('denied');
    expect(deviceRiskOf(noCamera)).toBe('warning');
    const insecure = buildDeviceCheckResult({
      support: { ...fullSupport, secureContext: false },
      camera: 'inUse',
      microphone: 'missing',
      speaker: 'untested',
      connectivity: 'failed',
      realtimeRttMs: null,
      userAgent: firefox,
    });
    expect(insecure).toMatchObject({ browserSupported: false, camera: 'error', microphone: 'missing' });
    expect(deviceRiskOf(insecure)).toBe('blocked');
  });
});
