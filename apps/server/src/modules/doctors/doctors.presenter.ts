import type { DoctorDirectoryItem, DoctorProfile, DoctorSpecialty } from '@telemedicina/shared/doctors';
import { photoUrlOf } from '../identity/users.presenter.js';
import type { DoctorSpecialtyRow } from './doctors.repository.js';
import type { DirectoryEntry, DoctorWithSpecialties } from './doctors.service.js';

function presentSpecialty(specialty: DoctorSpecialtyRow): DoctorSpecialty {
  return { id: specialty.id, name: { es: specialty.nameEs, en: specialty.nameEn } };
}

export function presentDoctorProfile({ doctor, specialties }: DoctorWithSpecialties): DoctorProfile {
  return {
    id: doctor.id,
    name: doctor.name,
    photoUrl: photoUrlOf(doctor),
    specialties: specialties.map(presentSpecialty),
    licenseNumber: doctor.licenseNumber,
    languages: [...doctor.languages],
    bio: { es: doctor.bioEs, en: doctor.bioEn },
    visitMinutes: doctor.visitMinutes,
    acceptsNewPatients: doctor.acceptsNewPatients,
    timeZone: doctor.timeZone,
  };
}

export function presentDirectoryEntry({
  doctor,
  specialties,
  nextSlots,
}: DirectoryEntry): DoctorDirectoryItem {
  return {
    id: doctor.id,
    name: doctor.name,
    photoUrl: photoUrlOf(doctor),
    specialties: specialties.map(presentSpecialty),
    languages: [...doctor.languages],
    visitMinutes: doctor.visitMinutes,
    acceptsNewPatients: doctor.acceptsNewPatients,
    timeZone: doctor.timeZone,
    nextSlots: nextSlots.map((instant) => instant.toISOString()),
  };
}
