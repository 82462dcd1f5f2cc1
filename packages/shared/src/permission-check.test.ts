import { describe, expect, it } from 'vitest';
import { hasAnyPermission } from './permission-check.js';

describe('hasAnyPermission', () => {
  const held = ['users.manage', 'audit.read'];

  it.each([
    [['users.manage'], true],
    [['appointments.read.any', 'audit.read'], true],
    [['records.write'], false],
    [['users'], false],
    [['USERS.MANAGE'], false],
    [[], false],
  ])('requires any of %j → %s', (required, expected) => {
    expect(hasAnyPermission(held, required)).toBe(expected);
  });

  it('is false for a user without permissions', () => {
    expect(hasAnyPermission([], ['users.manage'])).toBe(false);
  });
});
