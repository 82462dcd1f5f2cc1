import { z } from 'zod';
import { displayText } from './display-text.js';
import { languageSchema, timeZoneSchema } from './common.js';

/**
 * The clinic's settings (`GET/PATCH /settings`) and the part every browser may know
 * (`GET /config`). Apart from the administration area's other contracts: every signed-in page
 * reads the public part at boot.
 */

/** File kinds an administrator can allow for documents and in-visit chat (checked by content). */
export const uploadFileKinds = ['pdf', 'png', 'jpeg', 'webp', 'gif', 'heic', 'txt', 'docx'] as const;
export const uploadFileKindSchema = z.enum(uploadFileKinds);
export type UploadFileKind = z.infer<typeof uploadFileKindSchema>;

/** The MIME type of each kind, for `accept` attributes and the uploader's checks. */
export const uploadFileKindMimeTypes: Record<UploadFileKind, string> = {
  pdf: 'application/pdf',
  png: 'image/png',
  jpeg: 'image/jpeg',
  webp: 'image/webp',
  gif: 'image/gif',
  heic: 'image/heic',
  txt: 'text/plain',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
};

export const iceServerSchema = z
  .object({
    urls: z
      .array(
        z
          .string()
          .trim()
          .max(300)
          .regex(/^(stun|stuns|turn|turns):[^\s]+$/, { message: 'validation.iceUrl' }),
      )
      .min(1)
      .max(10),
    username: z.string().max(200).optional(),
    credential: z.string().max(200).optional(),
  })
  .strict();
export type IceServer = z.infer<typeof iceServerSchema>;

const minutes = (max: number) =>
  z
    .number({ message: 'validation.number' })
    .int({ message: 'validation.integer' })
    .min(1, { message: 'validation.range' })
    .max(max, { message: 'validation.range' });

export const clinicSettingsSchema = z.object({
  clinic: z.object({
    name: displayText(
      z
        .string()
        .trim()
        .min(2, { message: 'validation.nameTooShort' })
        .max(120, { message: 'validation.nameTooLong' }),
    ),
    /** Read only here; changed through `PUT /settings/logo` and `DELETE /settings/logo`. */
    logoUrl: z.string().nullable(),
    timeZone: timeZoneSchema,
    language: languageSchema,
  }),
  sessions: z.object({
    idleMinutesStaff: minutes(24 * 60),
    idleMinutesPatient: minutes(24 * 60),
  }),
  security: z.object({
    /** Role keys whose users must enrol a second factor. */
    mfaRequiredRoles: z.array(z.string().min(1).max(64)).max(50),
  }),
  booking: z.object({
    /** A patient cannot book closer than this to the start. */
    minimumNoticeMinutes: z
      .number()
      .int()
      .min(0, { message: 'validation.range' })
      .max(30 * 24 * 60, { message: 'validation.range' }),
    /** A patient can cancel or reschedule up to this many hours before the start. */
    cancellationWindowHours: z
      .number()
      .int()
      .min(0, { message: 'validation.range' })
      .max(30 * 24, { message: 'validation.range' }),
    /** Visit lengths doctors can choose from, in minutes, ascending, no duplicates. */
    visitLengths: z.array(minutes(240)).min(1).max(12),
    defaultVisitMinutes: minutes(240),
  }),
  uploads: z.object({
    maxFileSizeMb: z
      .number()
      .int()
      .min(1, { message: 'validation.range' })
      .max(100, { message: 'validation.range' }),
    allowedKinds: z.array(uploadFileKindSchema).min(1).max(uploadFileKinds.length),
    maxFilesPerUpload: z
      .number()
      .int()
      .min(1, { message: 'validation.range' })
      .max(20, { message: 'validation.range' }),
  }),
  video: z.object({
    iceServers: z.array(iceServerSchema).max(10),
  }),
  privacy: z.object({
    /**
     * Whether reception and administrators read the reason a patient gave for a visit. The reason
     * is clinical: the visit's doctor and its patient always read it; everyone else only when this
     * is on (off by default, minimum necessary).
     */
    canStaffReadVisitReasons: z.boolean({ message: 'validation.invalid' }),
  }),
});
export type ClinicSettings = z.infer<typeof clinicSettingsSchema>;

/** What every browser may know of the settings (added to `GET /config`). */
export const publicClinicSettingsSchema = z.object({
  name: z.string(),
  logoUrl: z.string().nullable(),
  timeZone: z.string(),
  language: languageSchema,
  uploads: clinicSettingsSchema.shape.uploads,
  /** Visit lengths doctors may choose (minutes), so a doctor's profile editor offers the clinic's list. */
  visitLengths: clinicSettingsSchema.shape.booking.shape.visitLengths,
});
export type PublicClinicSettings = z.infer<typeof publicClinicSettingsSchema>;
