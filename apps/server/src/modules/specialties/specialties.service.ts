import type {
  CreateSpecialtyRequest,
  SpecialtyListQuery,
  UpdateSpecialtyRequest,
} from '@telemedicina/shared/admin';
import type { AppError } from '../../lib/app-error.js';
import { appError } from '../../lib/app-error.js';
import { isForeignKeyViolation, isUniqueViolation } from '../../lib/database-errors.js';
import { languageOf } from '../../lib/language.js';
import { type ServiceContext, requireActor } from '../context.js';
import { loadActorUser } from '../identity/actor.js';
import { isUuid } from '../../lib/uuid.js';
import { canManageSpecialties } from './specialties.policy.js';
import {
  deleteSpecialty as deleteSpecialtyRow,
  findNameConflicts,
  findSpecialty,
  insertSpecialty,
  listSpecialties as listSpecialtyRows,
  updateSpecialty as updateSpecialtyRow,
  type SpecialtyWithCount,
} from './specialties.repository.js';

/**
 * The catalogue of specialties (Spanish and English names, active flag) that
 * doctor profiles and the directory use. Everyone signed in reads it; only
 * `specialties.manage` sees inactive entries and changes it.
 */
export async function listSpecialties(
  ctx: ServiceContext,
  query: SpecialtyListQuery,
): Promise<{ rows: SpecialtyWithCount[]; total: number }> {
  const actor = requireActor(ctx);
  const language = query.language ?? languageOf(await loadActorUser(ctx));
  const active =
    !canManageSpecialties(actor) || query.active === 'true' ? true : query.active === 'false' ? false : null;
  return listSpecialtyRows(ctx.db, query, { q: query.q, active }, language);
}

async function findSpecialtyOr404(ctx: ServiceContext, id: string): Promise<SpecialtyWithCount> {
  const specialty = isUuid(id) ? await findSpecialty(ctx.db, id) : null;
  if (specialty === null) {
    throw appError('NOT_FOUND', 'No such specialty.');
  }
  return specialty;
}

function duplicateName(languages: readonly ('es' | 'en')[]): AppError {
  return appError('ALREADY_EXISTS', 'Another specialty already has this name.', {
    fields: languages.map((language) => `name.${language}`),
  });
}

async function assertNamesFree(
  ctx: ServiceContext,
  name: { es: string; en: string },
  exceptId: string | null,
): Promise<void> {
  const conflicts = await findNameConflicts(ctx.db, name, exceptId);
  if (conflicts.length > 0) {
    throw duplicateName(conflicts);
  }
}

/** Adds a specialty; a name another one has (either language, any case) answers 409 ALREADY_EXISTS. */
export async function createSpecialty(
  ctx: ServiceContext,
  input: CreateSpecialtyRequest,
): Promise<SpecialtyWithCount> {
  await assertNamesFree(ctx, input.name, null);
  let created;
  try {
    created = await insertSpecialty(ctx.db, {
      nameEs: input.name.es,
      nameEn: input.name.en,
      active: input.active,
      createdAt: ctx.now(),
    });
  } catch (error) {
    // A concurrent request took the name between the check and the insert.
    if (isUniqueViolation(error)) {
      throw duplicateName(['es']);
    }
    throw error;
  }
  await ctx.audit({
    action: 'specialty.created',
    targetType: 'specialty',
    targetId: created.id,
    details: { name: input.name, active: input.active },
  });
  return { ...created, doctorCount: 0 };
}

/** Renames a specialty or switches it on or off; the audit event names what changed. */
export async function updateSpecialty(
  ctx: ServiceContext,
  id: string,
  input: UpdateSpecialtyRequest,
): Promise<SpecialtyWithCount> {
  const specialty = await findSpecialtyOr404(ctx, id);
  const changes: { nameEs?: string; nameEn?: string; active?: boolean } = {};
  if (input.name !== undefined && input.name.es !== specialty.nameEs) {
    changes.nameEs = input.name.es;
  }
  if (input.name !== undefined && input.name.en !== specialty.nameEn) {
    changes.nameEn = input.name.en;
  }
  if (input.active !== undefined && input.active !== specialty.active) {
    changes.active = input.active;
  }
  if (Object.keys(changes).length === 0) {
    return specialty;
  }
  if (input.name !== undefined) {
    await assertNamesFree(ctx, input.name, specialty.id);
  }
  try {
    await updateSpecialtyRow(ctx.db, specialty.id, changes);
  } catch (error) {
    if (isUniqueViolation(error)) {
      throw duplicateName(['es']);
    }
    throw error;
  }
  await ctx.audit({
    action: 'specialty.updated',
    targetType: 'specialty',
    targetId: specialty.id,
    details: {
      fields: Object.keys(changes),
      ...(changes.nameEs !== undefined || changes.nameEn !== undefined
        ? { name: { before: { es: specialty.nameEs, en: specialty.nameEn }, after: input.name } }
        : {}),
    },
  });
  return findSpecialtyOr404(ctx, specialty.id);
}

/** Removes a specialty no doctor has (409 SPECIALTY_IN_USE otherwise: deactivate it instead). */
export async function deleteSpecialty(ctx: ServiceContext, id: string): Promise<void> {
  const specialty = await findSpecialtyOr404(ctx, id);
  const inUse = () =>
    appError('SPECIALTY_IN_USE', 'Doctors have this specialty; deactivate it instead.', {
      doctorCount: specialty.doctorCount,
    });
  if (specialty.doctorCount > 0) {
    throw inUse();
  }
  try {
    await deleteSpecialtyRow(ctx.db, specialty.id);
  } catch (error) {
    if (isForeignKeyViolation(error)) {
      throw inUse();
    }
    throw error;
  }
  await ctx.audit({
    action: 'specialty.deleted',
    targetType: 'specialty',
    targetId: specialty.id,
    details: { name: { es: specialty.nameEs, en: specialty.nameEn } },
  });
}
