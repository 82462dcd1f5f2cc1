import { describe, expect, it } from 'vitest';
import { systemRoles } from './permission-catalogue.js';
import { adminPathFor, isPortalUser, portalPathFor, webPathForReader } from './portal.js';

describe('the patient portal', () => {
  it('belongs to patients only: any permission beyond the patient role keeps the admin frame', () => {
    expect(isPortalUser(systemRoles.patient.permissions)).toBe(true);
    expect(isPortalUser(['doctors.read', 'appointments.book.self'])).toBe(true);
    expect(isPortalUser(systemRoles.doctor.permissions)).toBe(false);
    expect(isPortalUser(systemRoles.staff.permissions)).toBe(false);
    expect(isPortalUser(systemRoles.admin.permissions)).toBe(false);
    expect(isPortalUser([...systemRoles.patient.permissions, 'users.read'])).toBe(false);
    expect(isPortalUser([])).toBe(false);
  });

  it("maps an admin-area address to the portal's, keeping the query string and fragment", () => {
    expect(portalPathFor('/admin')).toBe('/portal');
    expect(portalPathFor('/admin/')).toBe('/portal');
    expect(portalPathFor('/admin/appointments/a1?x=1#note')).toBe('/portal/appointments/a1?x=1#note');
    expect(portalPathFor('/admin/visits/a1/check')).toBe('/portal/visits/a1/check');
    expect(portalPathFor('/admin/doctors/d1')).toBe('/portal/doctors/d1');
    expect(portalPathFor('/admin/my-record')).toBe('/portal/my-record');
    expect(portalPathFor('/admin/profile/record-access')).toBe('/portal/profile/record-access');
    expect(portalPathFor('/admin/prescriptions/p1')).toBe('/portal/prescriptions/p1');
    // Pages the portal has not: its home (their query means nothing there).
    expect(portalPathFor('/admin/users?page=2')).toBe('/portal');
    expect(portalPathFor('/admin/patients/p1')).toBe('/portal');
    // The signed visit note a patient reads (linked from the appointment page and the summary email).
    expect(portalPathFor('/admin/appointments/a1/note')).toBe('/portal/appointments/a1/note');
    expect(portalPathFor('/administrator')).toBeNull();
    expect(portalPathFor('/guest?token=x')).toBeNull();
  });

  it("maps a portal address to the admin area's for staff", () => {
    expect(adminPathFor('/portal')).toBe('/admin');
    expect(adminPathFor('/portal/doctors?q=ana')).toBe('/admin/doctors?q=ana');
    expect(adminPathFor('/portal/visits/a1')).toBe('/admin/visits/a1');
    expect(adminPathFor('/portals')).toBeNull();
    expect(adminPathFor('/admin/x')).toBeNull();
  });

  it('links each reader to their own frame', () => {
    expect(webPathForReader('/admin/appointments/a1', true)).toBe('/portal/appointments/a1');
    expect(webPathForReader('/admin/appointments/a1', false)).toBe('/admin/appointments/a1');
    expect(webPathForReader('/guest?token=x', true)).toBe('/guest?token=x');
  });
});
