/**
 * The permission catalogue: every permission the server can require, grouped
 * by area and described in both languages (the roles screen shows these).
 * Roles are bundles of these names; the server enforces them on every
 * endpoint and socket event, the client only shows or hides with them.
 */
export const permissionCatalogue = {
  'dashboard.admin': {
    area: 'administration',
    es: 'Ver el panel de la clínica',
    en: 'View the clinic dashboard',
  },
  'users.read': { area: 'administration', es: 'Ver usuarios', en: 'View users' },
  'users.manage': {
    area: 'administration',
    es: 'Invitar, editar, desactivar y desbloquear usuarios',
    en: 'Invite, edit, disable and unlock users',
  },
  'roles.manage': {
    area: 'administration',
    es: 'Crear y editar roles y permisos',
    en: 'Create and edit roles and permissions',
  },
  'specialties.manage': { area: 'administration', es: 'Gestionar especialidades', en: 'Manage specialties' },
  'settings.manage': {
    area: 'administration',
    es: 'Cambiar la configuración de la clínica',
    en: 'Change clinic settings',
  },
  'audit.read': { area: 'administration', es: 'Ver el registro de auditoría', en: 'View the audit log' },
  'outbox.read': { area: 'administration', es: 'Ver los correos enviados', en: 'View sent emails' },
  'doctors.read': { area: 'doctors', es: 'Ver el directorio de médicos', en: 'View the doctors directory' },
  'doctors.manage': {
    area: 'doctors',
    es: 'Editar el perfil de cualquier médico',
    en: "Edit any doctor's profile",
  },
  'doctors.profile.own': {
    area: 'doctors',
    es: 'Editar el propio perfil de médico',
    en: 'Edit own doctor profile',
  },
  'availability.manage.own': {
    area: 'doctors',
    es: 'Gestionar la propia disponibilidad',
    en: 'Manage own availability',
  },
  'availability.manage.any': {
    area: 'doctors',
    es: 'Gestionar la disponibilidad de cualquier médico',
    en: "Manage any doctor's availability",
  },
  'appointments.read.own': { area: 'appointments', es: 'Ver las propias citas', en: 'View own appointments' },
  'appointments.read.any': { area: 'appointments', es: 'Ver todas las citas', en: 'View all appointments' },
  'appointments.book.self': {
    area: 'appointments',
    es: 'Reservar citas para uno mismo',
    en: 'Book appointments for oneself',
  },
  'appointments.book.any': {
    area: 'appointments',
    es: 'Reservar citas para pacientes',
    en: 'Book appointments for patients',
  },
  'appointments.manage.any': {
    area: 'appointments',
    es: 'Reprogramar y cancelar cualquier cita',
    en: 'Reschedule and cancel any appointment',
  },
  'visits.join': { area: 'visits', es: 'Entrar a las propias videoconsultas', en: 'Join own video visits' },
  'visits.host': {
    area: 'visits',
    es: 'Atender videoconsultas y admitir pacientes',
    en: 'Host video visits and admit patients',
  },
  'visits.invite': {
    area: 'visits',
    es: 'Invitar a intérpretes o acompañantes',
    en: 'Invite interpreters or companions',
  },
  'patients.register': { area: 'patients', es: 'Registrar pacientes', en: 'Register patients' },
  'patients.read.admin': {
    area: 'patients',
    es: 'Ver datos administrativos de pacientes',
    en: 'View administrative patient data',
  },
  'records.read.own': {
    area: 'records',
    es: 'Ver la propia historia clínica',
    en: 'View own medical record',
  },
  'records.read': {
    area: 'records',
    es: 'Ver historias clínicas de los propios pacientes',
    en: "View own patients' records",
  },
  'records.write': { area: 'records', es: 'Escribir notas clínicas', en: 'Write clinical notes' },
  'records.emergency': {
    area: 'records',
    es: 'Acceso de emergencia justificado a otras historias',
    en: 'Reasoned emergency access to other records',
  },
  'records.export': {
    area: 'records',
    es: 'Exportar la historia de un paciente',
    en: "Export a patient's record",
  },
  'prescriptions.write': { area: 'records', es: 'Emitir recetas', en: 'Write prescriptions' },
  'messages.send': { area: 'messages', es: 'Enviar mensajes', en: 'Send messages' },
  'documents.upload': { area: 'records', es: 'Subir documentos', en: 'Upload documents' },
} as const satisfies Record<string, { area: string; es: string; en: string }>;

export type Permission = keyof typeof permissionCatalogue;
export const permissions = Object.keys(permissionCatalogue) as Permission[];

export const permissionAreas = [
  'administration',
  'doctors',
  'appointments',
  'visits',
  'patients',
  'records',
  'messages',
] as const;
export type PermissionArea = (typeof permissionAreas)[number];

/** True when `value` names a permission of the catalogue. */
export function isPermission(value: unknown): value is Permission {
  return typeof value === 'string' && Object.hasOwn(permissionCatalogue, value);
}

/** The four roles every installation starts with (keys are stable; names are shown translated). */
export const systemRoles = {
  admin: {
    es: 'Administrador',
    en: 'Administrator',
    permissions: [
      'dashboard.admin',
      'users.read',
      'users.manage',
      'roles.manage',
      'specialties.manage',
      'settings.manage',
      'audit.read',
      'outbox.read',
      'doctors.read',
      'doctors.manage',
      'availability.manage.any',
      'appointments.read.any',
      'appointments.manage.any',
      'patients.read.admin',
      'records.export',
    ],
  },
  doctor: {
    es: 'Médico',
    en: 'Doctor',
    permissions: [
      'doctors.read',
      'doctors.profile.own',
      'availability.manage.own',
      'appointments.read.own',
      'visits.join',
      'visits.host',
      'visits.invite',
      'records.read',
      'records.write',
      'records.emergency',
      'prescriptions.write',
      'messages.send',
      'documents.upload',
    ],
  },
  staff: {
    es: 'Recepción',
    en: 'Reception',
    permissions: [
      'doctors.read',
      'appointments.read.any',
      'appointments.book.any',
      'appointments.manage.any',
      'patients.register',
      'patients.read.admin',
      'users.read',
      'visits.invite',
      'messages.send',
    ],
  },
  patient: {
    es: 'Paciente',
    en: 'Patient',
    permissions: [
      'doctors.read',
      'appointments.book.self',
      'appointments.read.own',
      'visits.join',
      'visits.invite',
      'records.read.own',
      'messages.send',
      'documents.upload',
    ],
  },
} as const satisfies Record<string, { es: string; en: string; permissions: readonly Permission[] }>;

export type SystemRoleKey = keyof typeof systemRoles;
