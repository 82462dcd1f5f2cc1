/**
 * A minimal RFC 5545 calendar writer for one appointment: VCALENDAR with one
 * VEVENT, times in UTC, text escaped, lines folded at 75 octets, CRLF.
 * Written by hand (no package): the subset needed is small.
 */
export interface CalendarEvent {
  /** Stable across changes (the appointment id); the UID becomes `<uid>@<host>`. */
  uid: string;
  host: string;
  /** When the file is made. */
  stamp: Date;
  start: Date;
  end: Date;
  summary: string;
  description: string;
  /** The visit link. */
  location: string;
  status: 'CONFIRMED' | 'CANCELLED';
  /** Increases with every change (reschedules, cancellation). */
  sequence: number;
}

/** `20260327T080000Z`. */
export function formatIcsDate(date: Date): string {
  return date
    .toISOString()
    .replace(/\.\d{3}Z$/, 'Z')
    .replaceAll('-', '')
    .replaceAll(':', '');
}

/** Escapes TEXT values: backslash, semicolon, comma and newlines (RFC 5545 §3.3.11). */
export function escapeIcsText(value: string): string {
  return value
    .replaceAll('\\', '\\\\')
    .replaceAll(';', '\\;')
    .replaceAll(',', '\\,')
    .replace(/\r\n|\r|\n/g, '\\n');
}

const encoder = new TextEncoder();

/**
 * Folds a content line so that no line exceeds 75 octets (UTF-8), never
 * splitting a character; continuation lines start with one space.
 */
export function foldIcsLine(line: string): string {
  const parts: string[] = [];
  let current = '';
  let octets = 0;
  for (const char of line) {
    const size = encoder.encode(char).length;
    // The first line holds 75 octets; continuations 74 plus the leading space.
    const limit = parts.length === 0 ? 75 : 74;
    if (octets + size > limit) {
      parts.push(current);
      current = '';
      octets = 0;
    }
    current += char;
    octets += size;
  }
  parts.push(current);
  return parts.join('\r\n ');
}

/** The whole file; METHOD is REQUEST for a live event and CANCEL for a cancelled one. */
export function buildIcs(event: CalendarEvent): string {
  const method = event.status === 'CANCELLED' ? 'CANCEL' : 'REQUEST';
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Telemedicina//Appointments//EN',
    'CALSCALE:GREGORIAN',
    `METHOD:${method}`,
    'BEGIN:VEVENT',
    `UID:${event.uid}@${event.host}`,
    `DTSTAMP:${formatIcsDate(event.stamp)}`,
    `DTSTART:${formatIcsDate(event.start)}`,
    `DTEND:${formatIcsDate(event.end)}`,
    `SEQUENCE:${event.sequence}`,
    `STATUS:${event.status}`,
    `SUMMARY:${escapeIcsText(event.summary)}`,
    `DESCRIPTION:${escapeIcsText(event.description)}`,
    `LOCATION:${escapeIcsText(event.location)}`,
    `URL:${event.location}`,
    'END:VEVENT',
    'END:VCALENDAR',
  ];
  return `${lines.map(foldIcsLine).join('\r\n')}\r\n`;
}
