/** Placeholder replaced by the feature's real page in this change. */
export function RolesPage() {
  return null;
}
