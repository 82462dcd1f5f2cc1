import type { QuestionnaireResponse } from '@medplum/fhirtypes';
import type { Language } from '@telemedicina/shared/i18n';
import { shippedInstruments } from '@telemedicina/shared/intake-instruments';
import { instruments } from '@telemedicina/shared/intake-logic';
import type { Database } from '../../db/client.js';
import { languageOf } from '../../lib/language.js';
import type { ServiceContext } from '../context.js';
import { findSpecialtyIdsOf } from '../doctors/doctors.repository.js';
import { appLink } from '../email/email.service.js';
import { renderEmail } from '../email/templates.js';
import { findUserById } from '../identity/users.repository.js';
import { storeNotifications } from '../notifications/notifications.service.js';
import { loadIdentitySettings } from '../settings/settings.service.js';
import {
  findDueVersions,
  findLatestVersion,
  findQuestionnaireBySystemKey,
  insertNextVersion,
  insertQuestionnaire,
  insertAssignment,
  insertResponses,
  lockShippedInstruments,
  type QuestionnaireRow,
} from './questionnaires.repository.js';

/**
 * The scored instruments every install has (PHQ-9, GAD-7): created on first start and given a new
 * version when the shipped wording changes (the versions already answered stay as they were).
 * Idempotent; the seed calls it on every start.
 */
export async function ensureShippedInstruments(
  database: Database,
  now: Date,
): Promise<Record<(typeof instruments)[number], QuestionnaireRow>> {
  return database.transaction(async (db) => {
    await lockShippedInstruments(db);
    const out = {} as Record<(typeof instruments)[number], QuestionnaireRow>;
    for (const instrument of instruments) {
      const resource = shippedInstruments[instrument];
      const questionnaire =
        (await findQuestionnaireBySystemKey(db, instrument)) ??
        (await insertQuestionnaire(db, {
          systemKey: instrument,
          instrument,
          createdAt: now,
          updatedAt: now,
        }));
      const latest = await findLatestVersion(db, questionnaire.id);
      const { version: _ignored, ...latestContent } = latest?.resource ?? {};
      if (latest === null || JSON.stringify(latestContent) !== JSON.stringify(resource)) {
        await insertNextVersion(db, questionnaire.id, resource, now, null);
      }
      out[instrument] = questionnaire;
    }
    return out;
  });
}

/** The demo clinic: PHQ-9 due for appointments with the given specialty (Psiquiatría in the demo seed). */
export async function seedDemoQuestionnaires(db: Database, specialtyId: string | undefined): Promise<void> {
  const phq9 = await findQuestionnaireBySystemKey(db, 'phq9');
  if (phq9 !== null && specialtyId !== undefined) {
    await insertAssignment(db, { questionnaireId: phq9.id, specialtyId });
  }
}

/** An appointment as the forms due for it need it. */
export interface BookedAppointment {
  id: string;
  doctorUserId: string;
  patientUserId: string;
  startsAt: Date;
}

/**
 * After a booking, in its transaction (`db`): creates an in-progress response for every
 * questionnaire attached to the doctor or one of their specialties (the latest version, which the
 * response then keeps), and tells the patient in the app and by email in their language. Returns
 * how many forms it created (the booking then queues their 24 h reminder) and what to start after
 * the commit (delivery, pushes).
 */
export async function createDueIntakeForms(
  ctx: ServiceContext,
  db: Database,
  appointment: BookedAppointment,
): Promise<{ count: number; afterCommit: () => void }> {
  const specialtyIds = await findSpecialtyIdsOf(db, appointment.doctorUserId);
  const due = await findDueVersions(db, appointment.doctorUserId, specialtyIds);
  if (due.length === 0) {
    return { count: 0, afterCommit: () => undefined };
  }
  const now = ctx.now();
  const created = await insertResponses(
    db,
    due.map((version) => ({
      questionnaireId: version.questionnaireId,
      questionnaireVersionId: version.id,
      patientUserId: appointment.patientUserId,
      appointmentId: appointment.id,
      status: 'in-progress' as const,
      resource: emptyResponse(version.resource.url, version.version),
      createdAt: now,
      updatedAt: now,
    })),
  );
  const patient = await findUserById(db, appointment.patientUserId);
  if (created.length === 0 || patient === null) {
    return { count: 0, afterCommit: () => undefined };
  }
  const language: Language = languageOf(patient);
  const { clinicName } = await loadIdentitySettings(db, ctx.config);
  const content = {
    template: 'intake-forms-due',
    data: {
      name: patient.name,
      count: created.length,
      startsAt: appointment.startsAt,
      timeZone: patient.timeZone,
      link: appLink(ctx, `/portal/appointments/${appointment.id}`),
    },
  } as const;
  const stored = await ctx.mailer.store(db, {
    to: patient.email,
    language,
    template: content.template,
    ...renderEmail(content, language, clinicName),
  });
  const push = await storeNotifications(ctx, db, [
    {
      userId: appointment.patientUserId,
      kind: 'intake.formsDue',
      data: {
        appointmentId: appointment.id,
        startsAt: appointment.startsAt.toISOString(),
        count: created.length,
      },
      createdAt: now,
    },
  ]);
  return {
    count: created.length,
    afterCommit: () => {
      stored.deliver();
      push();
    },
  };
}

/** A response not yet answered, pointing at the exact version (`url|version`). */
export function emptyResponse(url: string | undefined, version: number): QuestionnaireResponse {
  return {
    resourceType: 'QuestionnaireResponse',
    questionnaire: `${url ?? 'urn:telemedicina:questionnaire'}|${version}`,
    status: 'in-progress',
    item: [],
  };
}
