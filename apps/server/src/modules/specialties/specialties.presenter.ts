import type { Specialty } from '@telemedicina/shared/admin';
import type { SpecialtyWithCount } from './specialties.repository.js';

export function presentSpecialty(specialty: SpecialtyWithCount): Specialty {
  return {
    id: specialty.id,
    name: { es: specialty.nameEs, en: specialty.nameEn },
    active: specialty.active,
    doctorCount: specialty.doctorCount,
    createdAt: specialty.createdAt.toISOString(),
  };
}
