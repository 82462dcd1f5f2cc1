import {
  patientMatchSchema,
  type PatientMatch,
  type RegisterPatientRequest,
} from '@telemedicina/shared/reception';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { parseAnswer } from '../../../lib/parse-answer';

/**
 * `POST /patients` → 201 the new patient (pending until they set a password through the emailed
 * invitation); 409 CONFLICT with `details.field = 'email'` when the email has an account.
 */
export async function registerPatient(body: RegisterPatientRequest): Promise<PatientMatch> {
  const answer = await api.post<unknown>('/patients', body, { alertOnError: false });
  return parseAnswer(patientMatchSchema, answer);
}

export function useRegisterPatient() {
  return useMutation({ mutationFn: registerPatient });
}
