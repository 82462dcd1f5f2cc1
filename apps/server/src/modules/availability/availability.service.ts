import type { ValidationIssue } from '@telemedicina/shared/api';
import {
  maxSlotWindowDays,
  minutesOfWallTime,
  type AvailabilityExceptionListQuery,
  type CreateAvailabilityExceptionRequest,
  type ReplaceAvailabilityRulesRequest,
  type SlotsQuery,
} from '@telemedicina/shared/booking';
import type { Database } from '../../db/client.js';
import { appError, validationError } from '../../lib/app-error.js';
import { type ServiceContext, requireActor } from '../context.js';
import { loadActorUser } from '../identity/actor.js';
import { loadBookingRules } from '../settings/settings.service.js';
import { isUuid } from '../../lib/uuid.js';
import { canManageAvailabilityOf } from './availability.policy.js';
import {
  deleteAvailabilityException as deleteExceptionRow,
  findBusyIntervals,
  findDoctorScheduleInfo,
  insertAvailabilityException,
  listAvailabilityExceptions as listExceptionRows,
  listAvailabilityRules,
  listAvailabilityRulesOfMany,
  listAvailabilityExceptionsOfMany,
  findBusyIntervalsOfMany,
  replaceAvailabilityRules as replaceRuleRows,
  type AvailabilityExceptionRow,
  type AvailabilityRuleRow,
  type DoctorScheduleInfo,
} from './availability.repository.js';
import { generateSlots, type SlotGenerationInput, type WeeklyRule } from './slots.js';

const minuteMs = 60_000;
const dayMs = 24 * 60 * minuteMs;

/** One free slot of a doctor: [startsAt, endsAt), instants. */
export interface FreeSlot {
  startsAt: Date;
  endsAt: Date;
}

export interface FreeSlotQuery {
  doctorId: string;
  /** Slots start at or after `from` and before `to`. */
  from: Date;
  to: Date;
  now: Date;
  /** At most this many, earliest first. */
  limit?: number;
  /** Defaults to the clinic's `booking.minimumNoticeMinutes` (read fresh). */
  minimumNoticeMinutes?: number;
  /** Leave this appointment's time out of the busy intervals (rescheduling it). */
  exceptAppointmentId?: string | null;
  /** Skip the busy intervals (the slot grid alone, to tell "not a slot" from "taken"). */
  ignoreBusy?: boolean;
}

function toWeeklyRule(rule: AvailabilityRuleRow): WeeklyRule {
  return {
    weekday: rule.weekday,
    startMinute: minutesOfWallTime(rule.startTime.slice(0, 5)),
    endMinute: minutesOfWallTime(rule.endTime.slice(0, 5)),
    timeZone: rule.timeZone,
    validFrom: rule.validFrom,
    validUntil: rule.validUntil,
  };
}

/**
 * STABLE API for other modules (the doctor directory's "next available
 * slots", booking, rescheduling): the doctor's free slots starting in
 * [from, to), earliest first — weekly rules in their zone, exceptions, live
 * appointments, the doctor's visit length and the clinic's minimum notice
 * from `now`. A user without a doctor profile, or whose account is not
 * active, has none. Reads only; no authorization (callers check access).
 * Keep the signature: `findFreeSlots(db, { doctorId, from, to, now, limit? })`.
 */
export async function findFreeSlots(db: Database, query: FreeSlotQuery): Promise<FreeSlot[]> {
  const doctor = await findDoctorScheduleInfo(db, query.doctorId);
  if (doctor === null) {
    return [];
  }
  return findFreeSlotsOf(db, doctor, query);
}

/**
 * {@link findFreeSlots} for a doctor already loaded (the directory passes its
 * rows and the minimum notice it read once). STABLE as well.
 */
export async function findFreeSlotsOf(
  db: Database,
  doctor: DoctorScheduleInfo,
  query: Omit<FreeSlotQuery, 'doctorId'>,
): Promise<FreeSlot[]> {
  if (doctor.status !== 'active' || query.to <= query.from) {
    return [];
  }
  const inputs = await loadSlotInputs(db, doctor, query);
  return generateSlots({
    ...inputs,
    busy: query.ignoreBusy === true ? [] : inputs.busy,
    ...(query.limit === undefined ? {} : { limit: query.limit }),
  }).map((slot) => ({ startsAt: slot.start, endsAt: slot.end }));
}

/**
 * The free slots of several doctors in [from, to) (up to `limit` each) — the directory's "next free
 * times". The same slots as {@link findFreeSlotsOf} for each doctor, but the rules, the exceptions
 * and the live appointments of all of them are read in one query each: a page of doctors costs
 * three queries, not three per doctor.
 */
export async function findFreeSlotsOfMany(
  db: Database,
  doctors: readonly DoctorScheduleInfo[],
  query: { from: Date; to: Date; now: Date; limit: number; minimumNoticeMinutes: number },
): Promise<Map<string, FreeSlot[]>> {
  const result = new Map<string, FreeSlot[]>();
  const active = doctors.filter((doctor) => doctor.status === 'active' && query.to > query.from);
  for (const doctor of doctors) {
    result.set(doctor.userId, []);
  }
  if (active.length === 0) {
    return result;
  }
  const ids = active.map((doctor) => doctor.userId);
  // A slot starting just before `to` ends up to one visit later (the longest visit of the page).
  const reachOf = (doctor: DoctorScheduleInfo) =>
    new Date(query.to.getTime() + doctor.visitMinutes * minuteMs);
  const reach = new Date(Math.max(...active.map((doctor) => reachOf(doctor).getTime())));
  const [rules, exceptions, busy] = await Promise.all([
    listAvailabilityRulesOfMany(db, ids),
    listAvailabilityExceptionsOfMany(db, ids, new Date(query.from.getTime() - dayMs), reach),
    findBusyIntervalsOfMany(db, ids, query.from, reach),
  ]);
  const notBefore = new Date(query.now.getTime() + query.minimumNoticeMinutes * minuteMs);
  for (const doctor of active) {
    const doctorReach = reachOf(doctor);
    const slots = generateSlots({
      rules: rules.filter((rule) => rule.doctorUserId === doctor.userId).map(toWeeklyRule),
      exceptions: exceptions
        .filter((exception) => exception.doctorUserId === doctor.userId && exception.startsAt < doctorReach)
        .map((exception) => ({ kind: exception.kind, start: exception.startsAt, end: exception.endsAt })),
      busy: busy
        .filter((interval) => interval.doctorUserId === doctor.userId && interval.start < doctorReach)
        .map(({ start, end }) => ({ start, end })),
      slotMinutes: doctor.visitMinutes,
      from: query.from,
      to: query.to,
      notBefore,
      limit: query.limit,
    });
    result.set(
      doctor.userId,
      slots.map((slot) => ({ startsAt: slot.start, endsAt: slot.end })),
    );
  }
  return result;
}

/** Rules, exceptions, busy intervals and notice for slots starting in [from, to), read together. */
async function loadSlotInputs(
  db: Database,
  doctor: DoctorScheduleInfo,
  query: Omit<FreeSlotQuery, 'doctorId' | 'limit'>,
): Promise<SlotGenerationInput> {
  // A slot starting just before `to` ends up to one visit later.
  const reach = new Date(query.to.getTime() + doctor.visitMinutes * minuteMs);
  const [rules, exceptions, busy, notice] = await Promise.all([
    listAvailabilityRules(db, doctor.userId),
    listExceptionRows(db, doctor.userId, new Date(query.from.getTime() - dayMs), reach),
    query.ignoreBusy === true
      ? Promise.resolve([])
      : findBusyIntervals(db, doctor.userId, query.from, reach, query.exceptAppointmentId ?? null),
    query.minimumNoticeMinutes === undefined
      ? loadBookingRules(db).then((rules) => rules.minimumNoticeMinutes)
      : Promise.resolve(query.minimumNoticeMinutes),
  ]);
  return {
    rules: rules.map(toWeeklyRule),
    exceptions: exceptions.map((exception) => ({
      kind: exception.kind,
      start: exception.startsAt,
      end: exception.endsAt,
    })),
    busy,
    slotMinutes: doctor.visitMinutes,
    from: query.from,
    to: query.to,
    notBefore: new Date(query.now.getTime() + notice * minuteMs),
  };
}

/**
 * Whether `startsAt` is one of the doctor's slots and free: `notSlot` when
 * the rules, exceptions or minimum notice give no slot starting then,
 * `taken` when a live appointment (other than `exceptAppointmentId`) holds
 * it, else `free` with the slot's end. One round of reads for booking and
 * rescheduling; only a pre-check, the exclusion constraint decides races.
 */
export async function classifySlot(
  db: Database,
  doctor: DoctorScheduleInfo,
  startsAt: Date,
  options: { now: Date; exceptAppointmentId: string | null },
): Promise<{ kind: 'notSlot' } | { kind: 'taken' | 'free'; endsAt: Date }> {
  if (doctor.status !== 'active') {
    return { kind: 'notSlot' };
  }
  const inputs = await loadSlotInputs(db, doctor, {
    from: startsAt,
    to: new Date(startsAt.getTime() + 1),
    now: options.now,
    exceptAppointmentId: options.exceptAppointmentId,
  });
  const [slot] = generateSlots({ ...inputs, busy: [], limit: 1 });
  if (slot === undefined || slot.start.getTime() !== startsAt.getTime()) {
    return { kind: 'notSlot' };
  }
  const [free] = generateSlots({ ...inputs, limit: 1 });
  return { kind: free === undefined ? 'taken' : 'free', endsAt: slot.end };
}

// ---------------------------------------------------------------- access

/** The doctor, or 404 when the id is not a doctor's. */
export async function findDoctorOr404(ctx: ServiceContext, id: string): Promise<DoctorScheduleInfo> {
  const doctor = isUuid(id) ? await findDoctorScheduleInfo(ctx.db, id) : null;
  if (doctor === null) {
    throw appError('NOT_FOUND', 'No such doctor.');
  }
  return doctor;
}

/** The doctor whose availability the actor may manage: 404 when not a doctor, 403 when not theirs. */
async function findManageableDoctor(ctx: ServiceContext, id: string): Promise<DoctorScheduleInfo> {
  const actor = requireActor(ctx);
  const doctor = await findDoctorOr404(ctx, id);
  if (!canManageAvailabilityOf(actor, doctor.userId)) {
    throw appError('FORBIDDEN', "You cannot change this doctor's availability.");
  }
  return doctor;
}

// ---------------------------------------------------------------- weekly rules

export interface AvailabilityRulesView {
  doctor: DoctorScheduleInfo;
  rules: AvailabilityRuleRow[];
}

export async function getAvailabilityRules(
  ctx: ServiceContext,
  doctorId: string,
): Promise<AvailabilityRulesView> {
  const doctor = await findManageableDoctor(ctx, doctorId);
  return { doctor, rules: await listAvailabilityRules(ctx.db, doctor.userId) };
}

/** Whether two validity periods (inclusive dates, null = open) share a day. */
function periodsMeet(
  a: { validFrom?: string | null | undefined; validUntil?: string | null | undefined },
  b: { validFrom?: string | null | undefined; validUntil?: string | null | undefined },
): boolean {
  const startsBeforeEnd = (x: typeof a, y: typeof b): boolean =>
    x.validFrom === null ||
    x.validFrom === undefined ||
    y.validUntil === null ||
    y.validUntil === undefined ||
    x.validFrom <= y.validUntil;
  return startsBeforeEnd(a, b) && startsBeforeEnd(b, a);
}

/**
 * Replaces the doctor's weekly rules, saved in the doctor's current zone.
 * Two ranges of one weekday that overlap in time while their validity
 * periods meet answer 400 (`rules.<i>.start`, `validation.rulesOverlap`).
 */
export async function replaceAvailabilityRules(
  ctx: ServiceContext,
  doctorId: string,
  request: ReplaceAvailabilityRulesRequest,
): Promise<AvailabilityRulesView> {
  const doctor = await findManageableDoctor(ctx, doctorId);
  const issues: ValidationIssue[] = [];
  request.rules.forEach((rule, index) => {
    const clash = request.rules.some(
      (other, otherIndex) =>
        otherIndex !== index &&
        other.weekday === rule.weekday &&
        minutesOfWallTime(other.start) < minutesOfWallTime(rule.end) &&
        minutesOfWallTime(rule.start) < minutesOfWallTime(other.end) &&
        periodsMeet(rule, other),
    );
    if (clash) {
      issues.push({
        location: 'body',
        path: `rules.${index}.start`,
        code: 'custom',
        message: 'validation.rulesOverlap',
      });
    }
  });
  if (issues.length > 0) {
    throw validationError(issues);
  }
  const now = ctx.now();
  await ctx.db.transaction(async (tx) => {
    await replaceRuleRows(
      tx,
      doctor.userId,
      request.rules.map((rule) => ({
        weekday: rule.weekday,
        startTime: rule.start,
        endTime: rule.end === '24:00' ? '24:00:00' : rule.end,
        timeZone: doctor.timeZone,
        validFrom: rule.validFrom ?? null,
        validUntil: rule.validUntil ?? null,
        createdAt: now,
      })),
    );
  });
  await ctx.audit({
    action: 'availability.rules_replaced',
    targetType: 'doctor',
    targetId: doctor.userId,
    details: { ruleCount: request.rules.length, timeZone: doctor.timeZone },
  });
  return { doctor, rules: await listAvailabilityRules(ctx.db, doctor.userId) };
}

// ---------------------------------------------------------------- exceptions

export async function listAvailabilityExceptions(
  ctx: ServiceContext,
  doctorId: string,
  query: AvailabilityExceptionListQuery,
): Promise<AvailabilityExceptionRow[]> {
  const doctor = await findManageableDoctor(ctx, doctorId);
  return listExceptionRows(
    ctx.db,
    doctor.userId,
    query.from === undefined ? null : new Date(query.from),
    query.to === undefined ? null : new Date(query.to),
  );
}

/** Adds time off or extra hours. Existing appointments stay; time off only removes free slots. */
export async function createAvailabilityException(
  ctx: ServiceContext,
  doctorId: string,
  request: CreateAvailabilityExceptionRequest,
): Promise<AvailabilityExceptionRow> {
  const doctor = await findManageableDoctor(ctx, doctorId);
  const created = await insertAvailabilityException(ctx.db, {
    doctorUserId: doctor.userId,
    kind: request.kind,
    startsAt: new Date(request.startsAt),
    endsAt: new Date(request.endsAt),
    reason: request.reason ?? null,
    createdAt: ctx.now(),
  });
  await ctx.audit({
    action: 'availability.exception_created',
    targetType: 'doctor',
    targetId: doctor.userId,
    details: {
      exceptionId: created.id,
      kind: created.kind,
      startsAt: created.startsAt.toISOString(),
      endsAt: created.endsAt.toISOString(),
    },
  });
  return created;
}

export async function deleteAvailabilityException(
  ctx: ServiceContext,
  doctorId: string,
  exceptionId: string,
): Promise<void> {
  const doctor = await findManageableDoctor(ctx, doctorId);
  const deleted = isUuid(exceptionId) ? await deleteExceptionRow(ctx.db, doctor.userId, exceptionId) : null;
  if (deleted === null) {
    throw appError('NOT_FOUND', 'No such exception.');
  }
  await ctx.audit({
    action: 'availability.exception_deleted',
    targetType: 'doctor',
    targetId: doctor.userId,
    details: {
      exceptionId: deleted.id,
      kind: deleted.kind,
      startsAt: deleted.startsAt.toISOString(),
      endsAt: deleted.endsAt.toISOString(),
    },
  });
}

// ---------------------------------------------------------------- slots

export interface SlotListView {
  doctor: DoctorScheduleInfo;
  viewerTimeZone: string;
  slots: FreeSlot[];
}

/**
 * `GET /doctors/:id/slots`: free slots in [from, to) (at most
 * {@link maxSlotWindowDays} days) for anyone signed in; `tz` (else the
 * viewer's profile zone) only labels them.
 */
export async function listDoctorSlots(
  ctx: ServiceContext,
  doctorId: string,
  query: SlotsQuery,
): Promise<SlotListView> {
  requireActor(ctx);
  const from = new Date(query.from);
  const to = new Date(query.to);
  if (to <= from || to.getTime() - from.getTime() > maxSlotWindowDays * dayMs) {
    throw validationError([
      { location: 'querystring', path: 'to', code: 'custom', message: 'validation.dateRange' },
    ]);
  }
  const doctor = await findDoctorOr404(ctx, doctorId);
  const viewerTimeZone = query.tz ?? (await loadActorUser(ctx)).timeZone;
  const slots = await findFreeSlotsOf(ctx.db, doctor, { from, to, now: ctx.now() });
  return { doctor, viewerTimeZone, slots };
}
