import type { FastifyBaseLogger } from 'fastify';
import { findAppointment } from '../appointments/appointments.repository.js';
import type { AppServices } from '../context.js';
import { appointmentEmail, loadParticipants } from '../appointments/appointment-notices.js';
import { storeNotifications } from '../notifications/notifications.service.js';
import {
  claimDueReminders,
  markRemindersSent,
  recordReminderFailure,
  reminderOffsetsMs,
} from '../appointments/reminders.repository.js';
import { remindOpenIntakeForms } from './intake-reminder.js';

/** Statuses whose visit still deserves a reminder. */
const remindable = new Set(['requested', 'confirmed']);

/**
 * Sends the reminders due now, at most `limit`: in one transaction it claims
 * the rows (`FOR UPDATE SKIP LOCKED`, so concurrent workers never take the same
 * ones), stores the patient's email and notification, and stamps `sent_at`.
 * A crash before the commit leaves nothing sent and the rows unsent; after
 * it, everything is recorded, so nothing is ever sent twice. SMTP delivery and
 * the Socket.IO push start only after the commit. Reminders for visits that
 * were cancelled or already started, and a 24 h one overtaken by the 1 h
 * one (the worker was down), are stamped without sending; so is an `intake` one whose forms
 * were all submitted.
 * Resolves with the number of emails stored.
 */
export async function sendDueReminders(services: AppServices, limit = 20): Promise<number> {
  const now = services.now();
  try {
    return await sendDueRemindersAt(services, now, limit);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    await recordReminderFailure(services.db, now, limit, message);
    throw error;
  }
}

async function sendDueRemindersAt(services: AppServices, now: Date, limit: number): Promise<number> {
  const { sent, afterCommit } = await services.db.transaction(async (tx) => {
    const due = await claimDueReminders(tx, now, limit);
    const afterCommit: (() => void)[] = [];
    let sent = 0;
    for (const reminder of due) {
      const appointment = await findAppointment(tx, reminder.appointmentId);
      if (appointment === null || !remindable.has(appointment.status) || appointment.startsAt <= now) {
        continue;
      }
      if (reminder.kind === 'intake') {
        const deliver = await remindOpenIntakeForms(services, tx, appointment, now);
        if (deliver !== null) {
          afterCommit.push(deliver);
          sent += 1;
        }
        continue;
      }
      const kind = reminder.kind;
      // Overdue (the worker was down): the 1 h reminder, due as well, says it better.
      if (kind === '24h' && appointment.startsAt.getTime() - now.getTime() <= reminderOffsetsMs['1h']) {
        continue;
      }
      const people = await loadParticipants(tx, appointment);
      const email = await appointmentEmail(services, tx, appointment, people, 'patient', (base) => ({
        template: 'appointment-reminder',
        data: { ...base, reminder: kind },
      }));
      afterCommit.push((await services.mailer.store(tx, email)).deliver);
      afterCommit.push(
        await storeNotifications(services, tx, [
          {
            userId: people.patient.id,
            kind: 'appointment.reminder',
            data: {
              appointmentId: appointment.id,
              startsAt: appointment.startsAt.toISOString(),
              reminder: kind,
            },
            createdAt: now,
          },
        ]),
      );
      sent += 1;
    }
    await markRemindersSent(tx, due, now);
    return { sent, afterCommit };
  });
  for (const run of afterCommit) {
    run();
  }
  return sent;
}

export interface ReminderWorker {
  /** Polls every `intervalMs` until stopped (idempotent). */
  start(): void;
  /** One pass now (tests, tools); passes never overlap within one worker. */
  runOnce(): Promise<number>;
  /** Stops polling and waits for a pass in progress. */
  stop(): Promise<void>;
}

export function createReminderWorker(
  services: AppServices,
  options: { intervalMs: number; logger: FastifyBaseLogger },
): ReminderWorker {
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<number> | null = null;
  const runOnce = (): Promise<number> =>
    (running ??= sendDueReminders(services).finally(() => {
      running = null;
    }));
  return {
    start: () => {
      if (timer !== null) {
        return;
      }
      timer = setInterval(() => {
        runOnce().catch((error: unknown) => options.logger.warn({ err: error }, 'reminder pass failed'));
      }, options.intervalMs);
      timer.unref();
    },
    runOnce,
    stop: async () => {
      if (timer !== null) {
        clearInterval(timer);
        timer = null;
      }
      await running?.catch(() => undefined);
    },
  };
}
