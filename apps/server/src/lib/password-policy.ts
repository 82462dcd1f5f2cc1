import { checkPassword } from '@telemedicina/shared/password-policy';
import { appError } from './app-error.js';

/**
 * Applies the shared password policy (the same function drives the form's
 * strength meter). Refusal: 422 PASSWORD_TOO_WEAK with `details.problems`,
 * each a translation key the client shows.
 */
export function assertPasswordAcceptable(
  password: string,
  personal: { email?: string; name?: string },
): void {
  const check = checkPassword(password, personal);
  if (check.problems.length > 0) {
    throw appError('PASSWORD_TOO_WEAK', 'The password does not meet the password policy.', {
      problems: check.problems,
      score: check.score,
    });
  }
}
