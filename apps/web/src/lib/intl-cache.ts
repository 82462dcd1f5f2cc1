/**
 * Shared Intl formatters. Building an `Intl.DateTimeFormat` (above all with a time zone) or an
 * `Intl.NumberFormat` costs far more than formatting with one — on a slow phone a list of dates
 * spent most of its render building formatters. They are immutable, so one per language and
 * options is kept and reused. An invalid option (an unknown time zone) still throws, as `new` does.
 */
const dateTimeFormats = new Map<string, Intl.DateTimeFormat>();
const numberFormats = new Map<string, Intl.NumberFormat>();
const maxEntries = 200;

function remember<T>(cache: Map<string, T>, key: string, create: () => T): T {
  let format = cache.get(key);
  if (!format) {
    format = create();
    if (cache.size >= maxEntries) {
      cache.clear();
    }
    cache.set(key, format);
  }
  return format;
}

export function dateTimeFormat(
  language: string,
  options: Intl.DateTimeFormatOptions = {},
): Intl.DateTimeFormat {
  return remember(
    dateTimeFormats,
    JSON.stringify([language, options]),
    () => new Intl.DateTimeFormat(language, options),
  );
}

export function numberFormat(language: string, options: Intl.NumberFormatOptions = {}): Intl.NumberFormat {
  return remember(
    numberFormats,
    JSON.stringify([language, options]),
    () => new Intl.NumberFormat(language, options),
  );
}
