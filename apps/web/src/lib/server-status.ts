import { queryOptions, useQuery } from '@tanstack/react-query';
import { getServerHealth } from './server-health';

export { getServerHealth, isHealthResponse } from './server-health';

export const serverHealthQuery = queryOptions({
  queryKey: ['server-health'],
  queryFn: ({ signal }) => getServerHealth(signal),
  retry: false,
  staleTime: 30_000,
});

export function useServerHealth() {
  return useQuery(serverHealthQuery);
}
