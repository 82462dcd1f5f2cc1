/** The browser's own IANA time zone (the registration default). */
export function browserTimeZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  } catch {
    return 'UTC';
  }
}

/** "GMT+01:00"-style offset of a zone right now, or '' when the runtime cannot tell. */
export function timeZoneOffset(zone: string, at: Date = new Date()): string {
  try {
    const parts = new Intl.DateTimeFormat('en', { timeZone: zone, timeZoneName: 'longOffset' }).formatToParts(
      at,
    );
    return parts.find((part) => part.type === 'timeZoneName')?.value ?? '';
  } catch {
    return '';
  }
}

let cachedOptions: { value: string; label: string }[] | null = null;

/**
 * Every IANA zone the browser knows, as select options labelled "(GMT+01:00) Europe/Madrid",
 * plus `extra` zones (the current value) when the list lacks them. Built once per page.
 */
export function timeZoneOptions(extra: readonly string[] = []): { value: string; label: string }[] {
  if (!cachedOptions) {
    let zones: string[];
    try {
      zones = Intl.supportedValuesOf('timeZone');
    } catch {
      zones = [];
    }
    const now = new Date();
    cachedOptions = zones.map((zone) => toOption(zone, now));
  }
  const missing = extra.filter((zone) => zone && !cachedOptions?.some((option) => option.value === zone));
  return missing.length > 0
    ? [...missing.map((zone) => toOption(zone, new Date())), ...cachedOptions]
    : cachedOptions;
}

/** A zone's option label, "(GMT+01:00) Europe/Madrid" (the offset left out when unknown). */
export function timeZoneLabel(zone: string, at: Date = new Date()): string {
  const offset = timeZoneOffset(zone, at);
  const name = zone.replaceAll('_', ' ');
  return offset ? `(${offset}) ${name}` : name;
}

function toOption(zone: string, at: Date) {
  return { value: zone, label: timeZoneLabel(zone, at) };
}
