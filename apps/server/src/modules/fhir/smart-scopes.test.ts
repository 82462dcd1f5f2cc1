import { describe, expect, it } from 'vitest';
import { decideScope, parseScope, parseScopes, resourceSatisfies, searchSatisfies } from './smart-scopes.js';

const params = (entries: Record<string, string[]>) => new Map(Object.entries(entries));

describe('SMART scopes', () => {
  it('reads v2 scopes: context, type, letters and a query restriction', () => {
    expect(parseScope('patient/Observation.rs')).toEqual({
      context: 'patient',
      resourceType: 'Observation',
      read: true,
      search: true,
      restriction: null,
    });
    expect(parseScope('user/*.r')).toMatchObject({
      context: 'user',
      resourceType: '*',
      read: true,
      search: false,
    });
    expect(parseScope('patient/Observation.rs?category=vital-signs')?.restriction).toEqual(
      new Map([['category', ['vital-signs']]]),
    );
    expect(parseScope('patient/*.cruds')).toMatchObject({ read: true, search: true });
  });

  it('reads v1 scopes: read and * grant read and search, write grants nothing here', () => {
    expect(parseScope('patient/*.read')).toMatchObject({ context: 'patient', read: true, search: true });
    expect(parseScope('user/Patient.*')).toMatchObject({
      context: 'user',
      resourceType: 'Patient',
      read: true,
    });
    expect(parseScope('patient/*.write')).toBeNull();
  });

  it('ignores what grants no resource access, and malformed scopes', () => {
    for (const scope of [
      'openid',
      'fhirUser',
      'launch/patient',
      'offline_access',
      'patient/*.',
      'patient/*.sr',
      'patient/*.cu',
      'doctor/*.rs',
      'patient/observation.rs',
      'patient/*.rs?',
      'patient/*.rs?category=',
    ]) {
      expect(parseScope(scope), scope).toBeNull();
    }
  });

  it('decides per resource type and interaction; the widest context wins', () => {
    const scopes = parseScopes(['patient/Observation.r', 'patient/Patient.rs']);
    expect(decideScope(scopes, 'Observation', 'read')).toEqual({
      allowed: true,
      patientOnly: true,
      restrictions: null,
    });
    expect(decideScope(scopes, 'Observation', 'search')).toEqual({ allowed: false });
    expect(decideScope(scopes, 'Appointment', 'read')).toEqual({ allowed: false });
    expect(
      decideScope(parseScopes(['patient/*.rs', 'user/Appointment.rs']), 'Appointment', 'search'),
    ).toMatchObject({
      allowed: true,
      patientOnly: false,
    });
    expect(
      decideScope(parseScopes(['patient/*.rs', 'user/Appointment.rs']), 'Patient', 'search'),
    ).toMatchObject({
      patientOnly: true,
    });
  });

  it('keeps a restriction unless an unrestricted scope of the same context also matches', () => {
    const restricted = decideScope(
      parseScopes(['patient/Observation.rs?category=vital-signs']),
      'Observation',
      'search',
    );
    expect(restricted).toMatchObject({ allowed: true });
    const restrictions = restricted.allowed ? restricted.restrictions : null;
    expect(restrictions).toHaveLength(1);
    expect(searchSatisfies(restrictions, params({ category: ['vital-signs'] }))).toBe(true);
    expect(
      searchSatisfies(
        restrictions,
        params({ category: ['http://terminology.hl7.org/CodeSystem/observation-category|vital-signs'] }),
      ),
    ).toBe(true);
    expect(searchSatisfies(restrictions, params({ category: ['laboratory'] }))).toBe(false);
    expect(searchSatisfies(restrictions, params({ category: ['vital-signs,laboratory'] }))).toBe(false);
    expect(searchSatisfies(restrictions, params({}))).toBe(false);
    expect(
      resourceSatisfies(restrictions, () => [
        'http://terminology.hl7.org/CodeSystem/observation-category|vital-signs',
      ]),
    ).toBe(true);
    expect(resourceSatisfies(restrictions, () => ['laboratory'])).toBe(false);
    const lifted = decideScope(
      parseScopes(['patient/Observation.rs?category=vital-signs', 'patient/Observation.rs']),
      'Observation',
      'search',
    );
    expect(lifted).toEqual({ allowed: true, patientOnly: true, restrictions: null });
  });
});
