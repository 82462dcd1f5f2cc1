import type { Chart, ChartQuery } from '@telemedicina/shared/records';
import { appError } from '../../lib/app-error.js';
import { type ServiceContext, requireActor } from '../context.js';
import { loadCanStaffReadVisitReasons } from '../settings/settings.service.js';
import { listChartDocuments } from './documents.service.js';
import { accessDetails } from './chart-audit.js';
import { readChartData } from './chart.repository.js';
import { authorizeChartRead } from './records.policy.js';
import {
  presentAdministrativeChart,
  presentAllergy,
  presentCondition,
  presentMedication,
} from './records.presenter.js';

/** How many past visits and prescriptions the chart lists (newest first). */
const chartListLimit = 200;

/** `GET /patients/:patientId/chart`: the whole chart for its readers, the administrative part for staff. */
export async function readChart(ctx: ServiceContext, patientId: string, query: ChartQuery): Promise<Chart> {
  const actor = requireActor(ctx);
  const grant = await authorizeChartRead(ctx.db, actor, patientId, ctx.now());
  const db = ctx.db;
  const isClinical = grant.access !== 'administrative';
  const includeRemoved = isClinical && query.include === 'removed';
  // One statement for the profile, visits and clinical lists; the documents alongside it.
  const [data, documents, withReasons] = await Promise.all([
    readChartData(db, {
      patientId,
      readerUserId: actor.userId,
      clinical: isClinical,
      includeRemoved,
      limit: chartListLimit,
    }),
    isClinical
      ? listChartDocuments(ctx, grant, { includeRemoved, limit: chartListLimit, offset: 0 })
      : Promise.resolve(null),
    // Clinical readers read the reasons for the visits; staff as for appointments
    // (`canReadVisitReason`): only when the clinic's privacy setting allows it.
    isClinical ? Promise.resolve(true) : loadCanStaffReadVisitReasons(db),
  ]);
  const { profile, visits } = data;
  const chart = presentAdministrativeChart({
    patient: grant.patient,
    profile,
    access: grant.access,
    emergencyExpiresAt: grant.emergency?.expiresAt ?? null,
    visits,
    withReasons,
  });
  if (data.clinical !== null && documents !== null) {
    const { readerLanguage: language, allergies, conditions, medications, prescriptions } = data.clinical;
    if (language === null) {
      // The reader's account is gone (what loadActorUser answers).
      throw appError('UNAUTHENTICATED', 'Sign in to continue.');
    }
    chart.clinical = {
      bloodType: profile?.bloodType ?? null,
      allergies: allergies.map(presentAllergy),
      conditions: conditions.map((row) => presentCondition(row, language)),
      medications: medications.map(presentMedication),
      prescriptions: prescriptions.map((row) => ({
        id: row.id,
        issuedAt: row.issuedAt.toISOString(),
        status: row.status,
        doctor: { id: row.doctorId, name: row.doctorName },
        itemCount: Number(row.itemCount),
      })),
      documents: documents.data,
    };
  }
  await ctx.audit({
    action: 'record.viewed',
    targetType: 'patient',
    targetId: patientId,
    details: {
      section: 'chart',
      parts: isClinical ? ['administrative', 'clinical'] : ['administrative'],
      includeRemoved,
      ...accessDetails(grant),
    },
  });
  return chart;
}
