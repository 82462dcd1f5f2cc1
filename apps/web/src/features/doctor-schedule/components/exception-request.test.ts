import { describe, expect, it } from 'vitest';
import { toExceptionRequest, type ExceptionDraft } from './AddExceptionModal';

const draft = (overrides: Partial<ExceptionDraft> = {}): ExceptionDraft => ({
  kind: 'time_off',
  dates: ['2026-12-24', '2026-12-26'],
  isAllDay: true,
  startTime: '09:00',
  endTime: '13:00',
  reason: '  Vacaciones  ',
  ...overrides,
});

describe('exception request', () => {
  it("runs all day from the first date's midnight to the midnight after the last, in the doctor's zone", () => {
    expect(toExceptionRequest(draft(), 'America/Mexico_City')).toEqual({
      kind: 'time_off',
      startsAt: '2026-12-24T06:00:00.000Z',
      endsAt: '2026-12-27T06:00:00.000Z',
      reason: 'Vacaciones',
    });
  });

  it('takes the times on the first and last dates, across a daylight-saving change', () => {
    // Madrid: 28 March is CET (+01:00), 30 March CEST (+02:00).
    expect(
      toExceptionRequest(
        draft({ kind: 'extra', dates: ['2026-03-28', '2026-03-30'], isAllDay: false, reason: '' }),
        'Europe/Madrid',
      ),
    ).toEqual({
      kind: 'extra',
      startsAt: '2026-03-28T08:00:00.000Z',
      endsAt: '2026-03-30T11:00:00.000Z',
      reason: null,
    });
  });

  it('uses the first date for both ends when only one is chosen, and needs a date', () => {
    const single = toExceptionRequest(draft({ dates: ['2026-12-24', null] }), 'UTC');
    expect([single?.startsAt, single?.endsAt]).toEqual([
      '2026-12-24T00:00:00.000Z',
      '2026-12-25T00:00:00.000Z',
    ]);
    expect(toExceptionRequest(draft({ dates: [null, null] }), 'UTC')).toBeNull();
  });
});
