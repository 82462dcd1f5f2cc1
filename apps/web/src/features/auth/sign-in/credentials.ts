import { passwordMaxLength } from '@telemedicina/shared/password-policy';

/**
 * The sign-in page's own field checks. They mirror the shared `emailSchema`, `passwordSchema`,
 * `totpCodeSchema` and `recoveryCodeSchema` (same rules, same `validation.*` message keys — a unit
 * test compares them on a corpus) without zod, which would add ~25 kB gzip to the first download.
 * The server parses the request with the shared schemas and stays the authority; its field errors
 * are shown on the fields.
 */

/** zod 4's `z.email()` pattern (`regexes.email`). */
const emailPattern =
  /^(?:[A-Za-z0-9_'+-]+\.)*[A-Za-z0-9_'+-]*[A-Za-z0-9_+-]@(?:[A-Za-z0-9][A-Za-z0-9-]*\.)+[A-Za-z]{2,}$/;
const totpPattern = /^\d{6}$/u;
const recoveryPattern = /^[A-Za-z0-9]{4,5}-?[A-Za-z0-9]{4,5}$/u;

/** A field's value after its schema's transforms, or the translation key of what is wrong. */
export type FieldCheck = { ok: true; value: string } | { ok: false; message: string };

/** `emailSchema`: trimmed, lower-cased, at most 254 characters, an address. */
export function checkEmail(input: string): FieldCheck {
  const value = input.trim().toLowerCase();
  if (value.length > 254 || !emailPattern.test(value)) {
    return { ok: false, message: 'validation.email' };
  }
  return { ok: true, value };
}

/** `passwordSchema`: present and at most `passwordMaxLength` characters, taken as typed. */
export function checkPassword(input: string): FieldCheck {
  if (input.length < 1) {
    return { ok: false, message: 'validation.required' };
  }
  if (input.length > passwordMaxLength) {
    return { ok: false, message: 'validation.passwordTooLong' };
  }
  return { ok: true, value: input };
}

/** `totpCodeSchema` (six digits) or `recoveryCodeSchema` (two groups of 4–5, optional dash), trimmed. */
export function checkSecondFactorCode(input: string, isRecovery: boolean): FieldCheck {
  const value = input.trim();
  if (isRecovery) {
    return recoveryPattern.test(value)
      ? { ok: true, value }
      : { ok: false, message: 'validation.recoveryCode' };
  }
  return totpPattern.test(value) ? { ok: true, value } : { ok: false, message: 'validation.totpCode' };
}
