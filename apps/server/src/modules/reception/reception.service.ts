import { liveAppointmentStatuses, minutesOfWallTime } from '@telemedicina/shared/booking';
import type {
  ClinicDay,
  ClinicDayQuery,
  PatientLookupQuery,
  PatientLookupResult,
  PatientMatch,
  RegisterPatientRequest,
} from '@telemedicina/shared/reception';
import { appError } from '../../lib/app-error.js';
import { findActiveSpecialtiesOf } from '../doctors/doctors.repository.js';
import type { InvitationPayload } from '../identity/invitations.service.js';
import { issueAuthToken } from '../identity/auth-tokens.service.js';
import { retireTokens } from '../identity/auth-tokens.repository.js';
import { appLink, sendEmail } from '../email/email.service.js';
import { linkLifetimeHours } from '../email/templates.js';
import { type ServiceContext, requireActor } from '../context.js';
import { loadActorUser } from '../identity/actor.js';
import { loadBookingRules, loadIdentitySettings } from '../settings/settings.service.js';
import { findRolesByKeys, insertUserIfEmailFree, replaceUserRoles } from '../identity/users.repository.js';
import { generateSlots, localDateOf, zonedInstant } from '../availability/slots.js';
import { canLookUpPatients, canRegisterPatients, clinicDayScopeOf } from './reception.policy.js';
import { presentClinicDay, presentPatientMatch } from './reception.presenter.js';
import {
  findPatients,
  listAppointmentsOf,
  listDayDoctors,
  listExceptionsOf,
  listRulesOf,
  type PatientLookupTerms,
} from './reception.repository.js';

const minuteMs = 60_000;
const dayMs = 24 * 60 * minuteMs;
const liveStatuses: ReadonlySet<string> = new Set(liveAppointmentStatuses);

/** The calendar date after `date` (`YYYY-MM-DD`). */
function nextDate(date: string): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + dayMs).toISOString().slice(0, 10);
}

/**
 * `GET /clinic-day`: every active doctor's appointments (any status, so reception sees who did
 * not come and what was cancelled) and free slots on one day of the reader's account zone. A
 * doctor reads only their own column. A fixed handful of queries whatever the number of doctors
 * (doctors, specialties, rules, exceptions, appointments, booking rules); the free slots are
 * generated in memory by the same pure generator as booking's.
 */
export async function readClinicDay(ctx: ServiceContext, query: ClinicDayQuery): Promise<ClinicDay> {
  const actor = requireActor(ctx);
  const scope = clinicDayScopeOf(actor);
  if (scope === null) {
    throw appError('FORBIDDEN', 'You cannot read the clinic day.');
  }
  const reader = await loadActorUser(ctx);
  const now = ctx.now();
  const date = query.date ?? localDateOf(now, reader.timeZone);
  const from = zonedInstant(date, 0, reader.timeZone);
  const to = zonedInstant(nextDate(date), 0, reader.timeZone);
  const db = ctx.db;
  const doctors = await listDayDoctors(db, scope === 'own' ? actor.userId : null);
  const ids = doctors.map((doctor) => doctor.userId);
  if (ids.length === 0) {
    return presentClinicDay({ date, timeZone: reader.timeZone, from, to, doctors: [] }, reader.language);
  }
  const longestVisit = Math.max(...doctors.map((doctor) => doctor.visitMinutes));
  // A slot starting just before `to` ends up to one visit later.
  const reach = new Date(to.getTime() + longestVisit * minuteMs);
  const [specialties, rules, exceptions, dayAppointments, bookingRules] = await Promise.all([
    findActiveSpecialtiesOf(db, ids),
    listRulesOf(db, ids),
    listExceptionsOf(db, ids, new Date(from.getTime() - dayMs), reach),
    listAppointmentsOf(db, ids, from, reach),
    loadBookingRules(db),
  ]);
  const notBefore = new Date(now.getTime() + bookingRules.minimumNoticeMinutes * minuteMs);
  return presentClinicDay(
    {
      date,
      timeZone: reader.timeZone,
      from,
      to,
      doctors: doctors.map((doctor) => {
        const own = dayAppointments.filter((row) => row.doctorUserId === doctor.userId);
        const slots = generateSlots({
          rules: rules
            .filter((rule) => rule.doctorUserId === doctor.userId)
            .map((rule) => ({
              weekday: rule.weekday,
              startMinute: minutesOfWallTime(rule.startTime.slice(0, 5)),
              endMinute: minutesOfWallTime(rule.endTime.slice(0, 5)),
              timeZone: rule.timeZone,
              validFrom: rule.validFrom,
              validUntil: rule.validUntil,
            })),
          exceptions: exceptions
            .filter((exception) => exception.doctorUserId === doctor.userId)
            .map((exception) => ({ kind: exception.kind, start: exception.startsAt, end: exception.endsAt })),
          busy: own
            .filter((row) => liveStatuses.has(row.status))
            .map((row) => ({ start: row.startsAt, end: row.endsAt })),
          slotMinutes: doctor.visitMinutes,
          from,
          to,
          notBefore,
        });
        return {
          doctor,
          specialties: specialties.get(doctor.userId) ?? [],
          appointments: own.filter((row) => row.startsAt < to),
          freeSlots: slots.map((slot) => ({ startsAt: slot.start, endsAt: slot.end })),
        };
      }),
    },
    reader.language,
  );
}

/** How many patients one lookup answers: a receptionist refines rather than pages. */
const lookupLimit = 20;

/**
 * Reads what a receptionist typed as every kind of term it can be: text for names and emails,
 * the digits of a phone number, a date of birth written `YYYY-MM-DD` or `DD/MM/YYYY`.
 */
export function lookupTermsOf(q: string): PatientLookupTerms {
  const text = q.trim();
  const digits = text.replace(/\D/g, '');
  const isPhoneLike = /^[+\d\s().-]+$/u.test(text) && digits.length >= 4;
  let dateOfBirth: string | null = null;
  const iso = /^(\d{4})-(\d{2})-(\d{2})$/u.exec(text);
  const european = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})$/u.exec(text);
  if (iso !== null) {
    dateOfBirth = text;
  } else if (european !== null) {
    const [, day = '', month = '', year = ''] = european;
    dateOfBirth = `${year}-${month.padStart(2, '0')}-${day.padStart(2, '0')}`;
  }
  // Only a date that exists (no 31 February): PostgreSQL would refuse the comparison.
  if (dateOfBirth !== null && !isCalendarDate(dateOfBirth)) {
    dateOfBirth = null;
  }
  return { text, phoneDigits: isPhoneLike && dateOfBirth === null ? digits : null, dateOfBirth };
}

function isCalendarDate(value: string): boolean {
  const instant = Date.parse(`${value}T00:00:00Z`);
  return !Number.isNaN(instant) && new Date(instant).toISOString().slice(0, 10) === value;
}

/** `GET /patients/lookup?q=`: patients by name, email, phone or date of birth (audited as a list view). */
export async function lookUpPatients(
  ctx: ServiceContext,
  query: PatientLookupQuery,
): Promise<PatientLookupResult> {
  const actor = requireActor(ctx);
  if (!canLookUpPatients(actor)) {
    throw appError('FORBIDDEN', 'You cannot look up patients.');
  }
  const rows = await findPatients(ctx.db, lookupTermsOf(query.q), lookupLimit);
  await ctx.audit({
    action: 'patient.list_viewed',
    targetType: 'patient',
    details: { scope: 'lookup', q: query.q, count: rows.length },
  });
  return { data: rows.map(presentPatientMatch) };
}

/**
 * `POST /patients`: reception registers a patient who calls or walks in. The account is created
 * at once (pending, no password, the patient role), so they can be booked straight away; the
 * invitation email carries a link to the existing invitation page, where the patient sets their
 * own password (`acceptInvitation` completes the account instead of creating one). An email that
 * already has an account answers 409 CONFLICT with `details.field = 'email'`.
 */
export async function registerPatient(
  ctx: ServiceContext,
  input: RegisterPatientRequest,
): Promise<PatientMatch> {
  const actor = requireActor(ctx);
  if (!canRegisterPatients(actor)) {
    throw appError('FORBIDDEN', 'You cannot register patients.');
  }
  const registrar = await loadActorUser(ctx);
  const timeZone = input.timeZone ?? (await loadIdentitySettings(ctx.db, ctx.config)).clinicTimeZone;
  const now = ctx.now();
  const created = await ctx.db.transaction(async (tx) => {
    const user = await insertUserIfEmailFree(tx, {
      email: input.email,
      name: input.name,
      phone: input.phone,
      dateOfBirth: input.dateOfBirth,
      language: input.language,
      timeZone,
      passwordHash: null,
      status: 'pending',
      createdAt: now,
      updatedAt: now,
    });
    if (user === null) {
      return null;
    }
    const patientRoles = await findRolesByKeys(tx, ['patient']);
    await replaceUserRoles(
      tx,
      user.id,
      patientRoles.map((role) => role.id),
      now,
    );
    const payload: InvitationPayload = {
      email: user.email,
      name: user.name,
      roleKeys: ['patient'],
      language: input.language,
      userId: user.id,
    };
    await retireTokens(tx, 'invitation', { email: user.email }, now);
    const invitation = await issueAuthToken(
      ctx,
      tx,
      'invitation',
      { userId: null, email: user.email },
      linkLifetimeHours.invitation,
      payload,
    );
    return { user, invitation, roleNames: patientRoles };
  });
  if (created === null) {
    throw appError('CONFLICT', 'This email already has an account.', { field: 'email' });
  }
  const { user, invitation, roleNames } = created;
  await ctx.audit({
    action: 'user.created',
    targetType: 'user',
    targetId: user.id,
    details: { roleKeys: ['patient'], registeredBy: 'reception' },
  });
  await ctx.audit({
    action: 'user.invited',
    targetType: 'invitation',
    targetId: invitation.id,
    details: { email: user.email, roleKeys: ['patient'] },
  });
  await sendEmail(ctx, user.email, input.language, {
    template: 'invitation',
    data: {
      name: user.name,
      link: appLink(ctx, '/accept-invitation', invitation.token),
      inviterName: registrar.name,
      roleNames: roleNames.map((role) => (input.language === 'es' ? role.nameEs : role.nameEn)),
      isPatient: true,
    },
  });
  return presentPatientMatch({ ...user, hasPassword: false });
}
