import { numberFormat } from './intl-cache';

/** Sizes count in 1024s, as the server's limits ("10 MB" = 10 × 1024 × 1024 bytes) and file managers do. */
const kilobyte = 1024;

/** A file size in the reader's language ("1,5 MB" / "1.5 MB"), using the browser's unit names. */
export function formatBytes(bytes: number, language: string): string {
  const units = ['byte', 'kilobyte', 'megabyte', 'gigabyte'] as const;
  let value = Math.max(0, bytes);
  let index = 0;
  while (value >= kilobyte && index < units.length - 1) {
    value /= kilobyte;
    index += 1;
  }
  return numberFormat(language, {
    style: 'unit',
    unit: units[index],
    unitDisplay: index === 0 ? 'long' : 'short',
    maximumFractionDigits: index === 0 ? 0 : 1,
  }).format(value);
}

/**
 * How long to wait, in words ("15 minutos", "1 minute", "45 segundos"): whole minutes from two
 * minutes up, seconds below. Uses the browser's unit names, so singular and plural are right.
 */
export function formatWaitDuration(seconds: number, language: string, unit?: 'minute' | 'second'): string {
  const safe = Math.max(1, Math.ceil(seconds));
  const chosen = unit ?? (safe >= 120 ? 'minute' : 'second');
  const value = chosen === 'minute' ? Math.max(1, Math.ceil(safe / 60)) : safe;
  return numberFormat(language, { style: 'unit', unit: chosen, unitDisplay: 'long' }).format(value);
}

/** Dates and times: one path, in the viewer's zone (`lib/clock`). */
export { formatDateTime } from './clock';

const typeNames: Record<string, string> = {
  'application/pdf': 'PDF',
  'image/jpeg': 'JPG',
  'image/jpg': 'JPG',
  'text/plain': 'TXT',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'DOCX',
};

/**
 * Accepted file kinds as people read them ("PDF, PNG, JPG"), from MIME types and extensions
 * (`application/pdf`, `.pdf`, `image/png`…), each kind once.
 */
export function formatAcceptedTypes(accept: readonly string[]): string {
  const names = accept.map((entry) => {
    const value = entry.trim().toLowerCase();
    if (value.startsWith('.')) {
      const extension = value.slice(1);
      return extension === 'jpeg' ? 'JPG' : extension.toUpperCase();
    }
    const known = typeNames[value];
    if (known) {
      return known;
    }
    const subtype = value.split('/')[1] ?? value;
    return subtype === '*' ? value : subtype.toUpperCase();
  });
  return [...new Set(names)].join(', ');
}
