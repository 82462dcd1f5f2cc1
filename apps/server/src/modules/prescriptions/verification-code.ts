import { randomBytes } from 'node:crypto';

/** Crockford's base32 alphabet: no I, L, O or U, so a code read aloud or retyped is unambiguous. */
const alphabet = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/**
 * A fresh verification code: 12 characters (60 bits from the CSPRNG) as XXXX-XXXX-XXXX. Too many
 * to guess within the public lookup's rate limit, short enough to type from paper.
 */
export function generateVerificationCode(): string {
  const bytes = randomBytes(12);
  let code = '';
  for (let index = 0; index < 12; index += 1) {
    code += alphabet[bytes[index]! & 31];
    if (index === 3 || index === 7) {
      code += '-';
    }
  }
  return code;
}
