import { requiredConsentKinds } from '@telemedicina/shared/consents';
import type { Language } from '@telemedicina/shared/i18n';
import type { Database } from '../../db/client.js';
import { languageOf } from '../../lib/language.js';
import type { ServiceContext } from '../context.js';
import { appLink } from '../email/email.service.js';
import { renderEmail } from '../email/templates.js';
import { findUserById } from '../identity/users.repository.js';
import { hasNotificationWith } from '../notifications/notifications.repository.js';
import { storeNotifications } from '../notifications/notifications.service.js';
import { loadIdentitySettings } from '../settings/settings.service.js';
import { consentStateOf } from './consents.presenter.js';
import { listDocumentsWithCurrent, listPatientSignatures } from './consents.repository.js';

/** A booked appointment as the consent request needs it. */
export interface AppointmentNeedingConsent {
  id: string;
  patientUserId: string;
  startsAt: Date;
}

/**
 * After a booking (by the patient or by reception), in its transaction (`db`): for each required
 * consent (telemedicine) whose current version the patient has not signed — never signed, an
 * earlier version, or withdrawn — tells the patient in the app and by email, in their language,
 * with the portal's signing page. Once per document version and appointment: a request already
 * sent for them is not sent again. Returns what to start after the commit (delivery, pushes).
 */
export async function requestConsentsAtBooking(
  ctx: ServiceContext,
  db: Database,
  appointment: AppointmentNeedingConsent,
): Promise<() => void> {
  const required = (await listDocumentsWithCurrent(db)).filter((row) =>
    requiredConsentKinds.includes(row.document.kind),
  );
  if (required.length === 0) {
    return () => undefined;
  }
  const signatures = await listPatientSignatures(db, appointment.patientUserId);
  const unsigned = required.filter((row) => {
    const latest = signatures.find((record) => record.document.id === row.document.id);
    return consentStateOf(row.current, latest) !== 'signed';
  });
  const due: typeof unsigned = [];
  for (const row of unsigned) {
    const subject = { appointmentId: appointment.id, versionId: row.current.id };
    if (!(await hasNotificationWith(db, appointment.patientUserId, 'consent.toSign', subject))) {
      due.push(row);
    }
  }
  const patient = due.length === 0 ? null : await findUserById(db, appointment.patientUserId);
  if (patient === null) {
    return () => undefined;
  }
  const language: Language = languageOf(patient);
  const { clinicName } = await loadIdentitySettings(db, ctx.config);
  const now = ctx.now();
  const deliveries: (() => void)[] = [];
  for (const row of due) {
    const stored = await ctx.mailer.store(db, {
      to: patient.email,
      language,
      template: 'consent-to-sign',
      ...renderEmail(
        {
          template: 'consent-to-sign',
          data: {
            name: patient.name,
            title: language === 'en' ? row.current.titleEn : row.current.titleEs,
            startsAt: appointment.startsAt,
            timeZone: patient.timeZone,
            link: appLink(ctx, `/portal/consents/${row.document.id}`),
          },
        },
        language,
        clinicName,
      ),
    });
    deliveries.push(() => stored.deliver());
  }
  const push = await storeNotifications(
    ctx,
    db,
    due.map((row) => ({
      userId: appointment.patientUserId,
      kind: 'consent.toSign' as const,
      data: {
        appointmentId: appointment.id,
        startsAt: appointment.startsAt.toISOString(),
        documentId: row.document.id,
        versionId: row.current.id,
      },
      createdAt: now,
    })),
  );
  return () => {
    for (const deliver of deliveries) {
      deliver();
    }
    push();
  };
}
