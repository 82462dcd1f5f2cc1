/**
 * Constraint violations reported by PostgreSQL (node-postgres and PGlite
 * alike), whether thrown as they are or wrapped by drizzle as the `cause`.
 * Services turn them into conflicts when a concurrent request won a race the
 * pre-check could not see.
 */
function sqlStateOf(error: unknown): string | null {
  for (let current: unknown = error, depth = 0; current instanceof Error && depth < 4; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) {
      return code;
    }
    current = current.cause;
  }
  return null;
}

/** 23505: a unique index refused the row. */
export function isUniqueViolation(error: unknown): boolean {
  return sqlStateOf(error) === '23505';
}

/** 23503: a foreign key refused the change (a referenced row is still in use, or gone). */
export function isForeignKeyViolation(error: unknown): boolean {
  return sqlStateOf(error) === '23503';
}

/** 23P01: an exclusion constraint refused the row (two live appointments of one doctor overlapping). */
export function isExclusionViolation(error: unknown): boolean {
  return sqlStateOf(error) === '23P01';
}

/** Driver errors (node-postgres) that say the connection, not the statement, failed; they carry no SQLSTATE. */
const lostConnectionMessages = [
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'Client has encountered a connection error and is not queryable',
  'Client was closed and is not queryable',
];

/** Socket errors of a connection to the database server (refused, reset, unreachable, timed out). */
const socketErrorCodes = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/**
 * The database cannot be reached or dropped the connection: PostgreSQL restarting or shutting
 * down (57P01–57P03), a connection exception (class 08), too many connections (53300), the
 * socket refused or reset, or the pool timing out. These are outages, not bugs: the request may
 * be retried once the database is back, and the pool reconnects by itself.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (let current: unknown = error, depth = 0; current instanceof Error && depth < 4; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') {
      if (/^08[0-9A-Z]{3}$/.test(code) || ['57P01', '57P02', '57P03', '53300'].includes(code)) {
        return true;
      }
      if (socketErrorCodes.has(code)) {
        return true;
      }
    }
    if (
      lostConnectionMessages.some(
        (message) => current instanceof Error && current.message.startsWith(message),
      )
    ) {
      return true;
    }
    current = current.cause;
  }
  return false;
}

/**
 * PostgreSQL refused a value the request carried: a NUL character in text (22021, 22P05 in
 * jsonb), text that does not cast (22P02), an out-of-range number or date (22003, 22008) or
 * an unparsable date (22007). Input that slipped past a schema, not a server fault: 400.
 */
export function isInvalidInputValue(error: unknown): boolean {
  const code = sqlStateOf(error);
  return code !== null && ['22021', '22P05', '22P02', '22003', '22007', '22008'].includes(code);
}
