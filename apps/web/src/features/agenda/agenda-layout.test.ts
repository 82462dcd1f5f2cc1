import { describe, expect, it } from 'vitest';
import {
  fetchWindow,
  gridHours,
  placeBlocks,
  placeFreeIntervals,
  shiftDate,
  visibleDays,
} from './agenda-layout';

const visit = (id: string, startsAt: string, minutes = 30) => ({
  id,
  startsAt,
  endsAt: new Date(Date.parse(startsAt) + minutes * 60_000).toISOString(),
});

describe('agenda layout', () => {
  const week = visibleDays('2026-11-25', 'week');

  it('shows Monday to Sunday of the week, or the one day', () => {
    expect(week).toEqual([
      '2026-11-23',
      '2026-11-24',
      '2026-11-25',
      '2026-11-26',
      '2026-11-27',
      '2026-11-28',
      '2026-11-29',
    ]);
    expect(visibleDays('2026-11-25', 'day')).toEqual(['2026-11-25']);
    expect(shiftDate('2026-11-25', 'week', -1)).toBe('2026-11-18');
    expect(shiftDate('2026-11-25', 'day', 1)).toBe('2026-11-26');
  });

  it("places a block on the doctor's day and wall clock, whatever zone the instant was written in", () => {
    // 16:00 UTC = 10:00 in Mexico City = 17:00 in Madrid (the patient's zone).
    const [block] = placeBlocks([visit('a', '2026-11-24T16:00:00Z')], week, 'America/Mexico_City');
    expect(block).toMatchObject({ column: 1, date: '2026-11-24', startMinute: 600, endMinute: 630 });
    const [inMadrid] = placeBlocks([visit('a', '2026-11-24T16:00:00Z')], week, 'Europe/Madrid');
    expect(inMadrid).toMatchObject({ column: 1, startMinute: 17 * 60 });
  });

  it('puts a late-evening visit on the next day in a zone ahead of UTC, and drops days not shown', () => {
    // 23:30 UTC on Sunday the 29th is 00:30 on Monday the 30th in Madrid: outside this week.
    expect(placeBlocks([visit('a', '2026-11-29T23:30:00Z')], week, 'Europe/Madrid')).toEqual([]);
    // …but still Sunday in Mexico City (17:30).
    const [block] = placeBlocks([visit('a', '2026-11-29T23:30:00Z')], week, 'America/Mexico_City');
    expect(block).toMatchObject({ column: 6, startMinute: 17 * 60 + 30 });
  });

  it('keeps 09:00 at 09:00 across a daylight-saving change (Madrid, 29 March 2026)', () => {
    const days = ['2026-03-28', '2026-03-29', '2026-03-30'];
    const blocks = placeBlocks(
      [
        visit('sat', '2026-03-28T08:00:00Z'),
        visit('sun', '2026-03-29T07:00:00Z'),
        visit('mon', '2026-03-30T07:00:00Z'),
      ],
      days,
      'Europe/Madrid',
    );
    expect(blocks.map((block) => [block.item.id, block.date, block.startMinute])).toEqual([
      ['sat', '2026-03-28', 540],
      ['sun', '2026-03-29', 540],
      ['mon', '2026-03-30', 540],
    ]);
    // A visit across the jump (01:30 CET → 03:30 CEST, one hour long) keeps its real length.
    const [across] = placeBlocks([visit('x', '2026-03-29T00:30:00Z', 60)], days, 'Europe/Madrid');
    expect(across).toMatchObject({ startMinute: 90, endMinute: 150 });
  });

  it('shares the column between overlapping blocks and cuts a block at midnight', () => {
    const blocks = placeBlocks(
      [
        visit('a', '2026-11-23T16:00:00Z', 30),
        visit('b', '2026-11-23T16:00:00Z', 30),
        visit('c', '2026-11-23T16:15:00Z', 30),
        visit('d', '2026-11-23T17:00:00Z', 30),
        visit('late', '2026-11-24T05:30:00Z', 60),
      ],
      week,
      'America/Mexico_City',
    );
    const byId = new Map(blocks.map((block) => [block.item.id, block]));
    expect([byId.get('a')?.lane, byId.get('b')?.lane, byId.get('c')?.lane]).toEqual([0, 1, 2]);
    expect(byId.get('a')?.lanes).toBe(3);
    expect(byId.get('d')).toMatchObject({ lane: 0, lanes: 1 });
    expect(byId.get('late')).toMatchObject({ startMinute: 23 * 60 + 30, endMinute: 1440 });
  });

  it('merges touching free slots and widens the grid around everything shown', () => {
    const free = placeFreeIntervals(
      [
        visit('1', '2026-11-23T15:00:00Z'),
        visit('2', '2026-11-23T15:30:00Z'),
        visit('3', '2026-11-23T17:00:00Z'),
      ],
      week,
      'America/Mexico_City',
    );
    expect(free).toEqual([
      { column: 0, startMinute: 540, endMinute: 600 },
      { column: 0, startMinute: 660, endMinute: 690 },
    ]);
    expect(gridHours(free)).toEqual({ startHour: 7, endHour: 20 });
    expect(gridHours([{ startMinute: 330, endMinute: 1350 }])).toEqual({ startHour: 5, endHour: 23 });
  });

  it("asks for the week's instants from the doctor's first midnight to the midnight after Sunday", () => {
    expect(fetchWindow(week, 'America/Mexico_City')).toEqual({
      from: '2026-11-23T06:00:00.000Z',
      to: '2026-11-30T06:00:00.000Z',
    });
  });
});
