import {
  appointmentPageSchema,
  chartNoteListSchema,
  type ChartNoteList,
  doctorProfileSchema,
  prescriptionListSchema,
  type AppointmentPage,
  type DoctorProfile,
  type PrescriptionList,
} from '@telemedicina/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../../../lib/api-client';
import { appConfig } from '../../../lib/config';
import { parseAnswer } from '../../../lib/parse-answer';
import { queryKeys } from '../../../lib/query-keys';

/** A visit that began up to this long ago may still be running: the portal still shows it as next. */
const lookbackMinutes = 120;

/**
 * The patient's visits from a little before now, soonest first (the server answers only their own).
 * Under `['appointments', 'list']`, so booking, cancelling or rescheduling refreshes it.
 */
export function usePortalUpcoming() {
  const [from] = useState(() => new Date(Date.now() - lookbackMinutes * 60_000).toISOString());
  return useQuery(
    queryOptions({
      queryKey: queryKeys.appointments.portalUpcoming(from),
      queryFn: async ({ signal }): Promise<AppointmentPage> =>
        parseAnswer(
          appointmentPageSchema,
          await api.get<unknown>('/appointments', {
            query: { page: 1, pageSize: 20, from, sort: 'startsAt', order: 'asc' },
            signal,
            alertOnError: false,
          }),
        ),
      staleTime: 30_000,
      retry: false,
    }),
  );
}

/** The patient's last completed visits, newest first. */
export function usePortalPast(limit = 5) {
  const [to] = useState(() => new Date().toISOString());
  return useQuery(
    queryOptions({
      queryKey: queryKeys.appointments.portalPast(to, limit),
      queryFn: async ({ signal }): Promise<AppointmentPage> =>
        parseAnswer(
          appointmentPageSchema,
          await api.get<unknown>('/appointments', {
            query: { page: 1, pageSize: limit, to, status: 'completed', sort: 'startsAt', order: 'desc' },
            signal,
            alertOnError: false,
          }),
        ),
      staleTime: 60_000,
      retry: false,
    }),
  );
}

/** `GET /patients/:id/prescriptions`: the patient's own prescriptions (listed under their visits). */
export function usePortalPrescriptions(patientId: string | undefined) {
  return useQuery(
    queryOptions({
      queryKey: queryKeys.prescriptions.ofPatient(patientId ?? ''),
      queryFn: async ({ signal }): Promise<PrescriptionList> =>
        parseAnswer(
          prescriptionListSchema,
          await api.get<unknown>(`/patients/${encodeURIComponent(patientId ?? '')}/prescriptions`, {
            signal,
            alertOnError: false,
          }),
        ),
      enabled: Boolean(patientId),
      staleTime: 60_000,
      retry: false,
    }),
  );
}

/** `GET /patients/:id/notes`: the patient's signed visit notes (a past visit with one has a summary). */
export function usePortalNotes(patientId: string | undefined) {
  return useQuery(
    queryOptions({
      queryKey: queryKeys.notes.ofPatient(patientId ?? ''),
      queryFn: async ({ signal }): Promise<ChartNoteList> =>
        parseAnswer(
          chartNoteListSchema,
          await api.get<unknown>(`/patients/${encodeURIComponent(patientId ?? '')}/notes`, {
            signal,
            alertOnError: false,
          }),
        ),
      enabled: Boolean(patientId),
      staleTime: 60_000,
      retry: false,
    }),
  );
}

/** `GET /doctors/:id`: the next visit's doctor (photo, specialties). */
export function usePortalDoctor(doctorId: string | undefined) {
  return useQuery(
    queryOptions({
      queryKey: queryKeys.doctors.profile(doctorId ?? ''),
      queryFn: async ({ signal }): Promise<DoctorProfile> =>
        parseAnswer(
          doctorProfileSchema,
          await api.get<unknown>(`/doctors/${encodeURIComponent(doctorId ?? '')}`, {
            signal,
            alertOnError: false,
          }),
        ),
      enabled: Boolean(doctorId),
      staleTime: 5 * 60_000,
      retry: false,
    }),
  );
}

/** The visit's `.ics` file (a plain link: the browser downloads it with the session cookie). */
export function calendarFileUrl(appointmentId: string): string {
  return `${appConfig.apiBaseUrl}/appointments/${encodeURIComponent(appointmentId)}/calendar.ics`;
}
