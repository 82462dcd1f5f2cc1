import type { OperationOutcome } from '@medplum/fhirtypes';

/** The HTTP statuses /fhir/R4 answers errors with, and their OperationOutcome issue codes. */
const issueCodeByStatus = {
  400: 'invalid',
  401: 'login',
  403: 'forbidden',
  404: 'not-found',
  406: 'not-supported',
  422: 'processing',
  429: 'throttled',
  500: 'exception',
  503: 'transient',
} as const;

export type FhirErrorStatus = keyof typeof issueCodeByStatus;

/** An error /fhir/R4 answers as an OperationOutcome with its status. */
export class FhirError extends Error {
  constructor(
    readonly statusCode: FhirErrorStatus,
    message: string,
    /** The offending parameter or element, as a FHIRPath-like expression (`Observation.category`). */
    readonly expression?: string,
  ) {
    super(message);
    this.name = 'FhirError';
  }
}

export function operationOutcome(
  status: FhirErrorStatus,
  message: string,
  expression?: string,
): OperationOutcome {
  return {
    resourceType: 'OperationOutcome',
    issue: [
      {
        severity: status >= 500 ? 'fatal' : 'error',
        code: issueCodeByStatus[status],
        diagnostics: message,
        ...(expression === undefined ? {} : { expression: [expression] }),
      },
    ],
  };
}

export const notFoundError = (type: string, id: string) =>
  new FhirError(404, `${type}/${id} is not known or not visible to this access.`);
export const badParam = (name: string, message: string) => new FhirError(400, message, name);
