import { generate, generateSecret, generateURI, verify } from 'otplib';

/** RFC 6238 with the parameters every authenticator app supports: SHA-1, 6 digits, 30 s. */
export const totpPeriodSeconds = 30;

/** A new base32 secret of 20 random bytes (160 bits, RFC 4226's recommendation). */
export function createTotpSecret(): string {
  return generateSecret({ length: 20 });
}

/** The `otpauth://` URI an authenticator app reads from the QR code. */
export function totpUri(secret: string, issuer: string, accountName: string): string {
  return generateURI({ issuer, label: accountName, secret });
}

/**
 * Checks a code at `now`, accepting one step either side for clock drift.
 * `afterTimeStep` is the step of the last accepted code: a code is never
 * accepted twice. Resolves with the step to remember, or null.
 */
export async function verifyTotp(
  secret: string,
  code: string,
  now: Date,
  afterTimeStep: number | null,
): Promise<number | null> {
  const result = await verify({
    secret,
    token: code,
    epoch: Math.floor(now.getTime() / 1000),
    epochTolerance: totpPeriodSeconds,
    ...(afterTimeStep === null ? {} : { afterTimeStep }),
  });
  return result.valid && 'timeStep' in result ? result.timeStep : null;
}

/** The code an authenticator shows at `now` (tests and tools). */
export function currentTotp(secret: string, now: Date): Promise<string> {
  return generate({ secret, epoch: Math.floor(now.getTime() / 1000) });
}
