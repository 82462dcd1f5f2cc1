import { apiBasePath } from '@telemedicina/shared/api';
import type { Language } from '@telemedicina/shared/i18n';
import {
  deviceCheckResultSchema,
  type CallReadingSummary,
  type ChatMessage,
  type DeviceCheck,
  type GuestInvite,
  type VisitParticipant,
} from '@telemedicina/shared/visits';
import { documentLabelOf } from '../../lib/document-label.js';
import { kindOfMimeType } from '../../lib/document-sniff.js';
import type { VisitGuestRow, VisitMessageWithFile, VisitRow } from './visits.repository.js';

/** The stored device check as the contract shows it (null when none, or when the row is unreadable). */
export function presentDeviceCheck(visit: VisitRow | null | undefined): DeviceCheck | null {
  if (
    visit === null ||
    visit === undefined ||
    visit.deviceCheck === null ||
    visit.deviceRisk === null ||
    visit.deviceCheckedAt === null
  ) {
    return null;
  }
  const result = deviceCheckResultSchema.safeParse(visit.deviceCheck);
  if (!result.success) {
    return null;
  }
  return { result: result.data, risk: visit.deviceRisk, checkedAt: visit.deviceCheckedAt.toISOString() };
}

/** Where a participant downloads a file shared in the visit. */
export function visitFileUrl(appointmentId: string, fileId: string): string {
  return `${apiBasePath}/visits/${appointmentId}/files/${fileId}`;
}

/**
 * The name a shared file is listed and downloaded under: the sender's base name with the ending of
 * the content the server recognised (`invoice.html` holding a PNG is `invoice.png`), so no download
 * is saved as a page or a program. Applied on reading too, so files stored before this rule are
 * named the same way.
 */
export function visitFileNameOf(fileName: string | null, contentType: string | null): string {
  const kind = kindOfMimeType(contentType);
  return kind === null ? 'file' : documentLabelOf(fileName ?? undefined, kind);
}

/** Who sent a message: from the stored key and name (a guest may be gone, the message stays). */
function senderOf(
  message: VisitMessageWithFile,
  roles: ReadonlyMap<string, VisitParticipant['role']>,
): VisitParticipant {
  return {
    key: message.senderKey,
    name: message.senderName,
    role: roles.get(message.senderKey) ?? (message.senderGuestId === null ? 'patient' : 'companion'),
  };
}

/**
 * A chat message for the participants. `roles` maps participant keys to
 * their role in this visit (doctor, patient, guests).
 */
export function presentChatMessage(
  message: VisitMessageWithFile,
  roles: ReadonlyMap<string, VisitParticipant['role']>,
): ChatMessage {
  const hasFile = message.kind === 'file' && message.fileId !== null;
  return {
    id: message.id,
    appointmentId: message.appointmentId,
    seq: message.seq,
    sender: senderOf(message, roles),
    clientId: message.clientId,
    kind: message.kind,
    body: message.body,
    file:
      hasFile && message.fileId !== null
        ? {
            id: message.fileId,
            name: visitFileNameOf(message.fileName, message.fileContentType),
            contentType: message.fileContentType ?? 'application/octet-stream',
            size: message.fileSize ?? 0,
            url: visitFileUrl(message.appointmentId, message.fileId),
          }
        : null,
    createdAt: message.createdAt.toISOString(),
  };
}

export function presentGuestInvite(guest: VisitGuestRow, url?: string): GuestInvite {
  return {
    id: guest.id,
    name: guest.name,
    role: guest.role,
    language: guest.language as Language,
    expiresAt: guest.expiresAt.toISOString(),
    redeemedAt: guest.redeemedAt?.toISOString() ?? null,
    revokedAt: guest.revokedAt?.toISOString() ?? null,
    createdAt: guest.createdAt.toISOString(),
    ...(url === undefined ? {} : { url }),
  };
}

export function guestParticipant(guest: Pick<VisitGuestRow, 'id' | 'name' | 'role'>): VisitParticipant {
  return { key: `guest:${guest.id}`, name: guest.name, role: guest.role };
}

/** The visit's kept connection readings, one entry per participant (for the doctor and staff). */
export function presentCallReadings(readings: VisitRow['callReadings'] | undefined): CallReadingSummary[] {
  return Object.entries(readings ?? {})
    .map(([key, reading]) => ({
      key,
      role: reading.role,
      worstRttMs: reading.worstRttMs,
      worstPacketLoss: reading.worstPacketLoss,
      relayed: reading.relayed,
      lastIndicator: reading.lastIndicator,
      updatedAt: reading.updatedAt,
    }))
    .sort((a, b) => a.key.localeCompare(b.key));
}
