import type { Resource } from '@medplum/fhirtypes';
import { describe, expect, it } from 'vitest';
import { fhirErrors } from './fhir-test-support.js';

describe('the validation the tests rely on', () => {
  it('finds errors in an invalid resource (so a clean result means something)', () => {
    expect(fhirErrors({ resourceType: 'Patient', birthDate: '04/05/2026' }).length).toBeGreaterThan(0);
    expect(
      fhirErrors({
        resourceType: 'Observation',
        status: 'final',
        code: { text: 'x' },
        valueQuantity: { value: 'a' },
      } as unknown as Resource).length,
    ).toBeGreaterThan(0);
    expect(
      fhirErrors({ resourceType: 'Appointment', participant: [] } as unknown as Resource).length,
    ).toBeGreaterThan(0);
  });
});
