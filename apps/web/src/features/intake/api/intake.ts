import type { Questionnaire, QuestionnaireResponse } from '@medplum/fhirtypes';
import {
  intakeFormListSchema,
  intakeProblemsDetailsSchema,
  intakeResponseDetailSchema,
  type IntakeFormSummary,
  type IntakeProblem,
  type IntakeResponseDetail,
} from '@telemedicina/shared/intake';
import type { AnswerMap } from '@telemedicina/shared/intake-logic';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, ApiError } from '../../../lib/api-client';
import { parseAnswer } from '../../../lib/parse-answer';
import { queryKeys } from '../../../lib/query-keys';

const responsePath = (id: string) => `/intake-responses/${encodeURIComponent(id)}`;

/** `GET /appointments/:id/intake-forms`. */
export async function getAppointmentForms(
  appointmentId: string,
  signal?: AbortSignal,
): Promise<IntakeFormSummary[]> {
  const body = await api.get<unknown>(`/appointments/${encodeURIComponent(appointmentId)}/intake-forms`, {
    signal,
    alertOnError: false,
    showSpinner: false,
  });
  return parseAnswer(intakeFormListSchema, body).data;
}

export function useAppointmentForms(appointmentId: string, enabled = true) {
  return useQuery(
    queryOptions({
      queryKey: queryKeys.appointments.intakeForms(appointmentId),
      queryFn: ({ signal }) => getAppointmentForms(appointmentId, signal),
      retry: false,
      enabled,
    }),
  );
}

/** `GET /patients/:id/intake-responses`: the chart's forms, newest first. */
export function usePatientForms(patientId: string) {
  return useQuery(
    queryOptions({
      queryKey: queryKeys.patients.intakeForms(patientId),
      queryFn: async ({ signal }) =>
        parseAnswer(
          intakeFormListSchema,
          await api.get<unknown>(`/patients/${encodeURIComponent(patientId)}/intake-responses`, {
            signal,
            alertOnError: false,
          }),
        ).data,
      retry: false,
    }),
  );
}

/** A response with its FHIR resources typed. */
export interface IntakeResponseView extends Omit<IntakeResponseDetail, 'questionnaire' | 'response'> {
  questionnaire: Questionnaire;
  response: QuestionnaireResponse;
}

function asView(detail: IntakeResponseDetail): IntakeResponseView {
  return detail as unknown as IntakeResponseView;
}

export function useIntakeResponse(id: string) {
  return useQuery(
    queryOptions({
      queryKey: queryKeys.intakeResponse(id),
      queryFn: async ({ signal }) =>
        asView(
          parseAnswer(
            intakeResponseDetailSchema,
            await api.get<unknown>(responsePath(id), { signal, alertOnError: false }),
          ),
        ),
      retry: false,
      // Answers being typed live in the page; a refetch on focus would overwrite them.
      refetchOnWindowFocus: false,
      staleTime: Infinity,
    }),
  );
}

/** The item problems of a 422 answer, or null for any other failure. */
export function problemsOf(error: unknown): IntakeProblem[] | null {
  if (!(error instanceof ApiError) || error.status !== 422) {
    return null;
  }
  const parsed = intakeProblemsDetailsSchema.safeParse(error.details);
  return parsed.success ? parsed.data.problems : null;
}

/** `PUT /intake-responses/:id/answers` (autosave): quiet, no spinner, errors handled by the page. */
export async function saveAnswers(id: string, answers: AnswerMap): Promise<IntakeResponseView> {
  const body = await api.put<unknown>(
    `${responsePath(id)}/answers`,
    { answers },
    {
      alertOnError: false,
      showSpinner: false,
    },
  );
  return asView(parseAnswer(intakeResponseDetailSchema, body));
}

/** `POST /intake-responses/:id/submit`. */
export async function submitAnswers(id: string, answers: AnswerMap): Promise<IntakeResponseView> {
  const body = await api.post<unknown>(`${responsePath(id)}/submit`, { answers }, { alertOnError: false });
  return asView(parseAnswer(intakeResponseDetailSchema, body));
}
