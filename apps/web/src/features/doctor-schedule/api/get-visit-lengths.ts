import { usePublicConfig } from '../../../lib/public-config';

/** Offered while the public configuration loads or when it could not be read (the server's defaults). */
export const fallbackVisitLengths: readonly number[] = [15, 20, 30, 45, 60];

/**
 * The clinic's visit lengths, from the public configuration (`GET /config`), so a doctor without
 * `settings.manage` is offered the clinic's own list; the server still checks the choice.
 */
export function useVisitLengths(): readonly number[] {
  const config = usePublicConfig();
  return config.data?.clinic?.visitLengths ?? fallbackVisitLengths;
}
