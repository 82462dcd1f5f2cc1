const kilobyte = 1000;

/** A file size in the reader's language ("1,5 MB" / "1.5 MB"), using the browser's unit names. */
export function formatBytes(bytes: number, language: string): string {
  const units = ['byte', 'kilobyte', 'megabyte', 'gigabyte'] as const;
  let value = Math.max(0, bytes);
  let index = 0;
  while (value >= kilobyte && index < units.length - 1) {
    value /= kilobyte;
    index += 1;
  }
  return new Intl.NumberFormat(language, {
    style: 'unit',
    unit: units[index],
    unitDisplay: index === 0 ? 'long' : 'short',
    maximumFractionDigits: index === 0 ? 0 : 1,
  }).format(value);
}
