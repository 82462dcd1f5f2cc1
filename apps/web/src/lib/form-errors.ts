import type { PasswordProblem } from '@telemedicina/shared/password-policy';
import type { ParseKeys } from 'i18next';
import { useCallback } from 'react';
import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { ApiError } from './api-client';

const passwordProblems: readonly PasswordProblem[] = [
  'tooShort',
  'tooLong',
  'tooCommon',
  'containsPersonalData',
  'tooSimple',
];

/** The translation key of a password policy problem. */
export function passwordProblemKey(problem: PasswordProblem) {
  return `passwordPolicy.problems.${problem}` as const;
}

/** `details.problems` of a 422 PASSWORD_TOO_WEAK answer, keeping only problems the policy knows. */
export function readPasswordProblems(details: unknown): PasswordProblem[] {
  if (typeof details !== 'object' || details === null) {
    return [];
  }
  const problems = (details as { problems?: unknown }).problems;
  return Array.isArray(problems)
    ? problems.filter((problem): problem is PasswordProblem =>
        passwordProblems.includes(problem as PasswordProblem),
      )
    : [];
}

/**
 * Puts a server's refusal beside the fields it concerns: 400 VALIDATION_FAILED issues whose path
 * is one of the form's fields (their messages are `validation.*` keys from the shared schemas),
 * and 422 PASSWORD_TOO_WEAK problems on the password field. Returns true when at least one field
 * got a message; otherwise the caller shows the error another way.
 */
export function applyServerFieldErrors<T extends FieldValues>(
  error: unknown,
  setError: UseFormSetError<T>,
  fields: readonly Path<T>[],
  passwordField?: Path<T>,
): boolean {
  if (!(error instanceof ApiError)) {
    return false;
  }
  if (error.code === 'PASSWORD_TOO_WEAK' && passwordField) {
    const [first] = readPasswordProblems(error.details);
    setError(
      passwordField,
      { type: 'server', message: first ? passwordProblemKey(first) : 'errors.codes.PASSWORD_TOO_WEAK' },
      { shouldFocus: true },
    );
    return true;
  }
  if (!error.fieldErrors) {
    return false;
  }
  let isApplied = false;
  for (const [path, message] of Object.entries(error.fieldErrors)) {
    const field = fields.find((candidate) => candidate === path);
    if (field) {
      setError(field, { type: 'server', message }, { shouldFocus: !isApplied });
      isApplied = true;
    }
  }
  return isApplied;
}

/**
 * Translates a field error: messages are translation keys (`validation.*` from the shared
 * schemas, `passwordPolicy.problems.*`, `errors.codes.*`); anything else — a schema message that
 * is not a key — reads as a generic "this value is not valid".
 */
export function useFieldErrorText() {
  const { t, i18n } = useTranslation();
  return useCallback(
    (message: string | undefined): string | undefined => {
      if (message === undefined) {
        return undefined;
      }
      const isKey = /^(validation|passwordPolicy|errors)\.[A-Za-z0-9_.]+$/.test(message);
      return isKey && i18n.exists(message) ? t(message as ParseKeys) : t('validation.invalid');
    },
    [t, i18n],
  );
}
