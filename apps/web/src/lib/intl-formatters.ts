/**
 * Builds one formatter of each kind the first screens use — numbers, dates and times in a zone,
 * relative times — and formats a value with each, so the engine loads the locale data behind
 * them. Best effort: a step that throws (an engine without a feature, an unknown language) is
 * skipped. Returns how many steps succeeded.
 */
export function buildFirstFormatters(language: string, timeZone?: string): number {
  const steps: (() => unknown)[] = [
    () => new Intl.NumberFormat(language).format(1),
    () => new Intl.DateTimeFormat(language, { dateStyle: 'full', timeStyle: 'short', timeZone }).format(0),
    () => new Intl.RelativeTimeFormat(language, { numeric: 'auto' }).format(1, 'day'),
  ];
  let built = 0;
  for (const step of steps) {
    try {
      step();
      built += 1;
    } catch {
      // Best effort: see above.
    }
  }
  return built;
}
