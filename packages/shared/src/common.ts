import { z } from 'zod';
import { supportedLanguages } from './i18n.js';

/**
 * The building blocks every area's contracts share: languages, time zones, list queries and pages,
 * calendar dates, appointment statuses and role summaries. Kept apart from the areas' request
 * schemas so a page that needs one answer's schema does not build every form's: the browser
 * evaluates a module's schemas when it loads it, and zod's schema construction is among the
 * largest pieces of work of the signed-in boot.
 */

/** True when `zone` is an IANA time zone this runtime knows. */
export function isTimeZone(zone: string): boolean {
  if (zone.length === 0 || zone.length > 64) {
    return false;
  }
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

export const languageSchema = z.enum(supportedLanguages, { message: 'validation.language' });
export const timeZoneSchema = z.string().refine(isTimeZone, { message: 'validation.timeZone' });

/** `?page=&pageSize=&q=` of every list endpoint; page size capped at 100. */
export const listQuerySchema = z.object({
  page: z.coerce
    .number({ message: 'validation.page' })
    .int()
    .min(1, { message: 'validation.page' })
    .default(1),
  pageSize: z.coerce
    .number({ message: 'validation.pageSize' })
    .int()
    .min(1, { message: 'validation.pageSize' })
    .max(100, { message: 'validation.pageSize' })
    .default(20),
  q: z.string().trim().max(200).optional(),
});
export type ListQuery = z.infer<typeof listQuerySchema>;

/** The answer of every list endpoint. */
export function pageOf<T extends z.ZodType>(item: T) {
  return z.object({ data: z.array(item), page: z.number(), pageSize: z.number(), total: z.number() });
}

export const sortOrderSchema = z.enum(['asc', 'desc'], { message: 'validation.order' }).default('asc');
export type SortOrder = z.infer<typeof sortOrderSchema>;

/** A `YYYY-MM-DD` calendar date. */
export const calendarDateSchema = z.iso.date({ message: 'validation.date' });

export const appointmentStatuses = [
  'requested',
  'confirmed',
  'checked_in',
  'in_progress',
  'completed',
  'cancelled',
  'no_show',
] as const;
export const appointmentStatusSchema = z.enum(appointmentStatuses);
export type AppointmentStatus = z.infer<typeof appointmentStatusSchema>;

export const roleSummarySchema = z.object({
  id: z.string(),
  key: z.string(),
  name: z.object({ es: z.string(), en: z.string() }),
});
export type RoleSummary = z.infer<typeof roleSummarySchema>;
