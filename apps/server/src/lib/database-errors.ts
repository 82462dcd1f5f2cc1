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
