import { createHash } from 'node:crypto';
import type { MeResponse } from '@telemedicina/shared/auth';
import { appError } from '../../lib/app-error.js';
import { imageExtensions, sniffImage, type ImageType } from '../../lib/image-sniff.js';
import type { ServiceContext } from '../context.js';
import type { FileStorage } from '../files/file-storage.js';
import { deleteFile, findFile, insertFile } from '../files/files.repository.js';
import { loadUploadLimits } from '../settings/settings.service.js';
import { findUserById, findUserRoles, updateUser } from './users.repository.js';
import { canViewPhoto } from './users.policy.js';
import { isUuid } from '../../lib/uuid.js';
import { loadActorUser } from './actor.js';
import { getMe } from './me.service.js';

/** Largest photo accepted, and the largest canvas (an image bomb guard). */
export const photoLimits = { maxBytes: 5 * 1024 * 1024, maxWidth: 4096, maxHeight: 4096 } as const;

/**
 * Stores a new profile photo. The type is decided by the bytes (PNG, JPEG or
 * WebP), never by the file name or the declared type: anything else is 415.
 * The size comes from the image header and a canvas over 4096×4096 is
 * refused (422) before anything decodes it. The file is stored under a
 * generated name and replaces the previous photo.
 */
export async function setPhoto(
  ctx: ServiceContext,
  storage: FileStorage,
  bytes: Buffer,
): Promise<MeResponse> {
  const user = await loadActorUser(ctx);
  // The clinic's upload size limit applies too (it may be lower than the 5 MB cap).
  const { maxFileSizeBytes } = await loadUploadLimits(ctx.db);
  if (bytes.length > maxFileSizeBytes) {
    throw appError('PAYLOAD_TOO_LARGE', 'The photo is too large.', { maxBytes: maxFileSizeBytes });
  }
  const sniffed = sniffImage(bytes);
  if (sniffed.kind === 'unsupported') {
    throw appError('UNSUPPORTED_MEDIA_TYPE', 'The photo must be a PNG, JPEG or WebP image.', {
      accepted: Object.keys(imageExtensions),
    });
  }
  if (sniffed.kind === 'corrupt') {
    throw appError('UNPROCESSABLE', 'The image is damaged or incomplete.');
  }
  if (sniffed.width > photoLimits.maxWidth || sniffed.height > photoLimits.maxHeight) {
    throw appError('UNPROCESSABLE', 'The image is too large; the limit is 4096×4096 pixels.', {
      width: sniffed.width,
      height: sniffed.height,
      maxWidth: photoLimits.maxWidth,
      maxHeight: photoLimits.maxHeight,
    });
  }
  const storagePath = await storage.write('photos', imageExtensions[sniffed.type], bytes);
  const now = ctx.now();
  const previousId = user.photoFileId;
  try {
    await ctx.db.transaction(async (tx) => {
      const file = await insertFile(tx, {
        ownerUserId: user.id,
        sha256: createHash('sha256').update(bytes).digest('hex'),
        contentType: sniffed.type,
        size: bytes.length,
        width: sniffed.width,
        height: sniffed.height,
        storagePath,
        createdAt: now,
      });
      await updateUser(tx, user.id, { photoFileId: file.id, updatedAt: now });
    });
  } catch (error) {
    await storage.remove(storagePath);
    throw error;
  }
  if (previousId !== null) {
    await removeStoredFile(ctx, storage, previousId);
  }
  await ctx.audit({
    action: 'profile.updated',
    targetType: 'user',
    targetId: user.id,
    details: { fields: ['photo'] },
  });
  return getMe(ctx);
}

export async function removePhoto(ctx: ServiceContext, storage: FileStorage): Promise<MeResponse> {
  const user = await loadActorUser(ctx);
  if (user.photoFileId !== null) {
    await updateUser(ctx.db, user.id, { photoFileId: null, updatedAt: ctx.now() });
    await removeStoredFile(ctx, storage, user.photoFileId);
    await ctx.audit({
      action: 'profile.updated',
      targetType: 'user',
      targetId: user.id,
      details: { fields: ['photo'], removed: true },
    });
  }
  return getMe(ctx);
}

async function removeStoredFile(ctx: ServiceContext, storage: FileStorage, fileId: string): Promise<void> {
  const removed = await deleteFile(ctx.db, fileId);
  if (removed !== null) {
    await storage.remove(removed.storagePath);
  }
}

/**
 * A user's photo for someone allowed to see it: themselves, holders of
 * `users.read`, or anyone signed in when the user is a doctor (the directory
 * shows doctors' photos). Otherwise, and when there is no photo, 404.
 */
export async function readPhoto(
  ctx: ServiceContext,
  storage: FileStorage,
  userId: string,
): Promise<{ bytes: Buffer; contentType: ImageType; sha256: string }> {
  const notFound = appError('NOT_FOUND', 'No photo.');
  const actor = ctx.actor;
  if (actor === null || !isUuid(userId)) {
    throw notFound;
  }
  const user = await findUserById(ctx.db, userId);
  const photoFileId = user?.photoFileId ?? null;
  if (user === null || photoFileId === null) {
    throw notFound;
  }
  const isDoctor = (await findUserRoles(ctx.db, user.id)).some((role) => role.key === 'doctor');
  if (!canViewPhoto(actor, { id: user.id, isDoctor })) {
    throw notFound;
  }
  const file = await findFile(ctx.db, photoFileId);
  if (file === null) {
    throw notFound;
  }
  return {
    bytes: await storage.read(file.storagePath),
    contentType: file.contentType as ImageType,
    sha256: file.sha256,
  };
}
