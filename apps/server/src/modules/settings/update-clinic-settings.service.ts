import { findBookingRuleIssues, type UpdateClinicSettingsRequest } from '@telemedicina/shared/admin';
import type { ValidationIssue } from '@telemedicina/shared/api';
import type { ClinicSettings, IceServer } from '@telemedicina/shared/clinic-settings';
import type { Database } from '../../db/client.js';
import { appError } from '../../lib/app-error.js';
import { recordAuditEvent } from '../audit/audit.service.js';
import type { ServiceContext } from '../context.js';
import { invalidateClinicSettingsCache } from './clinic-settings-cache.js';
import { findExistingRoleKeys, lockSettings, writeSetting } from './settings.repository.js';
import { loadClinicSettings, settingKeys } from './settings.service.js';

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
  const issues = await findSettingsIssues(ctx.db, normalized);
  if (issues.length > 0) {
    throw appError('VALIDATION_FAILED', 'The request is not valid.', { issues });
  }
  const actorUserId = ctx.actor?.userId ?? null;
  await ctx.db.transaction(async (tx) => {
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
  return (await loadClinicSettings(ctx.db, ctx.config)).settings;
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
