import type { ClinicSettings, PublicClinicSettings } from '@telemedicina/shared/clinic-settings';

/** The settings as `settings.manage` holders see them (ICE credentials included: they edit them). */
export function presentClinicSettings(settings: ClinicSettings): ClinicSettings {
  return {
    clinic: { ...settings.clinic },
    sessions: { ...settings.sessions },
    security: { mfaRequiredRoles: [...settings.security.mfaRequiredRoles] },
    booking: { ...settings.booking, visitLengths: [...settings.booking.visitLengths] },
    uploads: { ...settings.uploads, allowedKinds: [...settings.uploads.allowedKinds] },
    video: { iceServers: settings.video.iceServers.map((server) => ({ ...server, urls: [...server.urls] })) },
    privacy: { canStaffReadVisitReasons: settings.privacy.canStaffReadVisitReasons },
  };
}

/** What any browser may know (`GET /config`): no security, session or video details. */
export function presentPublicClinicSettings(settings: ClinicSettings): PublicClinicSettings {
  return {
    name: settings.clinic.name,
    logoUrl: settings.clinic.logoUrl,
    timeZone: settings.clinic.timeZone,
    language: settings.clinic.language,
    uploads: { ...settings.uploads, allowedKinds: [...settings.uploads.allowedKinds] },
    visitLengths: [...settings.booking.visitLengths],
  };
}
