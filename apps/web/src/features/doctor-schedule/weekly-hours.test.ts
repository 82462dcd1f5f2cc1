import type { AvailabilityRule } from '@telemedicina/shared/booking';
import { describe, expect, it } from 'vitest';
import {
  copyMondayToWeekdays,
  emptyWeek,
  groupRules,
  isSameWeek,
  mapServerIssues,
  suggestRange,
  timeChoices,
  toRulesRequest,
  typicalWeek,
  validateWeek,
  weeklyMinutes,
  type RangeDraft,
} from './weekly-hours';

const rule = (weekday: number, start: string, end: string, extra: Partial<AvailabilityRule> = {}) => ({
  id: `${weekday}-${start}`,
  weekday,
  start,
  end,
  timeZone: 'America/Mexico_City',
  validFrom: null,
  validUntil: null,
  ...extra,
});

const range = (start: string, end: string, key = `${start}-${end}`): RangeDraft => ({
  key,
  start,
  end,
  validFrom: null,
  validUntil: null,
});

describe('weekly hours editor logic', () => {
  it('groups saved rules by weekday, each day by start time', () => {
    const week = groupRules([
      rule(1, '15:00:00', '18:00:00'),
      rule(1, '09:00:00', '13:00:00'),
      rule(3, '10:00', '24:00'),
      rule(9, '10:00', '11:00'),
    ]);
    expect(week[1].map((r) => [r.start, r.end])).toEqual([
      ['09:00', '13:00'],
      ['15:00', '18:00'],
    ]);
    expect(week[3].map((r) => [r.start, r.end])).toEqual([['10:00', '24:00']]);
    expect(week[2]).toEqual([]);
    expect(new Set(week[1].map((r) => r.key)).size).toBe(2);
  });

  it('flattens the week Monday first and remembers which row each rule came from', () => {
    const week = emptyWeek();
    week[2] = [range('10:00', '12:00', 'tue')];
    week[1] = [range('09:00', '13:00', 'mon')];
    const { rules, keys } = toRulesRequest(week);
    expect(rules.map((r) => [r.weekday, r.start, r.end])).toEqual([
      [1, '09:00', '13:00'],
      [2, '10:00', '12:00'],
    ]);
    expect(keys).toEqual(['mon', 'tue']);
  });

  it('copies Monday to Tuesday–Friday as new rows and leaves the weekend', () => {
    const week = emptyWeek();
    week[1] = [range('08:00', '12:00', 'm1'), range('16:00', '20:00', 'm2')];
    week[2] = [range('07:00', '09:00', 'old')];
    week[6] = [range('10:00', '14:00', 'sat')];
    const copied = copyMondayToWeekdays(week);
    for (const day of [2, 3, 4, 5] as const) {
      expect(copied[day].map((r) => [r.start, r.end])).toEqual([
        ['08:00', '12:00'],
        ['16:00', '20:00'],
      ]);
    }
    expect(copied[6]).toEqual(week[6]);
    const keys = [1, 2, 3, 4, 5].flatMap((day) => copied[day as 1].map((r) => r.key));
    expect(new Set(keys).size).toBe(keys.length);
    expect(isSameWeek(copied, week)).toBe(false);
    expect(weeklyMinutes(copied)).toBe(5 * 8 * 60 + 4 * 60);
  });

  it('marks an end before its start, and overlapping ranges of one day on their start', () => {
    const week = emptyWeek();
    week[1] = [range('09:00', '13:00', 'a'), range('12:00', '14:00', 'b'), range('14:00', '16:00', 'c')];
    week[2] = [range('10:00', '09:00', 'd')];
    week[3] = [range('09:00', '13:00', 'e'), range('13:00', '24:00', 'f')];
    const issues = validateWeek(week);
    expect(issues.get('a')).toEqual({ field: 'start', message: 'validation.rulesOverlap' });
    expect(issues.get('b')).toEqual({ field: 'start', message: 'validation.rulesOverlap' });
    expect(issues.has('c')).toBe(false);
    expect(issues.get('d')).toEqual({ field: 'end', message: 'validation.timeOrder' });
    expect(issues.has('e') || issues.has('f')).toBe(false);
  });

  it('lets ranges overlap when their dates of validity never meet (as the server does)', () => {
    const week = emptyWeek();
    week[1] = [
      { ...range('09:00', '13:00', 'a'), validUntil: '2026-12-31' },
      { ...range('10:00', '12:00', 'b'), validFrom: '2027-01-01' },
    ];
    expect(validateWeek(week).size).toBe(0);
  });

  it("puts the server's rules.<i> issues on the rows they name", () => {
    const { byRow, other } = mapServerIssues(
      {
        'rules.1.start': 'validation.rulesOverlap',
        'rules.0.end': 'validation.timeOrder',
        rules: 'validation.tooMany',
      },
      ['mon', 'tue'],
    );
    expect(byRow.get('tue')).toEqual({ field: 'start', message: 'validation.rulesOverlap' });
    expect(byRow.get('mon')).toEqual({ field: 'end', message: 'validation.timeOrder' });
    expect(other).toEqual(['validation.tooMany']);
    expect(mapServerIssues({ 'rules.7.start': 'validation.rulesOverlap' }, ['mon']).other).toEqual([
      'validation.rulesOverlap',
    ]);
  });

  it('suggests a morning on an empty day, then the afternoon after a break, none once the day is full', () => {
    expect(suggestRange([])).toMatchObject({ start: '09:00', end: '13:00' });
    expect(suggestRange([range('09:00', '13:00')])).toMatchObject({ start: '14:00', end: '18:00' });
    expect(suggestRange([range('20:00', '23:50')])).toMatchObject({ start: '23:50', end: '24:00' });
    expect(suggestRange([range('20:00', '24:00')])).toBeNull();
  });

  it('offers times every 15 minutes, 24:00 only as an end, and keeps an off-grid saved time', () => {
    expect(timeChoices('start', '09:00')).toHaveLength(96);
    expect(timeChoices('start', '09:00')).not.toContain('24:00');
    expect(timeChoices('end', '24:00').at(-1)).toBe('24:00');
    const withOdd = timeChoices('start', '09:10');
    expect(withOdd.indexOf('09:10')).toBe(withOdd.indexOf('09:00') + 1);
  });

  it('starts a usual week on weekdays only', () => {
    const week = typicalWeek();
    expect([1, 2, 3, 4, 5].every((day) => week[day as 1].length === 2)).toBe(true);
    expect(week[6]).toEqual([]);
    expect(validateWeek(week).size).toBe(0);
  });
});
