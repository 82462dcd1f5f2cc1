import type { Notification, NotificationKind } from '@telemedicina/shared/notifications';
import type { TFunction } from 'i18next';
import { formatDateTime } from '../../lib/format';

/** A notification as the bell and the toast word it: title, one sentence, and where it leads. */
export interface NotificationView {
  title: string;
  body: string;
  /** The in-app page it is about (the appointment, or the doctor for a freed slot), or null. */
  link: string | null;
}

/** Translation key segment of each kind (`notifications.kinds.<segment>.*`). */
const kindKeys = {
  'appointment.booked': 'booked',
  'appointment.rescheduled': 'rescheduled',
  'appointment.cancelled': 'cancelled',
  'appointment.reminder': 'reminder',
  'waitlist.slotFreed': 'slotFreed',
  'record.emergencyAccess': 'emergencyAccess',
  'record.exported': 'recordExported',
  'note.signed': 'noteSigned',
  'consent.withdrawn': 'consentWithdrawn',
  'intake.formsDue': 'intakeFormsDue',
  'consent.toSign': 'consentToSign',
} as const satisfies Record<NotificationKind, string>;

const cancellers = ['patient', 'doctor', 'staff'] as const;
const reminders = ['24h', '1h'] as const;

function text(data: Record<string, unknown>, key: string): string | null {
  const value = data[key];
  return typeof value === 'string' && value !== '' ? value : null;
}

function oneOf<T extends string>(options: readonly T[], value: string | null): T | null {
  return options.find((option) => option === value) ?? null;
}

/** `/admin/<section>/<id>` for an id that looks like one (the data comes from the server, but stays data). */
function pageOf(section: 'appointments' | 'doctors', id: string | null): string | null {
  return id !== null && /^[0-9a-f-]{36}$/i.test(id) ? `/admin/${section}/${id}` : null;
}

/**
 * Words a notification by its kind from the translation files, with its times in the viewer's zone.
 * Unknown or missing data still gives a sensible sentence (never a raw key or "undefined").
 */
export function describeNotification(
  notification: Pick<Notification, 'kind' | 'data'>,
  t: TFunction,
  language: string,
  timeZone: string,
): NotificationView {
  const { data } = notification;
  const at = (key: string): string | null => {
    const iso = text(data, key);
    return iso === null || Number.isNaN(Date.parse(iso)) ? null : formatDateTime(iso, language, timeZone);
  };
  const time = at('startsAt') ?? t('notifications.unknownTime');
  const appointmentLink = pageOf('appointments', text(data, 'appointmentId'));
  switch (kindKeys[notification.kind]) {
    case 'booked':
      return {
        title: t('notifications.kinds.booked.title'),
        body: t('notifications.kinds.booked.body', { time }),
        link: appointmentLink,
      };
    case 'rescheduled': {
      const previous = at('previousStartsAt');
      return {
        title: t('notifications.kinds.rescheduled.title'),
        body:
          previous === null
            ? t('notifications.kinds.rescheduled.body', { time })
            : t('notifications.kinds.rescheduled.bodyFrom', { time, previous }),
        link: appointmentLink,
      };
    }
    case 'cancelled': {
      const by = oneOf(cancellers, text(data, 'by'));
      // The reader who cancelled is told it was them, not about themselves in the third person.
      const isReaderTheCanceller = by !== null && by !== 'staff' && text(data, 'recipient') === by;
      return {
        title: t('notifications.kinds.cancelled.title'),
        body:
          by === null
            ? t('notifications.kinds.cancelled.body', { time })
            : isReaderTheCanceller
              ? t('notifications.kinds.cancelled.byYou', { time })
              : t(`notifications.kinds.cancelled.by.${by}`, { time }),
        link: appointmentLink,
      };
    }
    case 'reminder': {
      const reminder = oneOf(reminders, text(data, 'reminder'));
      return {
        title: t('notifications.kinds.reminder.title'),
        body:
          reminder === null
            ? t('notifications.kinds.reminder.body', { time })
            : t(`notifications.kinds.reminder.in.${reminder}`, { time }),
        link: appointmentLink,
      };
    }
    case 'slotFreed':
      return {
        title: t('notifications.kinds.slotFreed.title'),
        body: t('notifications.kinds.slotFreed.body', { time }),
        link: pageOf('doctors', text(data, 'doctorId')),
      };
    case 'emergencyAccess':
      return {
        title: t('accessLog.notification.title'),
        body: t('accessLog.notification.body', { time: at('grantedAt') ?? t('notifications.unknownTime') }),
        link: '/admin/profile/record-access',
      };
    case 'recordExported':
      return {
        title: t('recordExport.notification.title'),
        body: t('recordExport.notification.body', {
          time: at('exportedAt') ?? t('notifications.unknownTime'),
        }),
        link: '/admin/profile/record-access',
      };
    case 'noteSigned':
      return {
        title: t('notifications.kinds.noteSigned.title'),
        body: t('notifications.kinds.noteSigned.body', { time }),
        link: appointmentLink,
      };
    case 'consentWithdrawn':
      return {
        title: t('notifications.kinds.consentWithdrawn.title'),
        body: t('notifications.kinds.consentWithdrawn.body', { time }),
        link: appointmentLink,
      };
    case 'consentToSign': {
      const documentId = text(data, 'documentId');
      return {
        title: t('notifications.kinds.consentToSign.title'),
        body: t('notifications.kinds.consentToSign.body', { time }),
        // The patient's signing page (the portal's address: only patients are asked to sign).
        link:
          documentId !== null && /^[0-9a-f-]{36}$/i.test(documentId)
            ? `/portal/consents/${documentId}`
            : '/portal/consents',
      };
    }
    case 'intakeFormsDue':
      // `reminder`: the forms are still open 24 h before the visit.
      return data.reminder === true
        ? {
            title: t('notifications.kinds.intakeFormsDue.reminderTitle'),
            body: t('notifications.kinds.intakeFormsDue.reminderBody', { time }),
            link: appointmentLink,
          }
        : {
            title: t('notifications.kinds.intakeFormsDue.title'),
            body: t('notifications.kinds.intakeFormsDue.body', { time }),
            link: appointmentLink,
          };
  }
}
