import { adminUserPageSchema, specialtyPageSchema } from '@telemedicina/shared/admin';
import { appointmentSchema, type Appointment } from '@telemedicina/shared/appointment';
import type { BookAppointmentRequest } from '@telemedicina/shared/booking';
import {
  doctorDirectoryPageSchema,
  doctorProfileSchema,
  type DoctorDirectoryPage,
  type DoctorDirectoryQuery,
  type DoctorProfile,
} from '@telemedicina/shared/doctors';
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { parseAnswer } from '../../../lib/parse-answer';
import { queryKeys } from '../../../lib/query-keys';

/** What the directory asks for (the list's URL state). */
export type DirectoryRequest = Omit<
  DoctorDirectoryQuery,
  'q' | 'specialtyId' | 'language' | 'acceptsNewPatients'
> & {
  q: string | undefined;
  specialtyId: string | undefined;
  language: string | undefined;
  acceptsNewPatients: 'true' | undefined;
};

/** `GET /doctors?page&pageSize&q&specialtyId&language&acceptsNewPatients&sort&order` → one page. */
export async function getDirectory(
  request: DirectoryRequest,
  signal?: AbortSignal,
): Promise<DoctorDirectoryPage> {
  const body = await api.get<unknown>('/doctors', { query: { ...request }, signal, alertOnError: false });
  return parseAnswer(doctorDirectoryPageSchema, body);
}

export function useDirectory(request: DirectoryRequest) {
  return useQuery(
    queryOptions({
      queryKey: queryKeys.doctors.list(request),
      queryFn: ({ signal }) => getDirectory(request, signal),
      retry: false,
      placeholderData: keepPreviousData,
    }),
  );
}

/** `GET /doctors/:id` → the doctor's public profile. */
export async function getDoctor(id: string, signal?: AbortSignal): Promise<DoctorProfile> {
  const body = await api.get<unknown>(`/doctors/${encodeURIComponent(id)}`, { signal, alertOnError: false });
  return parseAnswer(doctorProfileSchema, body);
}

export function useDoctor(id: string) {
  return useQuery(
    queryOptions({
      queryKey: queryKeys.doctors.detail(id),
      queryFn: ({ signal }) => getDoctor(id, signal),
      retry: false,
    }),
  );
}

/** The active specialties for the directory's filter (`GET /specialties?active=true`, up to 100). */
export function useSpecialtyOptions(language: 'es' | 'en') {
  return useQuery(
    queryOptions({
      queryKey: queryKeys.specialtyOptions(language),
      queryFn: async ({ signal }) => {
        const body = await api.get<unknown>('/specialties', {
          query: { page: 1, pageSize: 100, active: 'true', sort: 'name', order: 'asc', language },
          signal,
          alertOnError: false,
          showSpinner: false,
        });
        return parseAnswer(specialtyPageSchema, body).data;
      },
      retry: false,
      staleTime: 60_000,
    }),
  );
}

/** Patients matching a text, for staff booking on someone's behalf (`GET /users?role=patient&q=`). */
export function usePatientOptions(text: string, isEnabled: boolean) {
  return useQuery(
    queryOptions({
      queryKey: queryKeys.patientOptions(text),
      queryFn: async ({ signal }) => {
        const body = await api.get<unknown>('/users', {
          query: { page: 1, pageSize: 20, role: 'patient', q: text || undefined, sort: 'name', order: 'asc' },
          signal,
          alertOnError: false,
          showSpinner: false,
        });
        return parseAnswer(adminUserPageSchema, body).data;
      },
      enabled: isEnabled,
      retry: false,
      placeholderData: keepPreviousData,
    }),
  );
}

/** `POST /appointments` → 201 the appointment (409 SLOT_TAKEN with `details.nextSlots`). */
export async function bookAppointment(request: BookAppointmentRequest): Promise<Appointment> {
  const body = await api.post<unknown>('/appointments', request, { alertOnError: false });
  return parseAnswer(appointmentSchema, body);
}

export function useBookAppointment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: bookAppointment,
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.doctorSlots.all() }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.doctors.all() }),
  });
}
