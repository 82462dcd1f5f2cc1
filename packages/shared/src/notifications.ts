import { z } from 'zod';
import { listQuerySchema } from './common.js';

/**
 * In-app notifications (the bell). `data` holds ids and times only, never
 * free text another user wrote; the web app words each kind itself.
 */
export const notificationKinds = [
  'appointment.booked',
  'appointment.rescheduled',
  'appointment.cancelled',
  'appointment.reminder',
  'waitlist.slotFreed',
  'record.emergencyAccess',
  'record.exported',
  'note.signed',
  'intake.formsDue',
  'consent.withdrawn',
  'consent.toSign',
] as const;
export const notificationKindSchema = z.enum(notificationKinds);
export type NotificationKind = z.infer<typeof notificationKindSchema>;

export const notificationSchema = z.object({
  id: z.uuid(),
  kind: notificationKindSchema,
  /** E.g. `{ appointmentId, startsAt, previousStartsAt?, by?, reminder? }`. */
  data: z.record(z.string(), z.unknown()),
  readAt: z.iso.datetime().nullable(),
  createdAt: z.iso.datetime(),
});
export type Notification = z.infer<typeof notificationSchema>;

/** The list query's paging (no text search), plus the unread filter. */
export const notificationListQuerySchema = listQuerySchema.omit({ q: true }).extend({
  unreadOnly: z
    .enum(['true', 'false'])
    .transform((value) => value === 'true')
    .optional(),
});
export type NotificationListQuery = z.infer<typeof notificationListQuerySchema>;

/** A page of one's own notifications, newest first, with the number still unread. */
export const notificationPageSchema = z.object({
  data: z.array(notificationSchema),
  page: z.number(),
  pageSize: z.number(),
  total: z.number(),
  unreadCount: z.number(),
});
export type NotificationPage = z.infer<typeof notificationPageSchema>;

export const notificationsReadAllResultSchema = z.object({ updated: z.number(), unreadCount: z.number() });
export type NotificationsReadAllResult = z.infer<typeof notificationsReadAllResultSchema>;

/** POST /doctors/:id/waitlist: wait for an earlier slot, optionally only for slots before `before`. */
export const joinWaitlistRequestSchema = z.object({
  before: z.iso.datetime({ offset: true, message: 'validation.dateTime' }).nullable().optional(),
});
export type JoinWaitlistRequest = z.infer<typeof joinWaitlistRequestSchema>;

export const waitlistEntrySchema = z.object({
  doctorId: z.uuid(),
  before: z.iso.datetime().nullable(),
  notifiedAt: z.iso.datetime().nullable(),
  createdAt: z.iso.datetime(),
});
export type WaitlistEntry = z.infer<typeof waitlistEntrySchema>;
