import { createHash, randomUUID } from 'node:crypto';
import type { ChatMessage, VisitParticipant } from '@telemedicina/shared/visits';
import { appError } from '../../lib/app-error.js';
import { insertFile } from '../files/files.repository.js';
import { loadUploadLimits } from '../settings/settings.service.js';
import { isUuid } from '../../lib/uuid.js';
import { documentLabelOf } from '../../lib/document-label.js';
import { mimeTypeOf, sniffDocument, uploadKindExtensions } from '../../lib/document-sniff.js';
import type { VisitContext } from './visit-context.js';
import { canReadVisitChat, canUseVisitRecord, isVisitParticipant } from './visits.policy.js';
import { presentChatMessage, visitFileNameOf } from './visits.presenter.js';
import { appendVisitMessage, findVisitFile } from './visits.repository.js';
import { loadVisit } from './visit-access.js';
import { phaseFor } from './visit-state.service.js';

/**
 * Shares a file in the visit's chat: the doctor or the patient, while the
 * call is on (admitted). Limits and allowed kinds come from the clinic's
 * upload settings (413 too large; 415 a kind not allowed, decided by the
 * content). The bytes are stored under a generated name; the browser's file
 * name is only a sanitized label whose ending is the recognised kind's
 * (`invoice.html` holding a PNG is kept as `invoice.png`). Creates a `file` message with the next
 * sequence number, pushed as `chat.message` to the call. A resend with the
 * same `clientId` answers the stored message.
 */
export async function shareVisitFile(
  ctx: VisitContext,
  appointmentId: string,
  upload: { bytes: Buffer; fileName: string | undefined; clientId: string | undefined },
): Promise<ChatMessage> {
  const visit = await loadVisit(ctx, appointmentId);
  const caller = ctx.caller;
  if (!canUseVisitRecord(visit.capacity) || caller?.kind !== 'user') {
    throw appError('NOT_FOUND', 'No such visit.');
  }
  const { appointment } = visit;
  if (['completed', 'cancelled', 'no_show'].includes(appointment.status)) {
    throw appError('VISIT_ENDED', 'This visit has ended.');
  }
  if (appointment.status !== 'in_progress') {
    throw appError('VISIT_NOT_ADMITTED', 'Files are shared during the call.');
  }
  const limits = await loadUploadLimits(ctx.db);
  if (upload.bytes.length > limits.maxFileSizeBytes) {
    throw appError('PAYLOAD_TOO_LARGE', 'The file is too large.', {
      maxBytes: limits.maxFileSizeBytes,
    });
  }
  const kind = sniffDocument(upload.bytes);
  if (kind === null || !limits.allowedKinds.includes(kind)) {
    throw appError('UNSUPPORTED_MEDIA_TYPE', 'This kind of file cannot be shared.', {
      accepted: limits.allowedKinds,
    });
  }
  const clientId = upload.clientId?.trim().slice(0, 64) || randomUUID();
  const contentType = mimeTypeOf(kind);
  const storagePath = await ctx.storage.write('visit-files', uploadKindExtensions[kind], upload.bytes);
  const now = ctx.now();
  let stored: Awaited<ReturnType<typeof appendVisitMessage>>;
  try {
    const file = await insertFile(ctx.db, {
      ownerUserId: caller.userId,
      sha256: createHash('sha256').update(upload.bytes).digest('hex'),
      contentType,
      size: upload.bytes.length,
      storagePath,
      createdAt: now,
    });
    stored = await appendVisitMessage(
      ctx.db,
      {
        appointmentId: appointment.id,
        senderUserId: caller.userId,
        senderGuestId: null,
        senderName: visit.self.name,
        senderKey: visit.self.key,
        clientId,
        kind: 'file',
        body: null,
        fileId: file.id,
        fileName: documentLabelOf(upload.fileName, kind),
        createdAt: now,
      },
      { contentType, size: upload.bytes.length },
    );
  } catch (error) {
    await ctx.storage.remove(storagePath);
    throw error;
  }
  if (!stored.created) {
    // A resend: the first upload's message stands; this copy is not kept.
    await ctx.storage.remove(storagePath);
  }
  const roles = new Map<string, VisitParticipant['role']>([[visit.self.key, visit.self.role]]);
  const message = presentChatMessage(stored.message, roles);
  if (stored.created) {
    await ctx.audit({
      action: 'visit.file_shared',
      targetType: 'appointment',
      targetId: appointment.id,
      details: { fileId: stored.message.fileId, contentType, size: upload.bytes.length, seq: message.seq },
    });
    ctx.realtime.toCall(appointment.id, 'chat.message', message);
  }
  return message;
}

/**
 * A file shared in the visit, for whoever reads its chat ({@link canReadVisitChat}): the doctor and
 * the patient, and a guest only while admitted into the call — never from the waiting room, as the
 * socket's join shows a waiting guest no message. 404 for anyone else.
 */
export async function readVisitFile(
  ctx: VisitContext,
  appointmentId: string,
  fileId: string,
): Promise<{ bytes: Buffer; contentType: string; fileName: string }> {
  const visit = await loadVisit(ctx, appointmentId);
  if (
    !isUuid(fileId) ||
    !isVisitParticipant(visit.capacity) ||
    !canReadVisitChat(visit.capacity, await phaseFor(ctx, visit))
  ) {
    throw appError('NOT_FOUND', 'No such file.');
  }
  const found = await findVisitFile(ctx.db, visit.appointment.id, fileId);
  if (found === null) {
    throw appError('NOT_FOUND', 'No such file.');
  }
  return {
    bytes: await ctx.storage.read(found.file.storagePath),
    contentType: found.file.contentType,
    fileName: visitFileNameOf(found.fileName, found.file.contentType),
  };
}
