import { describe, expect, it } from 'vitest';
import { sampleMe } from '../test/fake-api';
import { sanitizeReturnTo, signedInTarget } from './return-to';

const patient = sampleMe({
  permissions: ['doctors.read', 'appointments.book.self', 'appointments.read.own'],
});
const staff = sampleMe({ permissions: ['appointments.read.any', 'users.read'] });

describe('where sign-in leads (patients live in the portal)', () => {
  it('a patient lands on the portal, and an old admin return path is followed to its portal page', () => {
    expect(signedInTarget(patient, null)).toBe('/portal');
    expect(signedInTarget(patient, '/admin')).toBe('/portal');
    expect(signedInTarget(patient, '/admin/appointments/a1?x=1')).toBe('/portal/appointments/a1?x=1');
    expect(signedInTarget(patient, '/portal/my-record')).toBe('/portal/my-record');
  });

  it('staff land in the admin area, and a portal return path is followed to its admin page', () => {
    expect(signedInTarget(staff, null)).toBe('/admin');
    expect(signedInTarget(staff, '/portal/doctors')).toBe('/admin/doctors');
    expect(signedInTarget(staff, '/admin/users')).toBe('/admin/users');
  });

  it('accepts portal return paths, and still refuses anything outside the two areas', () => {
    expect(sanitizeReturnTo('/portal/appointments/a1')).toBe('/portal/appointments/a1');
    expect(sanitizeReturnTo('/portalx')).toBeNull();
    expect(sanitizeReturnTo('//evil.example/portal')).toBeNull();
    expect(signedInTarget(patient, 'https://evil.example/portal')).toBe('/portal');
  });

  it('a patient who must enrol a second factor goes there first', () => {
    expect(signedInTarget(sampleMe({ ...patient, session: { mfaEnrollmentRequired: true } }), null)).toBe(
      '/admin/profile/security',
    );
  });
});
