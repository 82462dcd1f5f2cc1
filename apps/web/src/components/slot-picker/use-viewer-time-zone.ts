import { useMe } from '../../lib/session';
import { browserTimeZone } from '../../lib/time-zones';

/** The signed-in user's saved IANA zone (the browser's when the profile has none). */
export function useViewerTimeZone(): string {
  return useMe().data?.user.timeZone || browserTimeZone();
}
