/** A calendar date in the reader's language and zone ("12 mar 2026"): `lib/clock`'s. */
export { formatDate } from '../../lib/clock';
