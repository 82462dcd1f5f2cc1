import { appointmentPageSchema, type AppointmentPage } from '@telemedicina/shared/appointment';
import { doctorProfileSchema, type DoctorProfile } from '@telemedicina/shared/doctors';
import { chartNoteListSchema, type ChartNoteList } from '@telemedicina/shared/notes';
import { prescriptionListSchema, type PrescriptionList } from '@telemedicina/shared/prescriptions';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { appConfig } from '../../../lib/config';
import { parseAnswer } from '../../../lib/parse-answer';
import { queryKeys } from '../../../lib/query-keys';
import {
  portalPastLimit,
  portalWindowNow,
  requestPortalDoctor,
  requestPortalNotes,
  requestPortalPast,
  requestPortalPrescriptions,
} from './portal-boot';
import { requestUpcomingAppointments } from '../../../lib/upcoming-appointments';

/**
 * The patient's visits from a little before now, soonest first (the server answers only their own).
 * Under `['appointments', 'list']`, so booking, cancelling or rescheduling refreshes it. The window
 * is the boot's while it stands (`portal-boot.ts`), so the answers asked as the page booted are found.
 */
export function usePortalUpcoming() {
  const [from] = useState(() => portalWindowNow().from);
  return useQuery(
    queryOptions({
      queryKey: queryKeys.appointments.portalUpcoming(from),
      queryFn: async ({ signal }): Promise<AppointmentPage> =>
        parseAnswer(appointmentPageSchema, await requestUpcomingAppointments(from, signal)),
      staleTime: 30_000,
      retry: false,
    }),
  );
}

/** The patient's last completed visits, newest first. */
export function usePortalPast(limit = portalPastLimit) {
  const [to] = useState(() => portalWindowNow().to);
  return useQuery(
    queryOptions({
      queryKey: queryKeys.appointments.portalPast(to, limit),
      queryFn: async ({ signal }): Promise<AppointmentPage> =>
        parseAnswer(appointmentPageSchema, await requestPortalPast(to, limit, signal)),
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
        parseAnswer(prescriptionListSchema, await requestPortalPrescriptions(patientId ?? '', signal)),
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
        parseAnswer(chartNoteListSchema, await requestPortalNotes(patientId ?? '', signal)),
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
        parseAnswer(doctorProfileSchema, await requestPortalDoctor(doctorId ?? '', signal)),
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
