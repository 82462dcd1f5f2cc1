import type { Database } from '../../db/client.js';
import { appError, type AppError } from '../../lib/app-error.js';
import type { Actor } from '../context.js';
import { authorizeChartRead, type ChartGrant } from '../records/records.policy.js';

function notFound(): AppError {
  return appError('NOT_FOUND', 'No such form.');
}

/**
 * Intake answers are clinical data and follow the chart's rule: the patient themself, and a doctor
 * who treats them or holds a live emergency access. Reception and administrators (the chart's
 * administrative part only), other patients and other doctors get 404, as for the chart.
 */
export async function authorizeIntakeRead(
  db: Database,
  actor: Actor,
  patientId: string,
  now: Date,
): Promise<ChartGrant> {
  const grant = await authorizeChartRead(db, actor, patientId, now).catch(() => {
    throw notFound();
  });
  if (grant.access === 'administrative') {
    throw notFound();
  }
  return grant;
}

/** Only the patient fills in their own forms. */
export function assertCanAnswer(actor: Actor, patientId: string): void {
  if (actor.userId !== patientId || !actor.permissions.has('records.read.own')) {
    throw notFound();
  }
}
