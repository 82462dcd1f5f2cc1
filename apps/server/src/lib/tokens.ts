import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * A fresh random secret for a cookie or an emailed link: 256 bits,
 * base64url (43 characters, safe in URLs and cookies).
 */
export function createSecretToken(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * What the database keeps instead of a token: its SHA-256 in hex. The token
 * is random with 256 bits, so an unsalted fast hash is enough to make a leaked
 * table useless, and it allows lookup by equality.
 */
export function hashSecretToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** Constant-time comparison of two strings (false for different lengths). */
export function isSameSecret(given: string, expected: string): boolean {
  const givenBytes = Buffer.from(given);
  const expectedBytes = Buffer.from(expected);
  return givenBytes.length === expectedBytes.length && timingSafeEqual(givenBytes, expectedBytes);
}
