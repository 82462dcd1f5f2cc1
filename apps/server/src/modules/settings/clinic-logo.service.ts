import { createHash } from 'node:crypto';
import type { ClinicSettings } from '@telemedicina/shared/clinic-settings';
import { appError } from '../../lib/app-error.js';
import { imageExtensions, sniffImage, type ImageType } from '../../lib/image-sniff.js';
import { recordAuditEvent } from '../audit/audit.service.js';
import { type AppServices, type ServiceContext, requireActor } from '../context.js';
import type { FileStorage } from '../files/file-storage.js';
import { deleteFile, findFile, insertFile } from '../files/files.repository.js';
import { deleteSetting, lockSettings, readSettings, writeSetting } from './settings.repository.js';
import { getCachedClinicSettings, invalidateClinicSettingsCache } from './clinic-settings-cache.js';
import { loadClinicSettings, loadUploadLimits, settingKeys } from './settings.service.js';

/** Largest logo accepted (the clinic's upload size limit may lower it), and the largest canvas. */
export const logoLimits = { maxBytes: 2 * 1024 * 1024, maxWidth: 4096, maxHeight: 4096 } as const;

/**
 * Stores a new clinic logo: PNG, JPEG or WebP decided by the bytes (else
 * 415), at most 2 MB and at most the clinic's upload size limit (else 413),
 * at most 4096×4096 by its header (else 422, before anything decodes it).
 * The file gets a generated name; the previous logo is removed. Audited as
 * `settings.updated` (`clinic.logoFileId` before and after).
 */
export async function setClinicLogo(
  ctx: ServiceContext,
  storage: FileStorage,
  bytes: Buffer,
): Promise<ClinicSettings> {
  const actorUserId = requireActor(ctx).userId;
  const { maxFileSizeBytes } = await loadUploadLimits(ctx.db);
  const maxBytes = Math.min(logoLimits.maxBytes, maxFileSizeBytes);
  if (bytes.length > maxBytes) {
    throw appError('PAYLOAD_TOO_LARGE', 'The logo is too large.', { maxBytes });
  }
  const sniffed = sniffImage(bytes);
  if (sniffed.kind === 'unsupported') {
    throw appError('UNSUPPORTED_MEDIA_TYPE', 'The logo must be a PNG, JPEG or WebP image.', {
      accepted: Object.keys(imageExtensions),
    });
  }
  if (sniffed.kind === 'corrupt') {
    throw appError('UNPROCESSABLE', 'The image is damaged or incomplete.');
  }
  if (sniffed.width > logoLimits.maxWidth || sniffed.height > logoLimits.maxHeight) {
    throw appError('UNPROCESSABLE', 'The image is too large; the limit is 4096×4096 pixels.', {
      width: sniffed.width,
      height: sniffed.height,
      maxWidth: logoLimits.maxWidth,
      maxHeight: logoLimits.maxHeight,
    });
  }
  const storagePath = await storage.write('logos', imageExtensions[sniffed.type], bytes);
  let previousId: string | null;
  try {
    previousId = await ctx.db.transaction(async (tx) => {
      await lockSettings(tx);
      const before = await currentLogoId(tx);
      const now = ctx.now();
      const file = await insertFile(tx, {
        ownerUserId: actorUserId,
        sha256: createHash('sha256').update(bytes).digest('hex'),
        contentType: sniffed.type,
        size: bytes.length,
        width: sniffed.width,
        height: sniffed.height,
        storagePath,
        createdAt: now,
      });
      await writeSetting(tx, settingKeys.clinicLogoFileId, file.id, { now, userId: actorUserId });
      await recordAuditEvent(
        tx,
        { now: ctx.now, actorUserId, request: ctx.request },
        logoChanged(before, file.id),
      );
      return before;
    });
  } catch (error) {
    await storage.remove(storagePath);
    throw error;
  }
  invalidateClinicSettingsCache(ctx.db);
  if (previousId !== null) {
    await removeStoredFile(ctx, storage, previousId);
  }
  return (await loadClinicSettings(ctx.db, ctx.config)).settings;
}

/** Removes the clinic logo (nothing to do without one); audited like a change. */
export async function removeClinicLogo(ctx: ServiceContext, storage: FileStorage): Promise<ClinicSettings> {
  const actorUserId = requireActor(ctx).userId;
  const previousId = await ctx.db.transaction(async (tx) => {
    await lockSettings(tx);
    const before = await currentLogoId(tx);
    if (before !== null) {
      await deleteSetting(tx, settingKeys.clinicLogoFileId);
      await recordAuditEvent(
        tx,
        { now: ctx.now, actorUserId, request: ctx.request },
        logoChanged(before, null),
      );
    }
    return before;
  });
  invalidateClinicSettingsCache(ctx.db);
  if (previousId !== null) {
    await removeStoredFile(ctx, storage, previousId);
  }
  return (await loadClinicSettings(ctx.db, ctx.config)).settings;
}

/** The current logo for anyone (it is shown on the sign-in page); 404 when there is none. */
export async function readClinicLogo(
  services: AppServices,
  storage: FileStorage,
): Promise<{ fileId: string; bytes: Buffer; contentType: ImageType; sha256: string }> {
  const { logoFileId } = await getCachedClinicSettings(services.db, services.config);
  const file = logoFileId === null ? null : await findFile(services.db, logoFileId);
  if (file === null) {
    throw appError('NOT_FOUND', 'The clinic has no logo.');
  }
  return {
    fileId: file.id,
    bytes: await storage.read(file.storagePath),
    contentType: file.contentType as ImageType,
    sha256: file.sha256,
  };
}

async function currentLogoId(db: ServiceContext['db']): Promise<string | null> {
  const value = (await readSettings(db, [settingKeys.clinicLogoFileId])).get(settingKeys.clinicLogoFileId);
  return typeof value === 'string' ? value : null;
}

function logoChanged(before: string | null, after: string | null) {
  return {
    action: 'settings.updated' as const,
    targetType: 'settings' as const,
    targetId: 'clinic',
    details: { changes: { [settingKeys.clinicLogoFileId]: { before, after } } },
  };
}

async function removeStoredFile(ctx: ServiceContext, storage: FileStorage, fileId: string): Promise<void> {
  const removed = await deleteFile(ctx.db, fileId);
  if (removed !== null) {
    await storage.remove(removed.storagePath);
  }
}
