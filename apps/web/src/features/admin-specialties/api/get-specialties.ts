import { specialtyPageSchema, type SpecialtyListQuery, type SpecialtyPage } from '@telemedicina/shared/admin';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { parseAnswer } from '../../../lib/parse-answer';
import { queryKeys } from '../../../lib/query-keys';

/** What the specialties list asks for (the list's URL state, sort by name in one language). */
export type SpecialtiesRequest = Omit<SpecialtyListQuery, 'q'> & { q: string | undefined };

/** `GET /specialties?page&pageSize&q&active&sort&order&language` → one page of the catalogue. */
export async function getSpecialties(
  request: SpecialtiesRequest,
  signal?: AbortSignal,
): Promise<SpecialtyPage> {
  const body = await api.get<unknown>('/specialties', { query: { ...request }, signal, alertOnError: false });
  return parseAnswer(specialtyPageSchema, body);
}

export const specialtiesQuery = (request: SpecialtiesRequest) =>
  queryOptions({
    queryKey: queryKeys.adminSpecialties.list(request),
    queryFn: ({ signal }) => getSpecialties(request, signal),
    retry: false,
    placeholderData: keepPreviousData,
  });

export function useSpecialties(request: SpecialtiesRequest) {
  return useQuery(specialtiesQuery(request));
}
