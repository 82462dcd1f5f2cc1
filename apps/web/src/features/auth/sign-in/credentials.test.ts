import { emailSchema, passwordSchema, recoveryCodeSchema, totpCodeSchema } from '@telemedicina/shared/auth';
import { passwordMaxLength } from '@telemedicina/shared/password-policy';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { checkEmail, checkPassword, checkSecondFactorCode, type FieldCheck } from './credentials';

/** What the shared schema says about an input, in the hand check's terms. */
function bySchema(schema: z.ZodType<string, string>, input: string): FieldCheck {
  const parsed = schema.safeParse(input);
  return parsed.success
    ? { ok: true, value: parsed.data }
    : { ok: false, message: parsed.error.issues[0]?.message ?? '' };
}

describe('the sign-in field checks agree with the shared schemas', () => {
  it.each([
    'ana@clinica.example',
    '  Ana@Clinica.Example ',
    'ana.maria+citas@sub.clinica.example',
    "o'brien@clinic.example",
    '',
    '   ',
    'no-es-un-correo',
    'ana@',
    '@clinica.example',
    'ana@clinica',
    'ana@clinica.e',
    '.ana@clinica.example',
    'ana..maria@clinica.example',
    'ana.@clinica.example',
    'ana@-clinica.example',
    'ana@clinica..example',
    'ana maria@clinica.example',
    'ana@clínica.example',
    `${'a'.repeat(64)}@${'b'.repeat(180)}.example`,
    `${'a'.repeat(64)}@${'b'.repeat(200)}.example`,
  ])('email %j', (input) => {
    expect(checkEmail(input)).toEqual(bySchema(emailSchema, input));
  });

  it.each([
    '',
    ' ',
    'x',
    'Una frase larga 2026',
    'a'.repeat(passwordMaxLength),
    'a'.repeat(passwordMaxLength + 1),
  ])('password %j', (input) => {
    expect(checkPassword(input)).toEqual(bySchema(passwordSchema, input));
  });

  it.each([
    '123456',
    ' 123456 ',
    '12345',
    '1234567',
    '12a456',
    '',
    'abcde-12345',
    'abcd1234',
    'abcd-12',
    'ab-cd',
  ])('second-factor code %j', (input) => {
    expect(checkSecondFactorCode(input, false)).toEqual(bySchema(totpCodeSchema, input));
    expect(checkSecondFactorCode(input, true)).toEqual(bySchema(recoveryCodeSchema, input));
  });
});
