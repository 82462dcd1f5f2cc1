import { Center, Loader } from '@mantine/core';
import type { RouteObject } from 'react-router';
import { ServerErrorPage } from '../features/errors';
import { NotFoundRoute } from './NotFoundRoute';
import { RequireSession } from './RequireSession';
import { RootLayout } from './RootLayout';
import { RouteError } from './RouteError';

const auth = () => import('../features/auth');
const profile = () => import('../features/profile');
const adminUsers = () => import('../features/admin-users');
const adminRoles = () => import('../features/admin-roles');
const adminSpecialties = () => import('../features/admin-specialties');
const adminAudit = () => import('../features/admin-audit');
const adminSettings = () => import('../features/admin-settings');
const doctors = () => import('../features/doctors');
const appointments = () => import('../features/appointments');
const visit = () => import('../features/visit');
const doctorSchedule = () => import('../features/doctor-schedule');
const agenda = () => import('../features/agenda');
const records = () => import('../features/records');
const prescriptions = () => import('../features/prescriptions');
const consents = () => import('../features/consents');
const connectedApps = () => import('../features/connected-apps');
const questionnaireBuilder = () => import('../features/questionnaire-builder');

/**
 * The application's routes (specification §2). The authentication area (empty path) and the admin
 * area are separate chunks loaded on demand; the two error pages are part of the first download so
 * they always show. The admin area is guarded (`RequireSession`): signed out → `/?returnTo=<path>`.
 */
export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    errorElement: <RouteError />,
    hydrateFallbackElement: (
      <Center h="100dvh">
        <Loader />
      </Center>
    ),
    children: [
      {
        path: '',
        lazy: async () => ({ Component: (await auth()).AuthLayout }),
        children: [
          { index: true, lazy: async () => ({ Component: (await auth()).SignInPage }) },
          { path: 'register', lazy: async () => ({ Component: (await auth()).RegisterPage }) },
          { path: 'verify-email', lazy: async () => ({ Component: (await auth()).VerifyEmailPage }) },
          { path: 'forgot-password', lazy: async () => ({ Component: (await auth()).ForgotPasswordPage }) },
          { path: 'reset-password', lazy: async () => ({ Component: (await auth()).ResetPasswordPage }) },
          {
            path: 'accept-invitation',
            lazy: async () => ({ Component: (await auth()).AcceptInvitationPage }),
          },
        ],
      },
      {
        path: 'admin',
        element: <RequireSession />,
        children: [
          {
            lazy: async () => ({ Component: (await import('./AdminShell')).AdminShell }),
            children: [
              {
                index: true,
                lazy: async () => {
                  const route = await import('./HomeRoute');
                  // The home page's module too (a failure is left to the page's own lazy load).
                  await route.loadHomePage().catch(() => undefined);
                  return { Component: route.HomeRoute };
                },
              },
              // The component showcase is a developer's page: registered only in development, so the
              // production build leaves it out (Vite replaces `import.meta.env.DEV` with false there).
              ...(import.meta.env.DEV
                ? [
                    {
                      path: 'components',
                      lazy: async () => ({
                        Component: (await import('../features/admin/showcase')).ComponentsShowcasePage,
                      }),
                    },
                  ]
                : []),
              {
                path: 'profile',
                lazy: async () => ({ Component: (await profile()).ProfileLayout }),
                children: [
                  { index: true, lazy: async () => ({ Component: (await profile()).ProfileDetailsPage }) },
                  { path: 'photo', lazy: async () => ({ Component: (await profile()).ProfilePhotoPage }) },
                  {
                    path: 'security',
                    lazy: async () => ({ Component: (await profile()).ProfileSecurityPage }),
                  },
                  {
                    path: 'connected-apps',
                    lazy: async () => ({ Component: (await connectedApps()).ConnectedAppsPage }),
                  },
                ],
              },
              {
                path: 'connected-apps/authorize/:uid',
                lazy: async () => ({ Component: (await connectedApps()).AuthorizeAppPage }),
              },
              {
                path: 'outbox',
                lazy: async () => ({ Component: (await import('../features/outbox')).OutboxPage }),
              },
              { path: 'users', lazy: async () => ({ Component: (await adminUsers()).UsersPage }) },
              { path: 'users/:id', lazy: async () => ({ Component: (await adminUsers()).UserDetailPage }) },
              { path: 'roles', lazy: async () => ({ Component: (await adminRoles()).RolesPage }) },
              { path: 'roles/:id', lazy: async () => ({ Component: (await adminRoles()).RoleEditorPage }) },
              {
                path: 'specialties',
                lazy: async () => ({ Component: (await adminSpecialties()).SpecialtiesPage }),
              },
              { path: 'doctors', lazy: async () => ({ Component: (await doctors()).DoctorsPage }) },
              { path: 'doctors/:id', lazy: async () => ({ Component: (await doctors()).DoctorPage }) },
              {
                path: 'doctors/:id/schedule',
                lazy: async () => ({ Component: (await doctorSchedule()).DoctorSchedulePage }),
              },
              {
                path: 'schedule',
                lazy: async () => ({ Component: (await doctorSchedule()).MySchedulePage }),
              },
              { path: 'agenda', lazy: async () => ({ Component: (await agenda()).AgendaPage }) },
              {
                path: 'appointments',
                lazy: async () => ({ Component: (await appointments()).AppointmentsPage }),
              },
              {
                path: 'appointments/:id',
                lazy: async () => ({ Component: (await import('./AppointmentRoute')).AppointmentRoute }),
              },
              {
                path: 'appointments/:id/note',
                lazy: async () => ({ Component: (await import('../features/notes')).NotePage }),
              },
              {
                path: 'visits/:appointmentId',
                lazy: async () => ({ Component: (await import('./VisitRoute')).VisitRoute }),
              },
              {
                path: 'visits/:appointmentId/check',
                lazy: async () => ({ Component: (await visit()).DeviceCheckPage }),
              },
              {
                path: 'waiting-room',
                lazy: async () => ({ Component: (await import('./WaitingRoomRoute')).WaitingRoomRoute }),
              },
              {
                path: 'patients/:patientId/prescriptions/new',
                lazy: async () => ({ Component: (await prescriptions()).NewPrescriptionPage }),
              },
              {
                path: 'prescriptions/:id',
                lazy: async () => ({ Component: (await prescriptions()).PrescriptionPage }),
              },
              {
                path: 'intake/:id',
                lazy: async () => ({ Component: (await import('../features/intake')).IntakeFormPage }),
              },
              { path: 'patients', lazy: async () => ({ Component: (await records()).PatientsPage }) },
              {
                path: 'patients/:patientId',
                lazy: async () => ({ Component: (await import('./ChartRoutes')).ChartRoute }),
              },
              {
                path: 'my-record',
                lazy: async () => ({ Component: (await import('./ChartRoutes')).MyRecordRoute }),
              },
              {
                path: 'profile/record-access',
                lazy: async () => ({ Component: (await records()).RecordAccessPage }),
              },
              { path: 'audit', lazy: async () => ({ Component: (await adminAudit()).AuditLogPage }) },
              { path: 'apps', lazy: async () => ({ Component: (await connectedApps()).RegisteredAppsPage }) },
              {
                path: 'questionnaires',
                lazy: async () => ({ Component: (await questionnaireBuilder()).QuestionnairesPage }),
              },
              {
                path: 'questionnaires/:id',
                lazy: async () => ({
                  Component: (await import('./QuestionnaireBuilderRoute')).QuestionnaireEditorRoute,
                }),
              },
              {
                path: 'consent-documents',
                lazy: async () => ({ Component: (await consents()).ConsentDocumentsAdminPage }),
              },
              {
                path: 'consent-documents/:id',
                lazy: async () => ({ Component: (await consents()).ConsentDocumentEditorPage }),
              },
              {
                path: 'settings',
                lazy: async () => ({ Component: (await adminSettings()).ClinicSettingsPage }),
              },
            ],
          },
        ],
      },
      // The patient portal: the patient's pages in their own light frame. The pages are
      // the same feature pages the admin area draws; staff opening these addresses go to /admin.
      {
        path: 'portal',
        element: <RequireSession />,
        children: [
          {
            lazy: async () => ({ Component: (await import('./PortalShell')).PortalShell }),
            children: [
              {
                index: true,
                lazy: async () => ({ Component: (await import('./PortalHomeRoute')).PortalHomeRoute }),
              },
              { path: 'doctors', lazy: async () => ({ Component: (await doctors()).DoctorsPage }) },
              { path: 'doctors/:id', lazy: async () => ({ Component: (await doctors()).DoctorPage }) },
              {
                path: 'appointments',
                lazy: async () => ({ Component: (await appointments()).AppointmentsPage }),
              },
              {
                path: 'appointments/:id',
                lazy: async () => ({ Component: (await import('./AppointmentRoute')).AppointmentRoute }),
              },
              {
                path: 'appointments/:id/note',
                lazy: async () => ({ Component: (await import('../features/notes')).NotePage }),
              },
              {
                path: 'visits/:appointmentId',
                lazy: async () => ({ Component: (await import('./VisitRoute')).VisitRoute }),
              },
              {
                path: 'visits/:appointmentId/check',
                lazy: async () => ({ Component: (await visit()).DeviceCheckPage }),
              },
              {
                path: 'prescriptions/:id',
                lazy: async () => ({ Component: (await prescriptions()).PrescriptionPage }),
              },
              {
                path: 'intake/:id',
                lazy: async () => ({ Component: (await import('../features/intake')).IntakeFormPage }),
              },
              { path: 'consents', lazy: async () => ({ Component: (await consents()).MyConsentsPage }) },
              {
                path: 'consents/:documentId',
                lazy: async () => ({ Component: (await consents()).ConsentSignPage }),
              },
              {
                path: 'my-record',
                lazy: async () => ({ Component: (await import('./ChartRoutes')).MyRecordRoute }),
              },
              {
                path: 'profile',
                lazy: async () => ({ Component: (await profile()).ProfileLayout }),
                children: [
                  { index: true, lazy: async () => ({ Component: (await profile()).ProfileDetailsPage }) },
                  { path: 'photo', lazy: async () => ({ Component: (await profile()).ProfilePhotoPage }) },
                  {
                    path: 'security',
                    lazy: async () => ({ Component: (await profile()).ProfileSecurityPage }),
                  },
                  {
                    path: 'connected-apps',
                    lazy: async () => ({ Component: (await connectedApps()).ConnectedAppsPage }),
                  },
                ],
              },
              {
                path: 'connected-apps/authorize/:uid',
                lazy: async () => ({ Component: (await connectedApps()).AuthorizeAppPage }),
              },
              {
                path: 'profile/record-access',
                lazy: async () => ({ Component: (await records()).RecordAccessPage }),
              },
            ],
          },
        ],
      },
      { path: 'guest', lazy: async () => ({ Component: (await visit()).GuestPage }) },
      { path: 'verify', lazy: async () => ({ Component: (await prescriptions()).VerifyPage }) },
      { path: 'verify/:code', lazy: async () => ({ Component: (await prescriptions()).VerifyPage }) },
      {
        path: 'verify-consent/:code',
        lazy: async () => ({ Component: (await consents()).ConsentVerifyPage }),
      },
      { path: 'error-500', Component: ServerErrorPage },
      // Unknown addresses: the 404 page, inside the app's frame for someone signed in.
      { path: '*', Component: NotFoundRoute },
    ],
  },
];
