const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Ids in paths are only looked up when they are UUIDs; anything else is simply not found. */
export function isUuid(value: string): boolean {
  return uuidPattern.test(value);
}
