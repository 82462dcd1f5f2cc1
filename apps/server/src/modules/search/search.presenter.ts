import type { GlobalSearchResponse } from '@telemedicina/shared/search';
import type { GlobalSearchResult } from './search.service.js';

export function presentGlobalSearch(result: GlobalSearchResult): GlobalSearchResponse {
  return {
    ...(result.users === undefined
      ? {}
      : {
          users: result.users.map((user) => ({
            id: user.id,
            name: user.name,
            email: user.email,
            roles: user.roles.map((role) => ({
              id: role.id,
              key: role.key,
              name: { es: role.nameEs, en: role.nameEn },
            })),
          })),
        }),
    ...(result.patients === undefined
      ? {}
      : {
          patients: result.patients.map((patient) => ({
            id: patient.id,
            name: patient.name,
            email: patient.email,
          })),
        }),
    ...(result.appointments === undefined
      ? {}
      : {
          appointments: result.appointments.map((appointment) => ({
            id: appointment.id,
            startsAt: appointment.startsAt.toISOString(),
            status: appointment.status,
            doctorName: appointment.doctorName,
            patientName: appointment.patientName,
          })),
        }),
  };
}
