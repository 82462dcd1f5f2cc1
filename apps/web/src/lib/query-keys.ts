/**
 * Every TanStack Query key of the web client, in one place.
 *
 * Keys are hierarchical: invalidating a prefix refreshes every query below it. Several features show
 * the same server data (booking, the agenda and the doctor's schedule all read a doctor's free
 * slots; a prescription or a document changes what the chart shows), so a feature that changes data
 * another feature reads names that data here instead of repeating the other's string — features
 * still never import each other. Each entry is a function so a key is always a fresh tuple; `all`
 * (or `lists`) is the prefix to invalidate, the others are the keys queries are stored under.
 */
export const queryKeys = {
  /** The signed-in user (`GET /me`); `clearSessionData` keeps exactly this key on sign-out. */
  me: () => ['me'] as const,
  publicConfig: () => ['public-config'] as const,
  globalSearch: (q: string) => ['global-search', q] as const,
  invitation: (token: string) => ['invitation', token] as const,
  verifyEmail: (token: string) => ['verify-email', token] as const,
  mySessions: () => ['my-sessions'] as const,
  dashboard: (from: string, to: string) => ['admin-dashboard', from, to] as const,
  doctorOptions: () => ['doctor-options'] as const,
  specialtyOptions: (language: string) => ['specialty-options', language] as const,
  patientOptions: (text: string) => ['patient-options', text] as const,
  diagnoses: (text: string, limit: number) => ['diagnoses', text, limit] as const,
  visitContext: (appointmentId: string | null, patientId: string | null) =>
    ['visit-context', appointmentId, patientId] as const,

  /** A doctor's free times: read by booking's slot picker and the agenda; changed by bookings and schedules. */
  doctorSlots: {
    all: () => ['doctor-slots'] as const,
    window: (request: object) => ['doctor-slots', request] as const,
    agenda: (request: object | null) => ['doctor-slots', 'agenda', request] as const,
  },
  doctors: {
    all: () => ['doctors'] as const,
    lists: () => ['doctors', 'list'] as const,
    list: (request: object) => ['doctors', 'list', request] as const,
    detail: (id: string | null) => ['doctors', 'detail', id] as const,
    profile: (id: string) => ['doctors', 'profile', id] as const,
  },
  availability: {
    rules: (doctorId: string) => ['availability', doctorId, 'rules'] as const,
    exceptions: (doctorId: string) => ['availability', doctorId, 'exceptions'] as const,
    exceptionsIn: (doctorId: string, window: object) =>
      ['availability', doctorId, 'exceptions', window] as const,
  },
  waitlist: {
    entry: (doctorId: string) => ['waitlist', doctorId] as const,
    nextAppointment: (doctorId: string) => ['waitlist', doctorId, 'next-appointment'] as const,
  },
  appointments: {
    all: () => ['appointments'] as const,
    lists: () => ['appointments', 'list'] as const,
    list: (request: object) => ['appointments', 'list', request] as const,
    home: (from: string) => ['appointments', 'list', 'home', from] as const,
    portalUpcoming: (from: string) => ['appointments', 'list', 'portal', 'upcoming', from] as const,
    portalPast: (to: string, limit: number) => ['appointments', 'list', 'portal', 'past', to, limit] as const,
    detail: (id: string) => ['appointments', 'detail', id] as const,
    clinicDays: () => ['appointments', 'clinic-day'] as const,
    clinicDay: (date: string) => ['appointments', 'clinic-day', date] as const,
    agenda: (request: object | null) => ['appointments', 'agenda', request] as const,
    note: (appointmentId: string) => ['appointments', appointmentId, 'note'] as const,
    vitals: (appointmentId: string) => ['appointments', appointmentId, 'vitals'] as const,
    intakeForms: (appointmentId: string) => ['appointments', appointmentId, 'intake-forms'] as const,
  },
  /** Everything about one patient starts with `patients.one(id)` (chart, notes): invalidate it after a change. */
  patients: {
    one: (patientId: string) => ['patients', patientId] as const,
    chart: (patientId: string, includeRemoved: boolean) =>
      ['patients', patientId, 'chart', includeRemoved] as const,
    notes: (patientId: string) => ['patients', patientId, 'notes'] as const,
    intakeForms: (patientId: string) => ['patients', patientId, 'intake-forms'] as const,
    list: (request: object) => ['patients', 'list', request] as const,
    lookup: (text: string) => ['patients', 'lookup', text] as const,
  },
  recordAccess: (request: object) => ['record-access', request] as const,
  intakeResponse: (id: string) => ['intake-response', id] as const,
  notes: {
    ofPatient: (patientId: string) => ['notes', 'patient', patientId] as const,
  },
  consents: {
    ofPatient: (patientId: string) => ['consents', 'patient', patientId] as const,
    document: (id: string) => ['consents', 'document', id] as const,
    verification: (code: string) => ['consent-verification', code] as const,
    admin: () => ['consents', 'admin'] as const,
  },
  prescriptions: {
    detail: (id: string) => ['prescriptions', id] as const,
    ofPatient: (patientId: string) => ['prescriptions', 'patient', patientId] as const,
    verification: (code: string) => ['prescription-verification', code] as const,
  },
  visit: {
    state: (appointmentId: string) => ['visit', appointmentId] as const,
    history: (appointmentId: string) => ['visit', appointmentId, 'history'] as const,
    guests: (appointmentId: string) => ['visit', appointmentId, 'guests'] as const,
  },
  waitingRoom: {
    ofDoctor: (doctorId: string) => ['waiting-room', doctorId] as const,
    doctors: () => ['waiting-room', 'doctors'] as const,
  },
  notifications: {
    latest: () => ['notifications', 'latest'] as const,
  },
  auditEvents: {
    page: (queryString: string) => ['audit-events', queryString] as const,
    facets: () => ['audit-events', 'facets'] as const,
  },
  outbox: {
    page: (page: number, pageSize: number, q: string | undefined, status: string) =>
      ['outbox', page, pageSize, q, status] as const,
    message: (id: string) => ['outbox-message', id] as const,
  },
  clinicSettings: {
    all: () => ['clinic-settings'] as const,
    roles: () => ['clinic-settings', 'roles'] as const,
  },
  /** The questionnaire builder: the list, one questionnaire, the specialties and doctors to assign to. */
  questionnaireBuilder: {
    all: () => ['questionnaire-builder'] as const,
    list: () => ['questionnaire-builder', 'list'] as const,
    detail: (id: string) => ['questionnaire-builder', 'detail', id] as const,
    targets: () => ['questionnaire-builder', 'targets'] as const,
  },
  adminSpecialties: {
    all: () => ['admin-specialties'] as const,
    list: (request: object) => ['admin-specialties', 'list', request] as const,
  },
  adminRoles: {
    lists: () => ['admin-roles', 'list'] as const,
    list: (request: object) => ['admin-roles', 'list', request] as const,
    detail: (id: string) => ['admin-roles', 'detail', id] as const,
  },
  adminUsers: {
    all: () => ['admin-users'] as const,
    lists: () => ['admin-users', 'list'] as const,
    list: (request: object) => ['admin-users', 'list', request] as const,
    detail: (id: string) => ['admin-users', 'detail', id] as const,
    roleOptions: () => ['admin-users', 'role-options'] as const,
  },
  /** SMART apps: the consent screen's request, the person's connected apps, the registered apps. */
  connectedApps: {
    interaction: (uid: string) => ['connected-apps', 'interaction', uid] as const,
    mine: () => ['connected-apps', 'mine'] as const,
    registered: () => ['connected-apps', 'registered'] as const,
  },
};
