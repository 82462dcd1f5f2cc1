import { smartScopeLabel } from '@telemedicina/shared/smart';
import type { TFunction } from 'i18next';

const knownResources = new Set([
  '*',
  'Patient',
  'Practitioner',
  'PractitionerRole',
  'Organization',
  'Schedule',
  'Slot',
  'Appointment',
  'Encounter',
  'AllergyIntolerance',
  'Condition',
  'MedicationStatement',
  'MedicationRequest',
  'Observation',
  'DocumentReference',
  'Binary',
  'AuditEvent',
  'Consent',
]);

/** The categories a v2 scope may be limited to (`?category=vital-signs`) and their words. */
const categoryKeys: Readonly<Record<string, 'vitalSigns' | 'laboratory'>> = {
  'vital-signs': 'vitalSigns',
  laboratory: 'laboratory',
};

/**
 * Each permission an app asks for in plain words ("Read your appointments"), one line per
 * distinct meaning (`patient/Observation.rs` and `patient/Observation.read` read the same), in the
 * order asked. A scope the words do not know is shown as it is, so nothing asked is hidden.
 */
export function describeScopes(scopes: readonly string[], t: TFunction): string[] {
  const lines: string[] = [];
  for (const scope of scopes) {
    const label = smartScopeLabel(scope);
    let line: string;
    if (label === null) {
      line = t('connectedApps.scopes.other', { scope });
    } else if (label.resourceType === null) {
      line = t(`connectedApps.scopes.${label.key}` as 'connectedApps.scopes.identity');
    } else {
      // A patient reads their own ("your appointments"); a clinician their patients' ("appointments").
      const group = label.key === 'userRead' ? 'userResources' : 'resources';
      const category = label.category === null ? undefined : categoryKeys[label.category];
      const resource =
        category !== undefined
          ? t(
              `connectedApps.${label.key === 'userRead' ? 'userCategories' : 'categories'}.${category}` as 'connectedApps.categories.vitalSigns',
            )
          : knownResources.has(label.resourceType)
            ? t(
                `connectedApps.${group}.${label.resourceType === '*' ? 'all' : label.resourceType}` as 'connectedApps.resources.all',
              )
            : label.resourceType;
      if (label.category !== null && category === undefined) {
        // A category these words do not know: the scope as it is, so the limit is not hidden.
        line = t('connectedApps.scopes.other', { scope });
        if (!lines.includes(line)) {
          lines.push(line);
        }
        continue;
      }
      line = t(`connectedApps.scopes.${label.key}` as 'connectedApps.scopes.patientRead', { what: resource });
    }
    if (!lines.includes(line)) {
      lines.push(line);
    }
  }
  return lines;
}
