/**
 * The specification's permission check: true when the user's permission list holds at least one
 * of the required names. Asking with an empty list answers false — "at least one of nothing" is
 * never satisfied, so a forgotten requirement hides content instead of showing it to everyone.
 * The client uses this only to show or hide; the server enforces permissions on every endpoint.
 */
export function hasAnyPermission(userPermissions: readonly string[], required: readonly string[]): boolean {
  if (required.length === 0 || userPermissions.length === 0) {
    return false;
  }
  const held = new Set(userPermissions);
  return required.some((name) => held.has(name));
}
