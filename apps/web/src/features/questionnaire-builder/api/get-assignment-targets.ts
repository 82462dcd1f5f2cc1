import { specialtyPageSchema } from '@telemedicina/shared/admin';
import { doctorDirectoryPageSchema } from '@telemedicina/shared/doctors';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { parseAnswer } from '../../../lib/parse-answer';
import { queryKeys } from '../../../lib/query-keys';

export interface AssignmentTargets {
  specialties: { id: string; name: { es: string; en: string } }[];
  doctors: { id: string; name: string }[];
}

/** `GET /specialties` and `GET /doctors` (first 100 of each, by name): what the clinic assigns to. */
export async function getAssignmentTargets(signal?: AbortSignal): Promise<AssignmentTargets> {
  const query = { page: 1, pageSize: 100, sort: 'name', order: 'asc' };
  const [specialties, doctors] = await Promise.all([
    api.get<unknown>('/specialties', { query: { ...query, active: 'true' }, signal, alertOnError: false }),
    api.get<unknown>('/doctors', { query, signal, alertOnError: false }),
  ]);
  return {
    specialties: parseAnswer(specialtyPageSchema, specialties).data.map(({ id, name }) => ({ id, name })),
    doctors: parseAnswer(doctorDirectoryPageSchema, doctors).data.map(({ id, name }) => ({ id, name })),
  };
}

export const assignmentTargetsQuery = () =>
  queryOptions({
    queryKey: queryKeys.questionnaireBuilder.targets(),
    queryFn: ({ signal }) => getAssignmentTargets(signal),
    retry: false,
    staleTime: 60_000,
  });

/** Only the clinic picks specialties and doctors (a doctor assigns to themselves). */
export function useAssignmentTargets(enabled: boolean) {
  return useQuery({ ...assignmentTargetsQuery(), enabled });
}
