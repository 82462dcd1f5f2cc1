import type { FastifyRequest } from 'fastify';

const minute = 60_000;

/**
 * Per-route limits (docs/IDENTITY.md, "Abuse"). Keyed by client IP unless
 * stated; the MFA and password-change limits are keyed by session, which a
 * caller cannot multiply without signing in again.
 */
export const rateLimits = {
  /** Every sign-in attempt, whatever the outcome: bounds the hashing work one address can cause. */
  login: { max: 30, timeWindow: minute },
  /**
   * Failed sign-ins (wrong password or code, locked email) per address. Only failures count, so a
   * clinic whose staff share one public address can still sign everyone in at 8 o'clock.
   */
  failedLogin: {
    max: 10,
    timeWindow: minute,
    keyGenerator: (request: FastifyRequest): string => `failed-sign-in:${request.ip}`,
  },
  register: { max: 5, timeWindow: 10 * minute },
  emailedLink: { max: 5, timeWindow: 15 * minute },
  /** Looking an invitation up (the page may be reloaded a few times). */
  tokenLookup: { max: 30, timeWindow: 15 * minute },
  /**
   * RFC 7591 registrations at /oauth/reg (open to any app when the clinic allows it): an app
   * registers once, so a few per address leave room for developers and stop a flood of clients.
   */
  appRegistration: {
    max: 20,
    timeWindow: 10 * minute,
    keyGenerator: (request: FastifyRequest): string => `oauth-registration:${request.ip}`,
  },
  /** Everything else the authorization server answers (/oauth: authorize, token, refresh, jwks…). */
  authorizationServer: {
    max: 300,
    timeWindow: minute,
    keyGenerator: (request: FastifyRequest): string => `oauth:${request.ip}`,
  },
  perSession: {
    max: 10,
    timeWindow: 15 * minute,
    keyGenerator: (request: FastifyRequest): string => `session:${request.actor?.sessionId ?? request.ip}`,
  },
} as const;

/** Whether a socket's peer is this machine (IPv4, IPv6 or IPv4-mapped loopback). */
export function isLoopbackAddress(address: string | undefined): boolean {
  if (address === undefined) {
    return false;
  }
  const plain = address.startsWith('::ffff:') ? address.slice('::ffff:'.length) : address;
  return plain === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(plain);
}
