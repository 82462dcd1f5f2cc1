import { describe, expect, it } from 'vitest';
import { buildIcs, escapeIcsText, foldIcsLine, formatIcsDate } from './ics.js';

const encoder = new TextEncoder();

function unfold(text: string): string {
  return text.replaceAll('\r\n ', '');
}

const event = {
  uid: '7d3c1a52-0000-4000-8000-000000000001',
  host: 'clinic.test',
  stamp: new Date('2026-03-25T10:00:00Z'),
  start: new Date('2026-03-27T08:00:00Z'),
  end: new Date('2026-03-27T08:30:00Z'),
  summary: 'Consulta con Dra. Núñez, Pediatría; control',
  description: 'Línea uno\nLínea dos \\ fin',
  location: 'https://clinic.test/appointments/7d3c1a52-0000-4000-8000-000000000001',
  status: 'CONFIRMED' as const,
  sequence: 0,
};

describe('ics', () => {
  it('formats instants in UTC', () => {
    expect(formatIcsDate(new Date('2026-03-27T08:05:09.123Z'))).toBe('20260327T080509Z');
  });

  it('escapes backslash, semicolon, comma and newlines', () => {
    expect(escapeIcsText('a\\b;c,d\ne\r\nf')).toBe('a\\\\b\\;c\\,d\\ne\\nf');
  });

  it('folds long UTF-8 lines at 75 octets without splitting characters', () => {
    const line = `DESCRIPTION:${'ñandú €😀 '.repeat(30)}`;
    const folded = foldIcsLine(line);
    const lines = folded.split('\r\n');
    expect(lines.length).toBeGreaterThan(3);
    for (const [index, part] of lines.entries()) {
      expect(encoder.encode(part).length).toBeLessThanOrEqual(75);
      if (index > 0) {
        expect(part.startsWith(' ')).toBe(true);
      }
      expect(part).not.toContain('\uFFFD');
    }
    expect(unfold(folded)).toBe(line);
    expect(foldIcsLine('SHORT:x')).toBe('SHORT:x');
  });

  it('builds a confirmed request with CRLF lines and the UID at the host', () => {
    const ics = buildIcs(event);
    expect(ics.endsWith('\r\n')).toBe(true);
    expect(ics.replaceAll('\r\n', '')).not.toContain('\n');
    const lines = unfold(ics).split('\r\n');
    expect(lines).toContain('METHOD:REQUEST');
    expect(lines).toContain('STATUS:CONFIRMED');
    expect(lines).toContain('UID:7d3c1a52-0000-4000-8000-000000000001@clinic.test');
    expect(lines).toContain('DTSTART:20260327T080000Z');
    expect(lines).toContain('DTEND:20260327T083000Z');
    expect(lines).toContain('DTSTAMP:20260325T100000Z');
    expect(lines).toContain('SEQUENCE:0');
    expect(lines).toContain('SUMMARY:Consulta con Dra. Núñez\\, Pediatría\\; control');
    expect(lines).toContain('DESCRIPTION:Línea uno\\nLínea dos \\\\ fin');
    expect(lines[0]).toBe('BEGIN:VCALENDAR');
    expect(lines.at(-2)).toBe('END:VCALENDAR');
  });

  it('builds a cancellation with METHOD:CANCEL and the given sequence', () => {
    const lines = unfold(buildIcs({ ...event, status: 'CANCELLED', sequence: 3 })).split('\r\n');
    expect(lines).toContain('METHOD:CANCEL');
    expect(lines).toContain('STATUS:CANCELLED');
    expect(lines).toContain('SEQUENCE:3');
  });
});
