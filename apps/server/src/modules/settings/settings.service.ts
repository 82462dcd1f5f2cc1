import { performance } from 'node:perf_hooks';
import {
  clinicSettingsSchema,
  findBookingRuleIssues,
  type ClinicSettings,
  type IceServer,
  type UpdateClinicSettingsRequest,
  type ValidationIssue,
} from '@telemedicina/shared';
import { z } from 'zod';
import type { Config } from '../../config/config.js';
import type { Database, DatabaseClient } from '../../db/client.js';
import { AppError } from '../../lib/app-error.js';
import { recordAuditEvent } from '../audit/audit.service.js';
import type { ServiceContext } from '../context.js';
import {
  findExistingRoleKeys,
  lockSettings,
  readSettings,
  readSettingsWithFile,
  writeSetting,
} from './settings.repository.js';

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
  return (await loadClinicSettings(ctx.db.db, ctx.config)).settings;
}

// ---------------------------------------------------------------- cache for GET /config

/** `GET /config` is public and read on every page load: the settings are kept this long. */
export const clinicSettingsCacheMs = 5_000;

interface CacheEntry {
  loaded: Promise<LoadedClinicSettings>;
  expiresAt: number;
}
/** Per database client, so apps (and test files) never see each other's entries. */
const cache = new WeakMap<DatabaseClient, CacheEntry>();

/**
 * The clinic settings for high-traffic readers (`GET /config`, the logo),
 * at most {@link clinicSettingsCacheMs} old; concurrent callers share one
 * query. Writers call {@link invalidateClinicSettingsCache} after committing,
 * so this instance sees a change at once and other instances within 5 s.
 */
export function getCachedClinicSettings(db: DatabaseClient, config: Config): Promise<LoadedClinicSettings> {
  const at = performance.now();
  const entry = cache.get(db);
  if (entry !== undefined && entry.expiresAt > at) {
    return entry.loaded;
  }
  const loaded = loadClinicSettings(db.db, config);
  cache.set(db, { loaded, expiresAt: at + clinicSettingsCacheMs });
  loaded.catch(() => {
    if (cache.get(db)?.loaded === loaded) {
      cache.delete(db);
    }
  });
  return loaded;
}

export function invalidateClinicSettingsCache(db: DatabaseClient): void {
  cache.delete(db);
}

// ---------------------------------------------------------------- update

type EditableSection = keyof UpdateClinicSettingsRequest;

/** Where each editable field is stored. */
const storageKeys = {
  clinic: {
    name: settingKeys.clinicName,
    timeZone: settingKeys.clinicTimeZone,
    language: settingKeys.clinicLanguage,
  },
  sessions: {
    idleMinutesStaff: settingKeys.idleMinutesStaff,
    idleMinutesPatient: settingKeys.idleMinutesPatient,
  },
  security: { mfaRequiredRoles: settingKeys.mfaRequiredRoles },
  booking: {
    minimumNoticeMinutes: settingKeys.minimumNoticeMinutes,
    cancellationWindowHours: settingKeys.cancellationWindowHours,
    visitLengths: settingKeys.visitLengths,
    defaultVisitMinutes: settingKeys.defaultVisitMinutes,
  },
  uploads: {
    maxFileSizeMb: settingKeys.maxFileSizeMb,
    allowedKinds: settingKeys.allowedKinds,
    maxFilesPerUpload: settingKeys.maxFilesPerUpload,
  },
  video: { iceServers: settingKeys.iceServers },
  privacy: { canStaffReadVisitReasons: settingKeys.canStaffReadVisitReasons },
} as const satisfies {
  [S in EditableSection]-?: Record<keyof NonNullable<UpdateClinicSettingsRequest[S]>, string>;
};

/** One setting's value before and after a change, as the audit trail keeps it. */
export type SettingChange = { before: unknown; after: unknown };

/**
 * Saves the sections present in the request (each complete) in one
 * transaction and answers every setting. Rules a schema cannot state are
 * checked first — visit lengths ascending and the default one of them, the
 * second-factor roles existing — and answered as 400 VALIDATION_FAILED with
 * field paths. The audit event lists, per changed key, the value before and
 * after (TURN credentials masked). New sessions pick the change up at once:
 * sign-in reads these keys fresh.
 */
export async function updateClinicSettings(
  ctx: ServiceContext,
  request: UpdateClinicSettingsRequest,
): Promise<ClinicSettings> {
  const normalized = normalizeRequest(request);
  const issues = await findSettingsIssues(ctx.db.db, normalized);
  if (issues.length > 0) {
    throw new AppError(400, 'VALIDATION_FAILED', 'The request is not valid.', { issues });
  }
  const actorUserId = ctx.actor?.userId ?? null;
  await ctx.db.db.transaction(async (tx) => {
    await lockSettings(tx);
    const { settings: current } = await loadClinicSettings(tx, ctx.config);
    const now = ctx.now();
    const changes: Record<string, SettingChange> = {};
    for (const section of Object.keys(storageKeys) as EditableSection[]) {
      const values = normalized[section] as Record<string, unknown> | undefined;
      if (values === undefined) {
        continue;
      }
      const currentSection = current[section] as Record<string, unknown>;
      for (const [field, key] of Object.entries(storageKeys[section] as Record<string, string>)) {
        const before = currentSection[field];
        const after = values[field];
        if (JSON.stringify(before) === JSON.stringify(after)) {
          continue;
        }
        await writeSetting(tx, key, after, { now, userId: actorUserId });
        changes[key] = { before: maskSecrets(key, before), after: maskSecrets(key, after) };
      }
    }
    if (Object.keys(changes).length > 0) {
      await recordAuditEvent(
        tx,
        { now: ctx.now, actorUserId, request: ctx.request },
        { action: 'settings.updated', targetType: 'settings', targetId: 'clinic', details: { changes } },
      );
    }
  });
  invalidateClinicSettingsCache(ctx.db);
  return (await loadClinicSettings(ctx.db.db, ctx.config)).settings;
}

/** Duplicates in the role and file-kind lists mean nothing: kept once, in the order given. */
function normalizeRequest(request: UpdateClinicSettingsRequest): UpdateClinicSettingsRequest {
  return {
    ...request,
    ...(request.security === undefined
      ? {}
      : { security: { mfaRequiredRoles: [...new Set(request.security.mfaRequiredRoles)] } }),
    ...(request.uploads === undefined
      ? {}
      : { uploads: { ...request.uploads, allowedKinds: [...new Set(request.uploads.allowedKinds)] } }),
  };
}

async function findSettingsIssues(
  db: Database,
  request: UpdateClinicSettingsRequest,
): Promise<ValidationIssue[]> {
  const issue = (path: string, message: string): ValidationIssue => ({
    location: 'body',
    path,
    code: 'custom',
    message,
  });
  const issues: ValidationIssue[] = [];
  if (request.booking !== undefined) {
    for (const found of findBookingRuleIssues(request.booking)) {
      issues.push(issue(`booking.${found.path}`, found.message));
    }
  }
  if (request.security !== undefined) {
    const wanted = request.security.mfaRequiredRoles;
    const existing = await findExistingRoleKeys(db, wanted);
    if (wanted.some((key) => !existing.has(key))) {
      issues.push(issue('security.mfaRequiredRoles', 'validation.unknownRole'));
    }
  }
  return issues;
}

/** ICE credentials never reach the audit trail. */
function maskSecrets(key: string, value: unknown): unknown {
  if (key !== settingKeys.iceServers || !Array.isArray(value)) {
    return value;
  }
  return (value as IceServer[]).map((server) =>
    server.credential === undefined ? server : { ...server, credential: '***' },
  );
}
