import { clinicSettingsSchema, type ClinicSettings } from '@telemedicina/shared/clinic-settings';
import { z } from 'zod';
import type { Config } from '../../config/config.js';
import type { Database } from '../../db/client.js';
import type { ServiceContext } from '../context.js';
import { readSettings, readSettingsWithFile } from './settings.repository.js';

/**
 * Setting keys, one per value (`settings` table, jsonb). The first five are
 * read by sign-in and sessions ({@link loadIdentitySettings}); the rest by the
 * clinic settings screen, booking, uploads and video.
 */
export const settingKeys = {
  mfaRequiredRoles: 'mfa.requiredRoles',
  idleMinutesStaff: 'session.idleMinutesStaff',
  idleMinutesPatient: 'session.idleMinutesPatient',
  clinicName: 'clinic.name',
  clinicTimeZone: 'clinic.timeZone',
  clinicLanguage: 'clinic.language',
  clinicLogoFileId: 'clinic.logoFileId',
  minimumNoticeMinutes: 'booking.minimumNoticeMinutes',
  cancellationWindowHours: 'booking.cancellationWindowHours',
  visitLengths: 'booking.visitLengths',
  defaultVisitMinutes: 'booking.defaultVisitMinutes',
  maxFileSizeMb: 'uploads.maxFileSizeMb',
  allowedKinds: 'uploads.allowedKinds',
  maxFilesPerUpload: 'uploads.maxFilesPerUpload',
  iceServers: 'video.iceServers',
  canStaffReadVisitReasons: 'privacy.canStaffReadVisitReasons',
} as const;

/** Roles that must use a second factor when `mfa.requiredRoles` was never set. */
export const defaultMfaRequiredRoles = ['admin', 'doctor'];
export const defaultClinicName = 'Telemedicina';
/** The clinic's zone until an administrator sets one (also new accounts' default zone). */
export const defaultClinicTimeZone = 'UTC';

/** Defaults of the settings that have no environment variable behind them. */
export const defaultClinicSettings = {
  language: 'es',
  booking: {
    minimumNoticeMinutes: 120,
    cancellationWindowHours: 24,
    visitLengths: [15, 20, 30, 45, 60],
    defaultVisitMinutes: 30,
  },
  uploads: { maxFileSizeMb: 10, allowedKinds: ['pdf', 'png', 'jpeg', 'webp'], maxFilesPerUpload: 5 },
  /** Minimum necessary: the reason for a visit stays with its doctor and patient until a clinic opens it. */
  privacy: { canStaffReadVisitReasons: false },
} as const satisfies {
  language: ClinicSettings['clinic']['language'];
  booking: ClinicSettings['booking'];
  uploads: ClinicSettings['uploads'];
  privacy: ClinicSettings['privacy'];
};

export interface IdentitySettings {
  mfaRequiredRoles: string[];
  idleMinutesStaff: number;
  idleMinutesPatient: number;
  clinicName: string;
  clinicTimeZone: string;
}

const identityKeys = [
  settingKeys.mfaRequiredRoles,
  settingKeys.idleMinutesStaff,
  settingKeys.idleMinutesPatient,
  settingKeys.clinicName,
  settingKeys.clinicTimeZone,
];

const roleKeysValue = z.array(z.string());
const minutesValue = z
  .number()
  .int()
  .min(1)
  .max(24 * 60);
const nameValue = z.string().min(1).max(120);

type Picker = <T>(key: string, schema: z.ZodType<T>, fallback: T) => T;

/** Reads a stored value with its schema; missing or malformed falls back, so a bad row never locks anyone out. */
function pickerOf(stored: Map<string, unknown>): Picker {
  return (key, schema, fallback) => {
    const parsed = schema.safeParse(stored.get(key));
    return parsed.success ? parsed.data : fallback;
  };
}

/**
 * The settings that shape sign-in and sessions, in one query, read fresh
 * (never cached) so a changed idle time or second-factor rule applies to the
 * next session. A missing or malformed value falls back to the environment's
 * default.
 */
export async function loadIdentitySettings(db: Database, config: Config): Promise<IdentitySettings> {
  const pick = pickerOf(await readSettings(db, identityKeys));
  return {
    mfaRequiredRoles: pick(settingKeys.mfaRequiredRoles, roleKeysValue, defaultMfaRequiredRoles),
    idleMinutesStaff: pick(settingKeys.idleMinutesStaff, minutesValue, config.sessionIdleMinutesStaff),
    idleMinutesPatient: pick(settingKeys.idleMinutesPatient, minutesValue, config.sessionIdleMinutesPatient),
    clinicName: pick(settingKeys.clinicName, nameValue, defaultClinicName),
    clinicTimeZone: pick(settingKeys.clinicTimeZone, nameValue, defaultClinicTimeZone),
  };
}

/** The clinic settings plus what the logo route needs that the response does not show. */
export interface LoadedClinicSettings {
  settings: ClinicSettings;
  logoFileId: string | null;
}

const shape = clinicSettingsSchema.shape;
const logoFileIdValue = z.uuid();

/** Where the browser fetches the logo; the file id in the query busts caches when it changes. */
export function logoUrlOf(fileId: string | null): string | null {
  return fileId === null ? null : `/api/v1/clinic/logo?v=${fileId}`;
}

/** Every clinic setting, stored values over defaults, in one query. */
export async function loadClinicSettings(db: Database, config: Config): Promise<LoadedClinicSettings> {
  const { values, fileExists } = await readSettingsWithFile(
    db,
    Object.values(settingKeys),
    settingKeys.clinicLogoFileId,
  );
  const pick = pickerOf(values);
  const logoFileId = fileExists ? pick(settingKeys.clinicLogoFileId, logoFileIdValue, null) : null;
  const defaults = defaultClinicSettings;
  return {
    logoFileId,
    settings: {
      clinic: {
        name: pick(settingKeys.clinicName, shape.clinic.shape.name, defaultClinicName),
        logoUrl: logoUrlOf(logoFileId),
        timeZone: pick(settingKeys.clinicTimeZone, shape.clinic.shape.timeZone, defaultClinicTimeZone),
        language: pick(settingKeys.clinicLanguage, shape.clinic.shape.language, defaults.language),
      },
      sessions: {
        idleMinutesStaff: pick(
          settingKeys.idleMinutesStaff,
          shape.sessions.shape.idleMinutesStaff,
          config.sessionIdleMinutesStaff,
        ),
        idleMinutesPatient: pick(
          settingKeys.idleMinutesPatient,
          shape.sessions.shape.idleMinutesPatient,
          config.sessionIdleMinutesPatient,
        ),
      },
      security: {
        mfaRequiredRoles: pick(
          settingKeys.mfaRequiredRoles,
          shape.security.shape.mfaRequiredRoles,
          defaultMfaRequiredRoles,
        ),
      },
      booking: {
        minimumNoticeMinutes: pick(
          settingKeys.minimumNoticeMinutes,
          shape.booking.shape.minimumNoticeMinutes,
          defaults.booking.minimumNoticeMinutes,
        ),
        cancellationWindowHours: pick(
          settingKeys.cancellationWindowHours,
          shape.booking.shape.cancellationWindowHours,
          defaults.booking.cancellationWindowHours,
        ),
        visitLengths: pick(settingKeys.visitLengths, shape.booking.shape.visitLengths, [
          ...defaults.booking.visitLengths,
        ]),
        defaultVisitMinutes: pick(
          settingKeys.defaultVisitMinutes,
          shape.booking.shape.defaultVisitMinutes,
          defaults.booking.defaultVisitMinutes,
        ),
      },
      uploads: readUploadLimits(pick),
      video: {
        iceServers: pick(settingKeys.iceServers, shape.video.shape.iceServers, config.iceServers),
      },
      privacy: {
        canStaffReadVisitReasons: pick(
          settingKeys.canStaffReadVisitReasons,
          shape.privacy.shape.canStaffReadVisitReasons,
          defaults.privacy.canStaffReadVisitReasons,
        ),
      },
    },
  };
}

function readUploadLimits(pick: Picker): ClinicSettings['uploads'] {
  const defaults = defaultClinicSettings.uploads;
  return {
    maxFileSizeMb: pick(settingKeys.maxFileSizeMb, shape.uploads.shape.maxFileSizeMb, defaults.maxFileSizeMb),
    allowedKinds: pick(settingKeys.allowedKinds, shape.uploads.shape.allowedKinds, [
      ...defaults.allowedKinds,
    ]),
    maxFilesPerUpload: pick(
      settingKeys.maxFilesPerUpload,
      shape.uploads.shape.maxFilesPerUpload,
      defaults.maxFilesPerUpload,
    ),
  };
}

export type UploadLimits = ClinicSettings['uploads'] & {
  /** `maxFileSizeMb` in bytes (MiB). */
  maxFileSizeBytes: number;
};

/**
 * The clinic's upload limits (size, kinds, files per upload), read fresh.
 * Every upload endpoint checks against these, and the browser's uploader gets
 * the same values from `GET /config`, so both sides obey one rule.
 */
export async function loadUploadLimits(db: Database): Promise<UploadLimits> {
  const pick = pickerOf(
    await readSettings(db, [
      settingKeys.maxFileSizeMb,
      settingKeys.allowedKinds,
      settingKeys.maxFilesPerUpload,
    ]),
  );
  const limits = readUploadLimits(pick);
  return { ...limits, maxFileSizeBytes: limits.maxFileSizeMb * 1024 * 1024 };
}

/** The booking rules slot search, booking, rescheduling and cancelling obey. */
export interface BookingRules {
  minimumNoticeMinutes: number;
  cancellationWindowHours: number;
}

/** Minimum notice and cancellation window, read fresh in one query (defaults when unset or malformed). */
export async function loadBookingRules(db: Database): Promise<BookingRules> {
  const pick = pickerOf(
    await readSettings(db, [settingKeys.minimumNoticeMinutes, settingKeys.cancellationWindowHours]),
  );
  const defaults = defaultClinicSettings.booking;
  return {
    minimumNoticeMinutes: pick(
      settingKeys.minimumNoticeMinutes,
      shape.booking.shape.minimumNoticeMinutes,
      defaults.minimumNoticeMinutes,
    ),
    cancellationWindowHours: pick(
      settingKeys.cancellationWindowHours,
      shape.booking.shape.cancellationWindowHours,
      defaults.cancellationWindowHours,
    ),
  };
}

/**
 * Whether the clinic lets staff (anyone but a visit's doctor and patient) read the reason for a
 * visit; read fresh, one query, so switching it off hides reasons from the next answer on. Off when
 * unset or malformed.
 */
export async function loadCanStaffReadVisitReasons(db: Database): Promise<boolean> {
  const pick = pickerOf(await readSettings(db, [settingKeys.canStaffReadVisitReasons]));
  return pick(
    settingKeys.canStaffReadVisitReasons,
    shape.privacy.shape.canStaffReadVisitReasons,
    defaultClinicSettings.privacy.canStaffReadVisitReasons,
  );
}

/** `GET /settings`: every setting, read fresh. */
export async function getClinicSettings(ctx: ServiceContext): Promise<ClinicSettings> {
  return (await loadClinicSettings(ctx.db, ctx.config)).settings;
}
