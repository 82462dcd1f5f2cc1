export interface DeviceDescription {
  /** Browser and major version ("Firefox 133"), or null when not recognised. */
  browser: string | null;
  /** Operating system ("Windows", "iOS"…), or null when not recognised. */
  os: string | null;
  isMobile: boolean;
}

const browsers: readonly [RegExp, string][] = [
  [/\bEdg(?:e|A|iOS)?\/(\d+)/, 'Edge'],
  [/\bOPR\/(\d+)/, 'Opera'],
  [/\bSamsungBrowser\/(\d+)/, 'Samsung Internet'],
  [/\bFirefox\/(\d+)/, 'Firefox'],
  [/\bFxiOS\/(\d+)/, 'Firefox'],
  [/\bCriOS\/(\d+)/, 'Chrome'],
  [/\bChrom(?:e|ium)\/(\d+)/, 'Chrome'],
  [/\bVersion\/(\d+)[\d.]* (?:Mobile\/\S+ )?Safari\//, 'Safari'],
];

const systems: readonly [RegExp, string][] = [
  [/\b(?:iPhone|iPad|iPod)\b/, 'iOS'],
  [/\bAndroid\b/, 'Android'],
  [/\bCrOS\b/, 'ChromeOS'],
  [/\bWindows\b/, 'Windows'],
  [/\bMac OS X\b|\bMacintosh\b/, 'macOS'],
  [/\bLinux\b/, 'Linux'],
];

/**
 * A readable device from a User-Agent header, for the list of active sessions. Only the broad
 * strokes (browser family and major version, operating system) — enough for someone to recognise
 * their own devices — and nothing when the header is absent or unusual.
 */
export function describeUserAgent(userAgent: string | null | undefined): DeviceDescription {
  const ua = userAgent ?? '';
  let browser: string | null = null;
  for (const [pattern, name] of browsers) {
    const match = pattern.exec(ua);
    if (match) {
      browser = `${name} ${match[1]}`;
      break;
    }
  }
  const os = systems.find(([pattern]) => pattern.test(ua))?.[1] ?? null;
  return { browser, os, isMobile: /\bMobile\b|\bAndroid\b|\biPhone\b/.test(ua) };
}
