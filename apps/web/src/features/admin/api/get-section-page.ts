import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '../../../lib/api-client';

/** The API's list answer (`?page=&pageSize=&q=` → `{ data, page, pageSize, total }`). */
export const listPageSchema = z.object({
  data: z.array(z.record(z.string(), z.unknown())),
  page: z.number().int().min(1),
  pageSize: z.number().int().min(1),
  total: z.number().int().min(0),
});
export type ListPage = z.infer<typeof listPageSchema>;

export interface SectionPageRequest {
  endpoint: string;
  page: number;
  pageSize: number;
  q: string;
}

/** One page of a list section. Errors are shown inside the section, not as a dialog. */
export async function getSectionPage(
  { endpoint, page, pageSize, q }: SectionPageRequest,
  signal?: AbortSignal,
): Promise<ListPage> {
  const body = await api.get<unknown>(endpoint, {
    query: { page, pageSize, q },
    signal,
    alertOnError: false,
  });
  return listPageSchema.parse(body);
}

export const sectionPageQuery = (request: SectionPageRequest, isEnabled: boolean) =>
  queryOptions({
    queryKey: ['admin-section', request.endpoint, request.page, request.pageSize, request.q],
    queryFn: ({ signal }) => getSectionPage(request, signal),
    enabled: isEnabled,
    retry: false,
    placeholderData: keepPreviousData,
  });

export function useSectionPage(request: SectionPageRequest, isEnabled: boolean) {
  return useQuery(sectionPageQuery(request, isEnabled));
}
