import type { ValidationIssue } from '@telemedicina/shared/api';
import {
  directorySlotCount,
  directorySlotDays,
  type DoctorDirectoryQuery,
  type UpdateDoctorProfileRequest,
} from '@telemedicina/shared/doctors';
import type { AppError } from '../../lib/app-error.js';
import { appError } from '../../lib/app-error.js';
import { isForeignKeyViolation, isUniqueViolation } from '../../lib/database-errors.js';
import { type ServiceContext, requireActor } from '../context.js';
import { loadClinicSettings } from '../settings/settings.service.js';
import { isUuid } from '../../lib/uuid.js';
import { findNextFreeSlots } from './doctor-slots.js';
import { canChangeLicenseNumber, canEditDoctorProfile, canViewInactiveDoctor } from './doctors.policy.js';
import {
  findActiveSpecialtiesOf,
  findActiveSpecialtyIds,
  findDoctorCandidate,
  findSpecialtyIdsOf,
  insertDoctorProfile,
  listDirectoryDoctors,
  replaceDoctorSpecialties,
  updateDoctorProfile as updateDoctorProfileRow,
  type DoctorCandidate,
  type DoctorProfileValues,
  type DoctorRow,
  type DoctorSpecialtyRow,
} from './doctors.repository.js';

/** A doctor with what the profile shows besides the row: their active specialties. */
export interface DoctorWithSpecialties {
  doctor: DoctorRow;
  specialties: DoctorSpecialtyRow[];
}

export interface DirectoryEntry extends DoctorWithSpecialties {
  nextSlots: Date[];
}

const dayMs = 24 * 60 * 60 * 1000;

/**
 * The doctors directory: active doctors with a profile, searched by name
 * (accents ignored) and filtered by specialty, language and whether they take
 * new patients, each with the start of their next free slots in the coming
 * 14 days. By name, the page is cut in SQL and slots are computed for that
 * page only; by next availability every matching doctor's slots are needed
 * to order them (a clinic has tens to hundreds of doctors), all in one batch.
 */
export async function listDoctorDirectory(
  ctx: ServiceContext,
  query: DoctorDirectoryQuery,
): Promise<{ entries: DirectoryEntry[]; total: number }> {
  requireActor(ctx);
  const filter = {
    q: query.q,
    specialtyId: query.specialtyId,
    language: query.language,
    acceptsNewPatients:
      query.acceptsNewPatients === undefined ? undefined : query.acceptsNewPatients === 'true',
  };
  const page = { page: query.page, pageSize: query.pageSize };
  const byName = query.sort === 'name';
  const { rows, total } = await listDirectoryDoctors(ctx.db, filter, {
    order: byName ? query.order : 'asc',
    page: byName ? page : null,
  });
  const from = ctx.now();
  const until = new Date(from.getTime() + directorySlotDays * dayMs);
  const slots = await findNextFreeSlots(ctx, rows, { from, until, limit: directorySlotCount });
  let entries: DirectoryEntry[] = rows.map((doctor) => ({
    doctor,
    specialties: [],
    nextSlots: slots.get(doctor.id) ?? [],
  }));
  if (!byName) {
    entries = sortByNextAvailable(entries, query.order);
    const start = (query.page - 1) * query.pageSize;
    entries = entries.slice(start, start + query.pageSize);
  }
  const specialties = await findActiveSpecialtiesOf(
    ctx.db,
    entries.map((entry) => entry.doctor.id),
  );
  return {
    entries: entries.map((entry) => ({ ...entry, specialties: specialties.get(entry.doctor.id) ?? [] })),
    total,
  };
}

/** Earliest first slot first (latest with `desc`); doctors with no free slot always last; ties by name order. */
function sortByNextAvailable(entries: DirectoryEntry[], order: 'asc' | 'desc'): DirectoryEntry[] {
  const sign = order === 'asc' ? 1 : -1;
  return entries
    .map((entry, index) => ({ entry, index, first: entry.nextSlots[0]?.getTime() ?? null }))
    .sort((a, b) => {
      if (a.first === null || b.first === null) {
        return a.first === b.first ? a.index - b.index : a.first === null ? 1 : -1;
      }
      return a.first === b.first ? a.index - b.index : sign * (a.first - b.first);
    })
    .map(({ entry }) => entry);
}

const noSuchDoctor = () => appError('NOT_FOUND', 'No such doctor.');

/** A user holding the doctor role (404 otherwise, and for ids that are not UUIDs). */
async function findDoctorOr404(ctx: ServiceContext, id: string): Promise<DoctorCandidate> {
  const candidate = isUuid(id) ? await findDoctorCandidate(ctx.db, id) : null;
  if (candidate === null || !candidate.isDoctor) {
    throw noSuchDoctor();
  }
  return candidate;
}

function rowOf(candidate: DoctorCandidate): DoctorRow | null {
  if (candidate.profile === null) {
    return null;
  }
  const { id, name, photoFileId, timeZone, status } = candidate;
  return { id, name, photoFileId, timeZone, status, ...candidate.profile };
}

/**
 * A doctor's profile. Users who are not doctors, doctors without a profile
 * and (except for administrators) doctors whose account is not active answer 404.
 */
export async function getDoctorProfile(ctx: ServiceContext, id: string): Promise<DoctorWithSpecialties> {
  const actor = requireActor(ctx);
  const candidate = await findDoctorOr404(ctx, id);
  const doctor = rowOf(candidate);
  if (doctor === null || (doctor.status !== 'active' && !canViewInactiveDoctor(actor))) {
    throw noSuchDoctor();
  }
  return withSpecialties(ctx, doctor);
}

async function withSpecialties(ctx: ServiceContext, doctor: DoctorRow): Promise<DoctorWithSpecialties> {
  const specialties = await findActiveSpecialtiesOf(ctx.db, [doctor.id]);
  return { doctor, specialties: specialties.get(doctor.id) ?? [] };
}

function invalid(issues: ValidationIssue[]): AppError {
  return appError('VALIDATION_FAILED', 'The request is not valid.', { issues });
}

function bodyIssue(path: string, code: string, message: string): ValidationIssue {
  return { location: 'body', path, code, message };
}

/** Specialties a doctor can be given: existing and active (400 with one issue per other id). */
async function checkSpecialtyIds(ctx: ServiceContext, ids: readonly string[]): Promise<string[]> {
  const active = await findActiveSpecialtyIds(ctx.db, ids);
  const issues = ids.flatMap((id, index) =>
    active.has(id)
      ? []
      : [bodyIssue(`specialtyIds.${index}`, 'specialty_unavailable', 'validation.specialtyUnavailable')],
  );
  if (issues.length > 0) {
    throw invalid(issues);
  }
  return [...new Set(ids)].sort();
}

/** Line breaks as `\n`, no surrounding blank space. */
function normalizeBio(text: string): string {
  return text.replace(/\r\n?/g, '\n').trim();
}

/**
 * Edits a doctor's profile: the doctor their own (`doctors.profile.own`),
 * administrators anyone's (`doctors.manage`). Only administrators change the
 * license number, and the first administrator edit of a doctor without a
 * profile creates it (license number required; visit length defaults to the
 * clinic's). A new visit length must be one of the clinic's
 * `booking.visitLengths`; new specialties must be active. Profile and
 * specialties change in one transaction; the audit event
 * `doctor.profile_updated` lists the fields that changed (not the texts).
 */
export async function updateDoctorProfile(
  ctx: ServiceContext,
  id: string,
  input: UpdateDoctorProfileRequest,
  options: { mayCreateProfile: boolean } = { mayCreateProfile: true },
): Promise<DoctorWithSpecialties> {
  const actor = requireActor(ctx);
  const candidate = await findDoctorOr404(ctx, id);
  if (!canEditDoctorProfile(actor, candidate.id)) {
    throw appError('FORBIDDEN', "You cannot edit this doctor's profile.");
  }
  const current = candidate.profile;
  if (current === null && (!options.mayCreateProfile || !canChangeLicenseNumber(actor))) {
    throw appError('NOT_FOUND', 'This doctor has no profile yet; an administrator creates it.');
  }
  const licenseNumber = input.licenseNumber;
  if (
    licenseNumber !== undefined &&
    licenseNumber !== current?.licenseNumber &&
    !canChangeLicenseNumber(actor)
  ) {
    throw appError('FORBIDDEN', 'Only an administrator changes the license number.');
  }
  if (current === null && licenseNumber === undefined) {
    throw invalid([bodyIssue('licenseNumber', 'required', 'validation.required')]);
  }
  const settings = (await loadClinicSettings(ctx.db, ctx.config)).settings.booking;
  if (
    input.visitMinutes !== undefined &&
    input.visitMinutes !== current?.visitMinutes &&
    !settings.visitLengths.includes(input.visitMinutes)
  ) {
    throw invalid([bodyIssue('visitMinutes', 'visit_length', 'validation.visitLength')]);
  }
  const specialtyIds =
    input.specialtyIds === undefined ? undefined : await checkSpecialtyIds(ctx, input.specialtyIds);

  const changes: Partial<DoctorProfileValues> = {};
  const set = <K extends keyof DoctorProfileValues>(
    key: K,
    value: DoctorProfileValues[K] | undefined,
  ): void => {
    const before = current?.[key];
    const isSame =
      Array.isArray(value) && Array.isArray(before) ? value.join() === before.join() : value === before;
    if (value !== undefined && !isSame) {
      changes[key] = value;
    }
  };
  set('licenseNumber', licenseNumber);
  set('languages', input.languages);
  set('visitMinutes', input.visitMinutes);
  set('acceptsNewPatients', input.acceptsNewPatients);
  set('bioEs', input.bio?.es === undefined ? undefined : normalizeBio(input.bio.es));
  set('bioEn', input.bio?.en === undefined ? undefined : normalizeBio(input.bio.en));

  const specialtiesBefore = await findSpecialtyIdsOf(ctx.db, candidate.id);
  const specialtiesChanged = specialtyIds !== undefined && specialtyIds.join() !== specialtiesBefore.join();
  const fields: string[] = Object.keys(changes).map((key) =>
    key === 'bioEs' ? 'bio.es' : key === 'bioEn' ? 'bio.en' : key,
  );
  if (specialtiesChanged) {
    fields.push('specialtyIds');
  }
  if (current !== null && fields.length === 0) {
    return getDoctorProfile(ctx, candidate.id);
  }
  const at = ctx.now();
  try {
    await ctx.db.transaction(async (tx) => {
      if (current === null) {
        await insertDoctorProfile(
          tx,
          candidate.id,
          {
            licenseNumber: licenseNumber!,
            languages: changes.languages ?? [],
            visitMinutes: changes.visitMinutes ?? settings.defaultVisitMinutes,
            bioEs: changes.bioEs ?? '',
            bioEn: changes.bioEn ?? '',
            acceptsNewPatients: changes.acceptsNewPatients ?? true,
          },
          at,
        );
      } else if (Object.keys(changes).length > 0) {
        await updateDoctorProfileRow(tx, candidate.id, changes, at);
      }
      if (specialtiesChanged) {
        await replaceDoctorSpecialties(tx, candidate.id, specialtyIds);
      }
    });
  } catch (error) {
    throw translateWriteError(error);
  }
  await ctx.audit({
    action: 'doctor.profile_updated',
    targetType: 'user',
    targetId: candidate.id,
    details: {
      fields,
      ...(current === null ? { created: true } : {}),
      ...(specialtiesChanged ? { specialtyIds: { before: specialtiesBefore, after: specialtyIds } } : {}),
    },
  });
  return getDoctorProfile(ctx, candidate.id);
}

/** A concurrent creation of the same profile, or a specialty deleted meanwhile. */
function translateWriteError(error: unknown): unknown {
  if (isUniqueViolation(error)) {
    return appError('CONFLICT', 'The profile was changed at the same time; try again.');
  }
  if (isForeignKeyViolation(error)) {
    return invalid([bodyIssue('specialtyIds', 'specialty_unavailable', 'validation.specialtyUnavailable')]);
  }
  return error;
}

/**
 * `PUT /doctors/:id/specialties`: the doctor's whole set of specialties, all
 * active ones. A doctor without a profile answers 404 (PATCH creates it).
 */
export async function replaceDoctorSpecialtiesOf(
  ctx: ServiceContext,
  id: string,
  specialtyIds: readonly string[],
): Promise<DoctorWithSpecialties> {
  return updateDoctorProfile(ctx, id, { specialtyIds: [...specialtyIds] }, { mayCreateProfile: false });
}
