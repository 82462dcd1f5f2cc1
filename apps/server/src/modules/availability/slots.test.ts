import { describe, expect, it } from 'vitest';
import {
  formatLocalDateTime,
  generateSlots,
  isoWeekdayOf,
  localDateOf,
  zonedInstant,
  type SlotGenerationInput,
  type WeeklyRule,
} from './slots.js';

const madrid = 'Europe/Madrid';
const newYork = 'America/New_York';

function rule(
  weekday: number,
  start: string,
  end: string,
  timeZone: string,
  extra: Partial<WeeklyRule> = {},
): WeeklyRule {
  const minutes = (time: string): number => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));
  return {
    weekday,
    startMinute: minutes(start),
    endMinute: minutes(end),
    timeZone,
    validFrom: null,
    validUntil: null,
    ...extra,
  };
}

function slotsOf(
  input: Partial<SlotGenerationInput> & Pick<SlotGenerationInput, 'rules' | 'from' | 'to'>,
): string[] {
  return generateSlots({ exceptions: [], busy: [], slotMinutes: 30, notBefore: null, ...input }).map((slot) =>
    slot.start.toISOString(),
  );
}

const at = (iso: string): Date => new Date(iso);

describe('zonedInstant', () => {
  it('reads ordinary wall times with the offset in force', () => {
    expect(zonedInstant('2026-03-28', 9 * 60, madrid).toISOString()).toBe('2026-03-28T08:00:00.000Z');
    expect(zonedInstant('2026-03-30', 9 * 60, madrid).toISOString()).toBe('2026-03-30T07:00:00.000Z');
    expect(zonedInstant('2026-07-01', 24 * 60, madrid).toISOString()).toBe('2026-07-01T22:00:00.000Z');
  });

  it('moves a wall time in the spring-forward gap forward by the gap length', () => {
    // 02:00–03:00 does not exist in Madrid on 2026-03-29; 02:30 reads as 03:30 CEST.
    expect(zonedInstant('2026-03-29', 150, madrid).toISOString()).toBe('2026-03-29T01:30:00.000Z');
    expect(zonedInstant('2026-03-29', 120, madrid).toISOString()).toBe('2026-03-29T01:00:00.000Z');
    expect(zonedInstant('2026-03-08', 150, newYork).toISOString()).toBe('2026-03-08T07:30:00.000Z');
  });

  it('takes the first occurrence of a wall time that happens twice', () => {
    // 02:00–03:00 happens twice in Madrid on 2026-10-25: first in CEST (+02:00).
    expect(zonedInstant('2026-10-25', 150, madrid).toISOString()).toBe('2026-10-25T00:30:00.000Z');
    expect(zonedInstant('2026-11-01', 90, newYork).toISOString()).toBe('2026-11-01T05:30:00.000Z');
  });

  it('agrees with local dates, weekdays and labels', () => {
    expect(localDateOf(at('2026-03-29T23:30:00Z'), madrid)).toBe('2026-03-30');
    expect(isoWeekdayOf('2026-03-29')).toBe(7);
    expect(isoWeekdayOf('2026-03-30')).toBe(1);
    expect(formatLocalDateTime(at('2026-03-30T07:00:00Z'), madrid)).toBe('2026-03-30T09:00+02:00');
    expect(formatLocalDateTime(at('2026-03-30T07:00:00Z'), 'Asia/Tokyo')).toBe('2026-03-30T16:00+09:00');
    expect(formatLocalDateTime(at('2026-03-30T07:00:00Z'), newYork)).toBe('2026-03-30T03:00-04:00');
  });
});

describe('generateSlots', () => {
  it('keeps 09:00 Madrid at 09:00 local across the March change while the UTC instant moves', () => {
    const rules = [6, 7, 1].map((weekday) => rule(weekday, '09:00', '10:00', madrid));
    expect(slotsOf({ rules, from: at('2026-03-28T00:00:00Z'), to: at('2026-03-31T00:00:00Z') })).toEqual([
      '2026-03-28T08:00:00.000Z',
      '2026-03-28T08:30:00.000Z',
      '2026-03-29T07:00:00.000Z',
      '2026-03-29T07:30:00.000Z',
      '2026-03-30T07:00:00.000Z',
      '2026-03-30T07:30:00.000Z',
    ]);
  });

  it('keeps 09:00 Madrid at 09:00 local across the October change', () => {
    const rules = [6, 7].map((weekday) => rule(weekday, '09:00', '09:30', madrid));
    const slots = generateSlots({
      rules,
      exceptions: [],
      busy: [],
      slotMinutes: 30,
      from: at('2026-10-24T00:00:00Z'),
      to: at('2026-10-26T00:00:00Z'),
      notBefore: null,
    });
    expect(slots.map((slot) => slot.start.toISOString())).toEqual([
      '2026-10-24T07:00:00.000Z',
      '2026-10-25T08:00:00.000Z',
    ]);
    expect(slots.map((slot) => formatLocalDateTime(slot.start, madrid))).toEqual([
      '2026-10-24T09:00+02:00',
      '2026-10-25T09:00+01:00',
    ]);
  });

  it('counts real time in ranges that cross a change: shorter in the gap, longer in the repeat', () => {
    // 01:30–03:30 on the spring-forward night lasts one real hour…
    expect(
      slotsOf({
        rules: [rule(7, '01:30', '03:30', madrid)],
        from: at('2026-03-28T12:00:00Z'),
        to: at('2026-03-29T12:00:00Z'),
      }),
    ).toEqual(['2026-03-29T00:30:00.000Z', '2026-03-29T01:00:00.000Z']);
    // …a range starting in the gap starts when the clocks jump…
    expect(
      slotsOf({
        rules: [rule(7, '02:00', '04:00', madrid)],
        from: at('2026-03-28T12:00:00Z'),
        to: at('2026-03-29T12:00:00Z'),
      }),
    ).toEqual(['2026-03-29T01:00:00.000Z', '2026-03-29T01:30:00.000Z']);
    // …and on the fall-back night it lasts three (01:30 CEST to 03:30 CET).
    expect(
      slotsOf({
        rules: [rule(7, '01:30', '03:30', madrid)],
        from: at('2026-10-24T12:00:00Z'),
        to: at('2026-10-25T12:00:00Z'),
      }),
    ).toHaveLength(6);
  });

  it('follows New York across its own change dates (09:00 EST then EDT)', () => {
    const rules = [rule(6, '09:00', '09:30', newYork), rule(1, '09:00', '09:30', newYork)];
    expect(slotsOf({ rules, from: at('2026-03-07T00:00:00Z'), to: at('2026-03-10T00:00:00Z') })).toEqual([
      '2026-03-07T14:00:00.000Z',
      '2026-03-09T13:00:00.000Z',
    ]);
    // The Monday after Europe changes (2026-03-30): New York already changed, Madrid too: 6 hours apart.
    const madridSlot = slotsOf({
      rules: [rule(1, '15:00', '15:30', madrid)],
      from: at('2026-03-30T00:00:00Z'),
      to: at('2026-03-31T00:00:00Z'),
    });
    expect(madridSlot.map((iso) => formatLocalDateTime(at(iso), newYork))).toEqual([
      '2026-03-30T09:00-04:00',
    ]);
  });

  it('gives a patient in Tokyo the same instants, only labelled in their zone', () => {
    const rules = [rule(1, '09:00', '10:00', madrid)];
    const window = { from: at('2026-03-30T00:00:00Z'), to: at('2026-03-31T00:00:00Z') };
    const slots = slotsOf({ rules, ...window });
    expect(slots).toEqual(['2026-03-30T07:00:00.000Z', '2026-03-30T07:30:00.000Z']);
    expect(slots.map((iso) => formatLocalDateTime(at(iso), 'Asia/Tokyo'))).toEqual([
      '2026-03-30T16:00+09:00',
      '2026-03-30T16:30+09:00',
    ]);
    // A window given as Tokyo's calendar day (midnight to midnight +09:00) sees only what starts in it.
    expect(
      slotsOf({ rules, from: at('2026-03-30T00:00:00+09:00'), to: at('2026-03-30T16:30:00+09:00') }),
    ).toEqual(['2026-03-30T07:00:00.000Z']);
  });

  it('applies rules only on their dates of validity, inclusive', () => {
    const rules = [rule(1, '09:00', '09:30', madrid, { validFrom: '2026-06-08', validUntil: '2026-06-15' })];
    expect(slotsOf({ rules, from: at('2026-06-01T00:00:00Z'), to: at('2026-06-30T00:00:00Z') })).toEqual([
      '2026-06-08T07:00:00.000Z',
      '2026-06-15T07:00:00.000Z',
    ]);
  });

  it('offers several ranges a day, merges touching ones and never yields the same slot twice', () => {
    const rules = [
      rule(3, '09:00', '10:00', madrid),
      rule(3, '10:00', '10:30', madrid),
      rule(3, '16:00', '17:00', madrid),
      rule(3, '16:00', '16:30', madrid),
    ];
    expect(
      slotsOf({ rules, from: at('2026-06-03T00:00:00Z'), to: at('2026-06-04T00:00:00Z') }).map((iso) =>
        formatLocalDateTime(at(iso), madrid).slice(11, 16),
      ),
    ).toEqual(['09:00', '09:30', '10:00', '16:00', '16:30']);
  });

  it('cuts time off out of a range, adds extra hours, and only whole slots fit', () => {
    const rules = [rule(3, '09:00', '12:00', madrid)];
    const slots = slotsOf({
      rules,
      slotMinutes: 45,
      from: at('2026-06-03T00:00:00Z'),
      to: at('2026-06-04T00:00:00Z'),
      exceptions: [
        { kind: 'time_off', start: at('2026-06-03T08:00:00Z'), end: at('2026-06-03T08:30:00Z') },
        { kind: 'extra', start: at('2026-06-03T16:00:00Z'), end: at('2026-06-03T17:40:00Z') },
      ],
    });
    // 09:00, 09:45 (10:00–10:30 off removes 09:45), 10:30, 11:15; extra 18:00 and 18:45 local (17:30 would overrun).
    expect(slots.map((iso) => formatLocalDateTime(at(iso), madrid).slice(11, 16))).toEqual([
      '09:00',
      '10:30',
      '11:15',
      '18:00',
      '18:45',
    ]);
  });

  it('never offers a slot that overlaps a busy interval', () => {
    const rules = [rule(3, '09:00', '11:00', madrid)];
    expect(
      slotsOf({
        rules,
        from: at('2026-06-03T00:00:00Z'),
        to: at('2026-06-04T00:00:00Z'),
        busy: [
          { start: at('2026-06-03T07:30:00Z'), end: at('2026-06-03T08:00:00Z') },
          { start: at('2026-06-03T08:10:00Z'), end: at('2026-06-03T08:20:00Z') },
        ],
      }),
    ).toEqual(['2026-06-03T07:00:00.000Z', '2026-06-03T08:30:00.000Z']);
  });

  it('respects the minimum notice and the window, and stops at the limit', () => {
    const rules = [1, 2, 3, 4, 5].map((weekday) => rule(weekday, '09:00', '12:00', madrid));
    const from = at('2026-06-01T00:00:00Z');
    const to = at('2026-06-06T00:00:00Z');
    const notBefore = at('2026-06-03T08:10:00Z');
    const all = slotsOf({ rules, from, to, notBefore });
    expect(all[0]).toBe('2026-06-03T08:30:00.000Z');
    expect(all.every((iso) => at(iso) >= notBefore && at(iso) < to)).toBe(true);
    expect(all).toHaveLength(3 + 6 + 6);
    expect(slotsOf({ rules, from, to, notBefore, limit: 3 })).toEqual(all.slice(0, 3));
    expect(slotsOf({ rules, from: to, to: from })).toEqual([]);
  });
});
