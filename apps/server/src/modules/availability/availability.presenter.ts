import type { AvailabilityException, AvailabilityRule, Slot } from '@telemedicina/shared/booking';
import type { AvailabilityExceptionRow, AvailabilityRuleRow } from './availability.repository.js';
import { formatLocalDateTime } from './slots.js';
import type { FreeSlot } from './availability.service.js';

/** `time` columns come back as `HH:MM:SS`; the API speaks `HH:MM`. */
function wallTime(value: string): string {
  return value.slice(0, 5);
}

export function presentAvailabilityRule(rule: AvailabilityRuleRow): AvailabilityRule {
  return {
    id: rule.id,
    weekday: rule.weekday,
    start: wallTime(rule.startTime),
    end: wallTime(rule.endTime),
    timeZone: rule.timeZone,
    validFrom: rule.validFrom,
    validUntil: rule.validUntil,
  };
}

export function presentAvailabilityException(exception: AvailabilityExceptionRow): AvailabilityException {
  return {
    id: exception.id,
    kind: exception.kind,
    startsAt: exception.startsAt.toISOString(),
    endsAt: exception.endsAt.toISOString(),
    reason: exception.reason,
    createdAt: exception.createdAt.toISOString(),
  };
}

/** A slot with its start labelled in the viewer's zone and in the doctor's. */
export function presentSlot(slot: FreeSlot, viewerTimeZone: string, doctorTimeZone: string): Slot {
  return {
    startsAt: slot.startsAt.toISOString(),
    endsAt: slot.endsAt.toISOString(),
    localStart: formatLocalDateTime(slot.startsAt, viewerTimeZone),
    doctorLocalStart: formatLocalDateTime(slot.startsAt, doctorTimeZone),
  };
}
