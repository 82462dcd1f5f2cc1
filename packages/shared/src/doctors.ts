import { z } from 'zod';
import { listQuerySchema, pageOf, sortOrderSchema } from './common.js';

/**
 * Contracts of doctor profiles and the doctors directory.
 * Biographies are plain text (line breaks kept, no markup): the client shows
 * them as text with `white-space: pre-line`, so nothing needs sanitizing.
 */

/** Every ISO 639-1 language code: the languages a doctor may say they speak. */
export const languageCodes = [
  'aa', 'ab', 'ae', 'af', 'ak', 'am', 'an', 'ar', 'as', 'av', 'ay', 'az', 'ba', 'be', 'bg', 'bi', 'bm',
  'bn', 'bo', 'br', 'bs', 'ca', 'ce', 'ch', 'co', 'cr', 'cs', 'cu', 'cv', 'cy', 'da', 'de', 'dv', 'dz',
  'ee', 'el', 'en', 'eo', 'es', 'et', 'eu', 'fa', 'ff', 'fi', 'fj', 'fo', 'fr', 'fy', 'ga', 'gd', 'gl',
  'gn', 'gu', 'gv', 'ha', 'he', 'hi', 'ho', 'hr', 'ht', 'hu', 'hy', 'hz', 'ia', 'id', 'ie', 'ig', 'ii',
  'ik', 'io', 'is', 'it', 'iu', 'ja', 'jv', 'ka', 'kg', 'ki', 'kj', 'kk', 'kl', 'km', 'kn', 'ko', 'kr',
  'ks', 'ku', 'kv', 'kw', 'ky', 'la', 'lb', 'lg', 'li', 'ln', 'lo', 'lt', 'lu', 'lv', 'mg', 'mh', 'mi',
  'mk', 'ml', 'mn', 'mr', 'ms', 'mt', 'my', 'na', 'nb', 'nd', 'ne', 'ng', 'nl', 'nn', 'no', 'nr', 'nv',
  'ny', 'oc', 'oj', 'om', 'or', 'os', 'pa', 'pi', 'pl', 'ps', 'pt', 'qu', 'rm', 'rn', 'ro', 'ru', 'rw',
  'sa', 'sc', 'sd', 'se', 'sg', 'si', 'sk', 'sl', 'sm', 'sn', 'so', 'sq', 'sr', 'ss', 'st', 'su', 'sv',
  'sw', 'ta', 'te', 'tg', 'th', 'ti', 'tk', 'tl', 'tn', 'to', 'tr', 'ts', 'tt', 'tw', 'ty', 'ug', 'uk',
  'ur', 'uz', 've', 'vi', 'vo', 'wa', 'wo', 'xh', 'yi', 'yo', 'za', 'zh', 'zu',
] as const; // prettier-ignore
export type LanguageCode = (typeof languageCodes)[number];

const languageCodeSet: ReadonlySet<string> = new Set(languageCodes);

export function isLanguageCode(value: string): value is LanguageCode {
  return languageCodeSet.has(value);
}

/** An ISO 639-1 code in lower case (`es`, `en`, `fr`…). */
export const languageCodeSchema = z.string().refine(isLanguageCode, { message: 'validation.languageCode' });

export const maxBioLength = 4000;
export const maxDoctorLanguages = 20;
export const maxDoctorSpecialties = 10;
/** How many days ahead the directory looks for each doctor's next free slots, and how many it shows. */
export const directorySlotDays = 14;
export const directorySlotCount = 3;

/** Control characters other than tab, line feed and carriage return are refused in a biography. */
// eslint-disable-next-line no-control-regex
const forbiddenBioCharacters = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/u;

/** One biography: plain text with line breaks, ≤ 4000 characters. */
export const bioTextSchema = z
  .string()
  .max(maxBioLength, { message: 'validation.bioTooLong' })
  .refine((text) => !forbiddenBioCharacters.test(text), { message: 'validation.invalid' });

export const licenseNumberSchema = z
  .string()
  .trim()
  .min(2, { message: 'validation.licenseNumber' })
  .max(40, { message: 'validation.licenseNumber' })
  .regex(/^[\p{L}\p{N}][\p{L}\p{N} ./-]*$/u, { message: 'validation.licenseNumber' });

/** Visit length in minutes; the server also requires one of the clinic's `booking.visitLengths`. */
export const visitMinutesSchema = z
  .number({ message: 'validation.number' })
  .int({ message: 'validation.integer' })
  .min(5, { message: 'validation.range' })
  .max(240, { message: 'validation.range' });

export const doctorSpecialtySchema = z.object({
  id: z.string(),
  name: z.object({ es: z.string(), en: z.string() }),
});
export type DoctorSpecialty = z.infer<typeof doctorSpecialtySchema>;

/** `GET /doctors/:id`: a doctor's public profile (only active specialties are listed). */
export const doctorProfileSchema = z.object({
  id: z.string(),
  name: z.string(),
  photoUrl: z.string().nullable(),
  specialties: z.array(doctorSpecialtySchema),
  licenseNumber: z.string(),
  /** ISO 639-1 codes of the languages the doctor speaks. */
  languages: z.array(z.string()),
  bio: z.object({ es: z.string(), en: z.string() }),
  visitMinutes: z.number().int(),
  acceptsNewPatients: z.boolean(),
  /** The doctor's IANA zone (availability rules are in it). */
  timeZone: z.string(),
});
export type DoctorProfile = z.infer<typeof doctorProfileSchema>;

const specialtyIdsSchema = z
  .array(z.uuid({ message: 'validation.invalid' }))
  .max(maxDoctorSpecialties, { message: 'validation.tooMany' });

/**
 * `PATCH /doctors/:id`: any subset of the profile. `licenseNumber` changes
 * only with `doctors.manage`, and is required when an administrator creates
 * the profile of a doctor who has none. Specialties must be active ones;
 * `visitMinutes` one of the clinic's visit lengths (both checked by the server).
 */
export const updateDoctorProfileRequestSchema = z
  .object({
    licenseNumber: licenseNumberSchema,
    languages: z
      .array(languageCodeSchema)
      .max(maxDoctorLanguages, { message: 'validation.tooMany' })
      .refine((codes) => new Set(codes).size === codes.length, { message: 'validation.duplicate' }),
    bio: z.object({ es: bioTextSchema, en: bioTextSchema }).partial().strict(),
    visitMinutes: visitMinutesSchema,
    acceptsNewPatients: z.boolean(),
    specialtyIds: specialtyIdsSchema,
  })
  .partial()
  .strict();
export type UpdateDoctorProfileRequest = z.infer<typeof updateDoctorProfileRequestSchema>;

/** `PUT /doctors/:id/specialties`: the doctor's whole set of specialties. */
export const replaceDoctorSpecialtiesRequestSchema = z.object({ specialtyIds: specialtyIdsSchema }).strict();
export type ReplaceDoctorSpecialtiesRequest = z.infer<typeof replaceDoctorSpecialtiesRequestSchema>;

/** `name`: by name; `nextAvailable`: earliest free slot first, doctors with none last. */
export const doctorDirectorySortSchema = z
  .enum(['name', 'nextAvailable'], { message: 'validation.sort' })
  .default('name');

/** `GET /doctors`: section search `q` on the doctor's name (accents and case ignored) plus filters. */
export const doctorDirectoryQuerySchema = listQuerySchema.extend({
  specialtyId: z.uuid({ message: 'validation.invalid' }).optional(),
  language: languageCodeSchema.optional(),
  acceptsNewPatients: z.enum(['true', 'false'], { message: 'validation.invalid' }).optional(),
  sort: doctorDirectorySortSchema,
  order: sortOrderSchema,
});
export type DoctorDirectoryQuery = z.infer<typeof doctorDirectoryQuerySchema>;

/** One doctor in the directory: the profile without license and biography, plus the next free slots. */
export const doctorDirectoryItemSchema = doctorProfileSchema.omit({ licenseNumber: true, bio: true }).extend({
  /** Start instants (ISO, UTC) of up to 3 free slots in the next 14 days, earliest first. */
  nextSlots: z.array(z.string()).max(directorySlotCount),
});
export type DoctorDirectoryItem = z.infer<typeof doctorDirectoryItemSchema>;
export const doctorDirectoryPageSchema = pageOf(doctorDirectoryItemSchema);
export type DoctorDirectoryPage = z.infer<typeof doctorDirectoryPageSchema>;
