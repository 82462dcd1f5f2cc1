import type { PractitionerRole, Schedule, Slot } from '@medplum/fhirtypes';
import { maxSlotWindowDays } from '@telemedicina/shared/booking';
import { isUuid } from '../../lib/uuid.js';
import { findDoctorScheduleInfo } from '../availability/availability.repository.js';
import { findFreeSlotsOf, findFreeSlotsOfMany, type FreeSlot } from '../availability/availability.service.js';
import { loadBookingRules } from '../settings/settings.service.js';
import { localDateOf } from '../availability/slots.js';
import { loadActorUser } from '../identity/actor.js';
import type { FhirReader } from './fhir-reader.js';
import {
  anyOf,
  dateBounds,
  emptyResult,
  ref,
  single,
  tokenCode,
  type ResourceHandler,
} from './fhir-resource.js';
import { badParam } from './fhir-outcome.js';
import {
  listWeeklyHours,
  searchPractitionerRoleRows,
  searchScheduleRows,
  type PractitionerRoleRow,
  type ScheduleRow,
} from './fhir-directory.repository.js';
import type { DateBound } from './fhir.repository.js';
import { organizationId } from './people.resources.js';

/*
 * Schedule, Slot and PractitionerRole: the doctors' bookable time, as public in the app as the
 * directory patients book from (any reader whose scopes allow the type sees them). Each doctor has
 * one Schedule (same id as the Practitioner); its Slots are the free times the availability module
 * computes for booking (weekly hours in the doctor's zone, time off, taken appointments, the visit
 * length and the clinic's minimum notice), never stored.
 */

const minuteMs = 60_000;
const dayMs = 24 * 60 * minuteMs;
/** A Slot search without an end looks this far ahead of its start. */
const defaultSlotWindowDays = 7;
const videoVisit = [{ text: 'Video visit' }];
/** A Slot search without schedule covers the clinic's doctors, up to this many. */
const maxDoctors = 500;
const maxSlotsPerDoctor = 5_000;

function referenceId(value: string, type: string, name: string): string {
  const id = value.startsWith(`${type}/`) ? value.slice(type.length + 1) : value;
  if (!isUuid(id)) {
    throw badParam(name, `The search parameter ${name} takes ${type}/<id> or <id>.`);
  }
  return id;
}

function booleanParam(value: string | null, name: string): boolean | null {
  if (value === null) {
    return null;
  }
  if (value !== 'true' && value !== 'false') {
    throw badParam(name, `The search parameter ${name} takes true or false.`);
  }
  return value === 'true';
}

// ---------------------------------------------------------------- Schedule

export function presentSchedule(row: ScheduleRow, now: Date): Schedule {
  return {
    resourceType: 'Schedule',
    id: row.doctorId,
    active: row.status === 'active',
    serviceType: videoVisit,
    actor: [ref('Practitioner', row.doctorId, row.doctorName)],
    planningHorizon: {
      start: now.toISOString(),
      end: new Date(now.getTime() + maxSlotWindowDays * dayMs).toISOString(),
    },
    comment: `Video visits of ${row.visitMinutes} minutes; the free times are the Slots of this Schedule.`,
  };
}

export const scheduleHandler: ResourceHandler = {
  type: 'Schedule',
  documentation: "Each doctor's bookable time (one per doctor, the same id as the Practitioner).",
  searchParams: [
    { name: '_id', type: 'token', documentation: 'The schedule id (the doctor id).' },
    { name: 'actor', type: 'reference', documentation: 'The doctor (Practitioner/<id>).' },
    { name: 'active', type: 'token', documentation: 'true: doctors whose account is active.' },
  ],
  async read(reader, _limit, id) {
    if (!isUuid(id)) {
      return null;
    }
    const { rows } = await searchScheduleRows(reader.ctx.db, {
      doctorIds: [id],
      active: null,
      limit: 1,
      offset: 0,
    });
    return rows[0] === undefined
      ? null
      : { resource: presentSchedule(rows[0], reader.ctx.now()), patient: null };
  },
  async search(reader, _limit, { params, count, offset }) {
    const ids: string[] = [];
    const id = single(params, '_id');
    if (id !== null) {
      if (!isUuid(id)) {
        return emptyResult;
      }
      ids.push(id);
    }
    const actor = single(params, 'actor');
    if (actor !== null) {
      const doctorId = referenceId(actor, 'Practitioner', 'actor');
      if (ids.length > 0 && ids[0] !== doctorId) {
        return emptyResult;
      }
      ids.splice(0, ids.length, doctorId);
    }
    const { rows, total } = await searchScheduleRows(reader.ctx.db, {
      doctorIds: id === null && actor === null ? null : ids,
      active: booleanParam(single(params, 'active'), 'active'),
      limit: count,
      offset,
    });
    const now = reader.ctx.now();
    return { resources: rows.map((row) => presentSchedule(row, now)), total, patients: [] };
  },
};

// ---------------------------------------------------------------- Slot

/** `<doctor id>.<start as yyyyMMddTHHmmZ>`: a slot is its doctor and its start. */
export function slotId(doctorId: string, startsAt: Date): string {
  const iso = startsAt.toISOString();
  return `${doctorId}.${iso.slice(0, 4)}${iso.slice(5, 7)}${iso.slice(8, 10)}T${iso.slice(11, 13)}${iso.slice(14, 16)}Z`;
}

const slotIdPattern = /^([0-9a-f-]{36})\.(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})Z$/;

function parseSlotId(id: string): { doctorId: string; startsAt: Date } | null {
  const match = slotIdPattern.exec(id);
  if (match === null || !isUuid(match[1]!)) {
    return null;
  }
  const [, doctorId, year, month, day, hour, minute] = match;
  const startsAt = new Date(`${year}-${month}-${day}T${hour}:${minute}:00Z`);
  return Number.isNaN(startsAt.getTime()) || slotId(doctorId!, startsAt) !== id
    ? null
    : { doctorId: doctorId!, startsAt };
}

export function presentSlot(doctorId: string, slot: FreeSlot): Slot {
  return {
    resourceType: 'Slot',
    id: slotId(doctorId, slot.startsAt),
    serviceType: videoVisit,
    schedule: ref('Schedule', doctorId),
    status: 'free',
    start: slot.startsAt.toISOString(),
    end: slot.endsAt.toISOString(),
  };
}

/** The [from, to) a Slot search covers: its `start` bounds, from now, at most maxSlotWindowDays long. */
export function slotWindow(bounds: readonly DateBound[], now: Date): { from: Date; to: Date } {
  let from: Date | null = null;
  let to: Date | null = null;
  const later = (a: Date | null, b: Date) => (a === null || b > a ? b : a);
  const earlier = (a: Date | null, b: Date) => (a === null || b < a ? b : a);
  for (const bound of bounds) {
    switch (bound.op) {
      case 'eq':
        from = later(from, bound.start);
        to = earlier(to, bound.end);
        break;
      case 'ge':
        from = later(from, bound.start);
        break;
      case 'gt':
        from = later(from, bound.end);
        break;
      case 'le':
        to = earlier(to, bound.end);
        break;
      case 'lt':
        to = earlier(to, bound.start);
        break;
    }
  }
  const start = from === null || from < now ? now : from;
  const end = to ?? new Date(start.getTime() + defaultSlotWindowDays * dayMs);
  if (end.getTime() - start.getTime() > maxSlotWindowDays * dayMs) {
    throw badParam(
      'start',
      `A Slot search covers at most ${maxSlotWindowDays} days: give start=ge… and start=le… closer together.`,
    );
  }
  return { from: start, to: end };
}

const slotStatuses = new Set(['free', 'busy', 'busy-unavailable', 'busy-tentative', 'entered-in-error']);

async function freeSlotsOf(reader: FhirReader, doctorId: string, from: Date, to: Date): Promise<FreeSlot[]> {
  const doctor = await findDoctorScheduleInfo(reader.ctx.db, doctorId);
  if (doctor === null || to <= from) {
    return [];
  }
  return findFreeSlotsOf(reader.ctx.db, doctor, { from, to, now: reader.ctx.now() });
}

export const slotHandler: ResourceHandler = {
  type: 'Slot',
  documentation:
    'Free times of a Schedule, computed as booking computes them (never stored; only free slots are listed). A search covers at most 31 days (default: the next 7).',
  searchParams: [
    {
      name: 'schedule',
      type: 'reference',
      documentation: 'The schedule (Schedule/<doctor id>); else every doctor.',
    },
    { name: 'start', type: 'date', documentation: 'The start (ge, gt, le, lt, eq); at most 31 days.' },
    { name: 'status', type: 'token', documentation: 'free (the only status listed).' },
  ],
  async read(reader, _limit, id) {
    const parsed = parseSlotId(id);
    if (parsed === null) {
      return null;
    }
    const [slot] = await freeSlotsOf(
      reader,
      parsed.doctorId,
      parsed.startsAt,
      new Date(parsed.startsAt.getTime() + minuteMs),
    );
    return slot === undefined || slot.startsAt.getTime() !== parsed.startsAt.getTime()
      ? null
      : { resource: presentSlot(parsed.doctorId, slot), patient: null };
  },
  async search(reader, _limit, { params, count, offset }) {
    const schedule = single(params, 'schedule');
    const doctorId = schedule === null ? null : referenceId(schedule, 'Schedule', 'schedule');
    const statuses = anyOf(params, 'status')?.map((value) => tokenCode(value, null) ?? '') ?? null;
    for (const status of statuses ?? []) {
      if (!slotStatuses.has(status)) {
        throw badParam('status', `Unknown slot status ${status}.`);
      }
    }
    const { from, to } = slotWindow(dateBounds(params, 'start'), reader.ctx.now());
    if (statuses !== null && !statuses.includes('free')) {
      return emptyResult;
    }
    let slots: { doctorId: string; slot: FreeSlot }[];
    if (doctorId !== null) {
      slots = (await freeSlotsOf(reader, doctorId, from, to)).map((slot) => ({ doctorId, slot }));
    } else {
      // Every doctor's free times in the window, soonest first (the window bounds the work).
      const { rows } = await searchScheduleRows(reader.ctx.db, {
        doctorIds: null,
        active: true,
        limit: maxDoctors,
        offset: 0,
      });
      const { minimumNoticeMinutes } = await loadBookingRules(reader.ctx.db);
      const byDoctor = await findFreeSlotsOfMany(
        reader.ctx.db,
        rows.map((row) => ({
          userId: row.doctorId,
          name: row.doctorName,
          timeZone: row.timeZone,
          status: row.status,
          visitMinutes: row.visitMinutes,
          acceptsNewPatients: row.acceptsNewPatients,
        })),
        { from, to, now: reader.ctx.now(), limit: maxSlotsPerDoctor, minimumNoticeMinutes },
      );
      slots = [...byDoctor].flatMap(([id, free]) => free.map((slot) => ({ doctorId: id, slot })));
      slots.sort(
        (a, b) => a.slot.startsAt.getTime() - b.slot.startsAt.getTime() || (a.doctorId < b.doctorId ? -1 : 1),
      );
    }
    return {
      resources: slots.slice(offset, offset + count).map((entry) => presentSlot(entry.doctorId, entry.slot)),
      total: slots.length,
      patients: [],
    };
  },
};

// ---------------------------------------------------------------- PractitionerRole

const hex = (uuid: string) => uuid.replaceAll('-', '');
const unhex = (value: string) =>
  `${value.slice(0, 8)}-${value.slice(8, 12)}-${value.slice(12, 16)}-${value.slice(16, 20)}-${value.slice(20)}`;

/** A doctor's role in a specialty: both ids without dashes (64 characters); without a specialty, the doctor id. */
export function practitionerRoleId(doctorId: string, specialtyId: string | null): string {
  return specialtyId === null ? doctorId : `${hex(doctorId)}${hex(specialtyId)}`;
}

function parseRoleId(id: string): { doctorId: string; specialtyId: string } | null {
  if (isUuid(id)) {
    return { doctorId: id, specialtyId: 'none' };
  }
  if (!/^[0-9a-f]{64}$/.test(id)) {
    return null;
  }
  const doctorId = unhex(id.slice(0, 32));
  const specialtyId = unhex(id.slice(32));
  return isUuid(doctorId) && isUuid(specialtyId) ? { doctorId, specialtyId } : null;
}

const weekdayCodes = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;

async function presentRoles(
  reader: FhirReader,
  rows: readonly PractitionerRoleRow[],
): Promise<PractitionerRole[]> {
  if (rows.length === 0) {
    return [];
  }
  const origin = reader.ctx.config.publicOrigin;
  const viewer = await loadActorUser(reader.ctx);
  const hoursByDoctor = new Map<string, PractitionerRole['availableTime']>();
  const roles: PractitionerRole[] = [];
  for (const row of rows) {
    if (!hoursByDoctor.has(row.doctorId)) {
      const doctor = await findDoctorScheduleInfo(reader.ctx.db, row.doctorId);
      const today = localDateOf(reader.ctx.now(), doctor?.timeZone ?? 'UTC');
      const hours = await listWeeklyHours(reader.ctx.db, row.doctorId, today);
      // The same hours on several days are one availableTime (wall-clock times in the doctor's zone).
      const byTimes = new Map<string, (typeof weekdayCodes)[number][]>();
      for (const entry of hours) {
        const key = `${entry.startTime.slice(0, 8)}|${entry.endTime.slice(0, 8)}`;
        byTimes.set(key, [...(byTimes.get(key) ?? []), weekdayCodes[entry.weekday - 1]!]);
      }
      hoursByDoctor.set(
        row.doctorId,
        [...byTimes].map(([key, days]) => {
          const [start, end] = key.split('|') as [string, string];
          return {
            daysOfWeek: [...new Set(days)],
            availableStartTime: start.length === 5 ? `${start}:00` : start,
            availableEndTime: end === '24:00:00' ? '23:59:59' : end.length === 5 ? `${end}:00` : end,
          };
        }),
      );
    }
    const specialtyName = viewer.language === 'en' ? row.specialtyEn : row.specialtyEs;
    const availableTime = hoursByDoctor.get(row.doctorId) ?? [];
    roles.push({
      resourceType: 'PractitionerRole',
      id: practitionerRoleId(row.doctorId, row.specialtyId),
      active: row.status === 'active',
      practitioner: ref('Practitioner', row.doctorId, row.doctorName),
      organization: ref('Organization', organizationId),
      code: [
        {
          coding: [
            {
              system: 'http://terminology.hl7.org/CodeSystem/practitioner-role',
              code: 'doctor',
              display: 'Doctor',
            },
          ],
        },
      ],
      ...(row.specialtyId === null
        ? {}
        : {
            specialty: [
              {
                coding: [
                  {
                    system: `${origin}/fhir/CodeSystem/specialty`,
                    code: row.specialtyId,
                    ...(specialtyName === null ? {} : { display: specialtyName }),
                  },
                ],
                ...(specialtyName === null ? {} : { text: specialtyName }),
              },
            ],
          }),
      telecom: [{ system: 'url', value: `${origin}/portal/doctors/${row.doctorId}` }],
      ...(availableTime.length === 0 ? {} : { availableTime }),
      availabilityExceptions:
        "Video visits. Hours are in the doctor's own time zone; the free times are the Slots of Schedule/" +
        row.doctorId +
        '.',
    });
  }
  return roles;
}

export const practitionerRoleHandler: ResourceHandler = {
  type: 'PractitionerRole',
  documentation:
    "A doctor in one of their specialties, with the weekly hours of their video visits and their page to book from (the doctor's languages are on the Practitioner).",
  searchParams: [
    { name: 'practitioner', type: 'reference', documentation: 'The doctor (Practitioner/<id>).' },
    { name: 'specialty', type: 'token', documentation: '<origin>/fhir/CodeSystem/specialty|<specialty id>.' },
  ],
  async read(reader, _limit, id) {
    const parsed = parseRoleId(id);
    if (parsed === null) {
      return null;
    }
    const { rows } = await searchPractitionerRoleRows(reader.ctx.db, { ...parsed, limit: 1, offset: 0 });
    const [role] = await presentRoles(reader, rows);
    return role === undefined ? null : { resource: role, patient: null };
  },
  async search(reader, _limit, { params, count, offset }) {
    const practitioner = single(params, 'practitioner');
    const specialty = single(params, 'specialty');
    let specialtyId: string | null = null;
    if (specialty !== null) {
      specialtyId = tokenCode(specialty, `${reader.ctx.config.publicOrigin}/fhir/CodeSystem/specialty`);
      if (specialtyId === null || !isUuid(specialtyId)) {
        return emptyResult;
      }
    }
    const { rows, total } = await searchPractitionerRoleRows(reader.ctx.db, {
      doctorId: practitioner === null ? null : referenceId(practitioner, 'Practitioner', 'practitioner'),
      specialtyId,
      limit: count,
      offset,
    });
    return { resources: await presentRoles(reader, rows), total, patients: [] };
  },
};
