import type { FastifyReply, FastifyRequest } from 'fastify';

/** The session cookie: httpOnly, SameSite=Lax, path /, Secure over HTTPS. */
export const sessionCookieName = 'tm_session';

/**
 * Whether cookies set on this answer get `Secure`: the request came over
 * HTTPS (directly, or through a trusted proxy's X-Forwarded-Proto), or the
 * app's public origin is https. Production alone is not enough: a clinic may
 * evaluate the app over plain HTTP on its LAN, where a Secure cookie would
 * never come back and nobody could sign in.
 */
export function isSecureRequest(request: FastifyRequest, publicOrigin: string): boolean {
  return request.protocol === 'https' || publicOrigin.startsWith('https:');
}

/** The value of cookie `name` in a Cookie header, or null. */
export function readCookie(header: string | undefined, name: string): string | null {
  if (header === undefined) {
    return null;
  }
  for (const part of header.split(';')) {
    const separator = part.indexOf('=');
    if (separator > 0 && part.slice(0, separator).trim() === name) {
      return part.slice(separator + 1).trim();
    }
  }
  return null;
}

/**
 * Sets a cookie on the answer, replacing a Set-Cookie for the same name added
 * earlier in this request (an XSRF cookie issued on arrival and rotated at
 * sign-in, a session cleared and then started).
 */
export function putCookie(reply: FastifyReply, name: string, serialized: string): void {
  const existing = reply.getHeader('set-cookie');
  const others = (
    existing === undefined ? [] : Array.isArray(existing) ? existing : [String(existing)]
  ).filter((line) => !line.startsWith(`${name}=`));
  void reply.removeHeader('set-cookie');
  void reply.header('set-cookie', [...others, serialized]);
}

export function setSessionCookie(
  reply: FastifyReply,
  token: string,
  options: { isSecure: boolean; expiresAt: Date; now: Date },
): void {
  const maxAge = Math.max(0, Math.round((options.expiresAt.getTime() - options.now.getTime()) / 1000));
  putCookie(
    reply,
    sessionCookieName,
    `${sessionCookieName}=${token}; Path=/; Max-Age=${maxAge}; HttpOnly; SameSite=Lax${options.isSecure ? '; Secure' : ''}`,
  );
}

export function clearSessionCookie(reply: FastifyReply, options: { isSecure: boolean }): void {
  putCookie(
    reply,
    sessionCookieName,
    `${sessionCookieName}=; Path=/; Max-Age=0; Expires=Thu, 01 Jan 1970 00:00:00 GMT; HttpOnly; SameSite=Lax${options.isSecure ? '; Secure' : ''}`,
  );
}
