import { describe, expect, it } from 'vitest';
import { sanitizeReturnTo, signInPathFor } from './return-to';

describe('sanitizeReturnTo', () => {
  it.each([
    ['/admin', '/admin'],
    ['/admin/outbox', '/admin/outbox'],
    ['/admin/outbox?page=2&message=m1', '/admin/outbox?page=2&message=m1'],
    ['/admin/profile/security#mfa', '/admin/profile/security#mfa'],
  ])('follows the admin path %s', (value, expected) => {
    expect(sanitizeReturnTo(value)).toBe(expected);
  });

  it.each([
    ['//evil.com'],
    ['//evil.com/admin'],
    ['https://evil.com'],
    ['https://evil.com/admin'],
    ['http:/evil.com/admin'],
    ['/\\evil'],
    ['/\\evil.com/admin'],
    ['\\\\evil.com'],
    ['javascript:alert(1)'],
    ['JavaScript:alert(document.cookie)'],
    ['/admin/../evil'],
    ['/admin/%2e%2e/evil'],
    ['/administrator'],
    ['/'],
    ['/register'],
    ['admin'],
    ['/admin\n//evil.com'],
    ['/admin\t'],
    [''],
    [null],
    [undefined],
  ])('refuses %j', (value) => {
    expect(sanitizeReturnTo(value)).toBeNull();
  });

  it('builds the sign-in address with an encoded return path, or none', () => {
    expect(signInPathFor('/admin/outbox?page=2')).toBe('/?returnTo=%2Fadmin%2Foutbox%3Fpage%3D2');
    expect(signInPathFor('//evil.com')).toBe('/');
  });
});
