import { z } from 'zod';
import { displayText } from './display-text.js';
import { appointmentStatuses, languageSchema } from './common.js';

/**
 * Contracts of video visits: pre-call device check, virtual waiting
 * room, call signalling, in-visit chat and guests. REST paths are under
 * `/api/v1`; real-time events are typed in `realtime.ts`.
 *
 * Participants are named by a stable key: `user:<userId>` or `guest:<guestId>`.
 * A participant has at most one live connection in a visit; joining again
 * (a reload, a second tab) replaces the previous one.
 */

// ---------------------------------------------------------------- device check

export const deviceCheckStatuses = ['ok', 'denied', 'missing', 'error'] as const;
export const deviceCheckStatusSchema = z.enum(deviceCheckStatuses, { message: 'validation.status' });
export type DeviceCheckStatus = z.infer<typeof deviceCheckStatusSchema>;

/** `PUT /visits/:appointmentId/device-check`: what the patient's browser found. */
export const deviceCheckResultSchema = z
  .object({
    /** RTCPeerConnection, getUserMedia and WebSocket are all there. */
    browserSupported: z.boolean(),
    camera: deviceCheckStatusSchema,
    microphone: deviceCheckStatusSchema,
    /** The user confirmed hearing the test sound ('untested' when skipped). */
    speaker: z.enum(['ok', 'failed', 'untested'], { message: 'validation.status' }),
    /**
     * ICE gathering against the configured servers: 'direct' (host/srflx candidates),
     * 'relay' (TURN only), 'failed' (nothing gathered), 'untested'.
     */
    connectivity: z.enum(['direct', 'relay', 'failed', 'untested'], { message: 'validation.status' }),
    /** Round trip of the real-time channel in ms, when measured. */
    realtimeRttMs: z.number().int().min(0).max(60_000).nullish(),
    /** Short browser description (e.g. "Chrome 156 on Android"), for staff. */
    browser: z.string().trim().max(120).nullish(),
  })
  .strict();
export type DeviceCheckResult = z.infer<typeof deviceCheckResultSchema>;

export const deviceRisks = ['ok', 'warning', 'blocked'] as const;
export type DeviceRisk = (typeof deviceRisks)[number];

/**
 * A visit is 'blocked' when the browser is unsupported, the camera and the microphone are
 * both unusable or no connection can be made; 'warning' when one device is unusable, the
 * speaker failed or only a relay works; 'ok' otherwise.
 */
export function deviceRiskOf(result: DeviceCheckResult): DeviceRisk {
  const cameraOk = result.camera === 'ok';
  const microphoneOk = result.microphone === 'ok';
  if (!result.browserSupported || (!cameraOk && !microphoneOk) || result.connectivity === 'failed') {
    return 'blocked';
  }
  if (!cameraOk || !microphoneOk || result.speaker === 'failed' || result.connectivity === 'relay') {
    return 'warning';
  }
  return 'ok';
}

export const deviceCheckSchema = z.object({
  result: deviceCheckResultSchema,
  risk: z.enum(deviceRisks),
  checkedAt: z.string(),
});
export type DeviceCheck = z.infer<typeof deviceCheckSchema>;

// ---------------------------------------------------------------- participants

export const visitRoles = ['doctor', 'patient', 'interpreter', 'companion', 'staff'] as const;
export type VisitRole = (typeof visitRoles)[number];

export const visitParticipantSchema = z.object({
  /** `user:<id>` or `guest:<id>`. */
  key: z.string(),
  name: z.string(),
  role: z.enum(visitRoles),
});
export type VisitParticipant = z.infer<typeof visitParticipantSchema>;

/**
 * A sender's video level: full video, reduced video, sound only, or (the connection cannot carry
 * even sound) the chat only.
 */
export const callQualityLevels = ['high', 'low', 'audio_only', 'chat_only'] as const;
export type CallQualityLevel = (typeof callQualityLevels)[number];

/** The plain indicator people see: good, weak or lost (unknown while nothing is measured yet). */
export const connectionIndicators = ['good', 'weak', 'lost', 'unknown'] as const;
export type ConnectionIndicator = (typeof connectionIndicators)[number];

/**
 * One reading of the sender's own connection (getStats, its weakest link): shown to the others and
 * kept on the visit (worst values) for support. Clients send one every few seconds at most.
 */
export const connectionReadingSchema = z.object({
  indicator: z.enum(connectionIndicators),
  /** Round trip of the selected candidate pair (ms). */
  rttMs: z.number().int().min(0).max(60_000).nullable(),
  /** Fraction of the packets lost since the previous reading (0…1). */
  packetLoss: z.number().min(0).max(1).nullable(),
  /** Whether the media goes through a TURN relay (the selected local or remote candidate is `relay`). */
  relayed: z.boolean().nullable(),
});
export type ConnectionReading = z.infer<typeof connectionReadingSchema>;

/**
 * What the visit keeps of one participant's connection during the call (for support): the worst
 * round trip and loss reported, whether the media was ever relayed, and the last indicator.
 */
export const callReadingSummarySchema = z.object({
  key: z.string(),
  role: z.enum(visitRoles),
  worstRttMs: z.number().nullable(),
  worstPacketLoss: z.number().nullable(),
  relayed: z.boolean(),
  lastIndicator: z.enum(connectionIndicators),
  updatedAt: z.string(),
});
export type CallReadingSummary = z.infer<typeof callReadingSummarySchema>;

/**
 * Perfect negotiation needs one polite side per pair: the participant whose
 * key sorts after the other's is polite (the same answer on both sides).
 */
export function isPoliteTowards(ownKey: string, otherKey: string): boolean {
  return ownKey > otherKey;
}

// ---------------------------------------------------------------- visit state

export const visitPhases = [
  /** Before check-in opens. */
  'too_early',
  /** Check-in open, the patient has not checked in. */
  'check_in_open',
  /** Checked in, waiting to be admitted. */
  'waiting',
  /** Admitted: the call is on. */
  'in_call',
  /** The doctor ended it (appointment completed). */
  'ended',
  /** Cancelled, no-show or past the grace period without a call. */
  'closed',
] as const;
export type VisitPhase = (typeof visitPhases)[number];

/** `GET /visits/:appointmentId`: everything a participant's screen needs. */
export const visitStateSchema = z.object({
  appointmentId: z.string(),
  status: z.enum(appointmentStatuses),
  phase: z.enum(visitPhases),
  startsAt: z.string(),
  endsAt: z.string(),
  /** When the patient may check in. */
  checkInOpensAt: z.string(),
  checkedInAt: z.string().nullable(),
  admittedAt: z.string().nullable(),
  startedAt: z.string().nullable(),
  endedAt: z.string().nullable(),
  doctor: z.object({ id: z.string(), name: z.string(), timeZone: z.string() }),
  patient: z.object({ id: z.string(), name: z.string() }),
  /** Who is asking, in this visit. */
  self: visitParticipantSchema,
  /** For a waiting patient or guest: 1 = next. Null otherwise. */
  queuePosition: z.number().int().nullable(),
  /** Estimated minutes until admission, for a waiting patient or guest. */
  estimatedWaitMinutes: z.number().int().nullable(),
  /** The doctor announced being late by this many minutes (null = on time). */
  runningLateMinutes: z.number().int().nullable(),
  deviceCheck: deviceCheckSchema.nullable(),
  /**
   * STUN/TURN servers for RTCPeerConnection: the clinic's (settings), plus, when the server has a
   * TURN secret, a TURN entry with credentials issued to this participant alone, short-lived.
   */
  iceServers: z.array(
    z.object({
      urls: z.array(z.string()),
      username: z.string().optional(),
      credential: z.string().optional(),
    }),
  ),
  /**
   * For how many seconds from this answer the issued TURN credentials are accepted for new relays
   * (a duration, so a device's wrong clock does not matter); the page asks for its state again
   * before then. Absent or null: nothing in `iceServers` expires.
   */
  iceServersTtlSeconds: z.number().int().positive().nullable().optional(),
  /** The patient and the doctor may share files; limits come from the upload settings. */
  canShareFiles: z.boolean(),
  canInvite: z.boolean(),
  canHost: z.boolean(),
  /** The call's connection readings per participant: for the doctor and staff only (support). */
  callReadings: z.array(callReadingSummarySchema).optional(),
});
export type VisitState = z.infer<typeof visitStateSchema>;

// ---------------------------------------------------------------- waiting room (doctor's side)

/** `GET /doctors/:doctorId/waiting-room` and the `waitingRoom.updated` event. */
export const waitingRoomEntrySchema = z.object({
  appointmentId: z.string(),
  patient: z.object({ id: z.string(), name: z.string() }),
  startsAt: z.string(),
  endsAt: z.string(),
  status: z.enum(appointmentStatuses),
  checkedInAt: z.string().nullable(),
  admittedAt: z.string().nullable(),
  /** Is the patient's page connected to the waiting room right now. */
  online: z.boolean(),
  deviceCheck: deviceCheckSchema.nullable(),
  /** Guests waiting to be admitted to this visit. */
  waitingGuests: z.array(visitParticipantSchema),
});
export type WaitingRoomEntry = z.infer<typeof waitingRoomEntrySchema>;

export const waitingRoomSchema = z.object({
  doctorId: z.string(),
  /** Today's visits in the doctor's zone that are not final, in start order. */
  entries: z.array(waitingRoomEntrySchema),
  runningLateMinutes: z.number().int().nullable(),
});
export type WaitingRoom = z.infer<typeof waitingRoomSchema>;

/** `POST /visits/:appointmentId/running-late`: 0 or null clears the notice. */
export const runningLateRequestSchema = z.object({
  minutes: z
    .number({ message: 'validation.number' })
    .int({ message: 'validation.integer' })
    .min(0, { message: 'validation.range' })
    .max(240, { message: 'validation.range' })
    .nullable(),
});
export type RunningLateRequest = z.infer<typeof runningLateRequestSchema>;

/** `POST /visits/:appointmentId/admit`: admit the patient, or one waiting guest. */
export const admitRequestSchema = z.object({
  /** Absent = the patient. */
  participantKey: z.string().max(100).optional(),
});
export type AdmitRequest = z.infer<typeof admitRequestSchema>;

// ---------------------------------------------------------------- chat

export const chatBodySchema = z
  .string({ message: 'validation.required' })
  .trim()
  .min(1, { message: 'validation.required' })
  .max(4000, { message: 'validation.tooLong' });

export const chatMessageSchema = z.object({
  id: z.string(),
  appointmentId: z.string(),
  /** 1, 2, 3… per visit, without gaps. */
  seq: z.number().int(),
  sender: visitParticipantSchema,
  clientId: z.string(),
  kind: z.enum(['text', 'file']),
  body: z.string().nullable(),
  file: z
    .object({
      id: z.string(),
      name: z.string(),
      contentType: z.string(),
      size: z.number(),
      /** `GET` URL (participants only). */
      url: z.string(),
    })
    .nullable(),
  createdAt: z.string(),
});
export type ChatMessage = z.infer<typeof chatMessageSchema>;

/** `GET /visits/:appointmentId/messages?after=<seq>`: messages with a larger sequence, oldest first. */
export const chatHistoryQuerySchema = z.object({
  after: z.coerce.number({ message: 'validation.number' }).int().min(0).default(0),
  limit: z.coerce.number({ message: 'validation.number' }).int().min(1).max(500).default(200),
});
export type ChatHistoryQuery = z.infer<typeof chatHistoryQuerySchema>;
export const chatHistorySchema = z.object({ data: z.array(chatMessageSchema), lastSeq: z.number().int() });
export type ChatHistory = z.infer<typeof chatHistorySchema>;

/**
 * `POST /visits/:appointmentId/files` (multipart, field `file`, optional field `clientId`):
 * shares a file in the chat; answers the chat message (also pushed as `chat.message`).
 */
export const visitFileFieldName = 'file';

// ---------------------------------------------------------------- guests

export const createGuestInviteRequestSchema = z.object({
  name: displayText(
    z
      .string({ message: 'validation.required' })
      .trim()
      .min(2, { message: 'validation.nameTooShort' })
      .max(80, { message: 'validation.nameTooLong' }),
  ),
  role: z.enum(['interpreter', 'companion'], { message: 'validation.role' }),
  language: languageSchema,
  /** Link lifetime; default 24 h, at most 7 days, never past the visit's grace period. */
  expiresInMinutes: z
    .number({ message: 'validation.number' })
    .int()
    .min(5, { message: 'validation.range' })
    .max(7 * 24 * 60, { message: 'validation.range' })
    .default(24 * 60),
});
export type CreateGuestInviteRequest = z.infer<typeof createGuestInviteRequestSchema>;

export const guestInviteSchema = z.object({
  id: z.string(),
  name: z.string(),
  role: z.enum(['interpreter', 'companion']),
  language: languageSchema,
  expiresAt: z.string(),
  redeemedAt: z.string().nullable(),
  revokedAt: z.string().nullable(),
  createdAt: z.string(),
  /** Only in the answer that created it: the link to hand to the guest. */
  url: z.string().optional(),
});
export type GuestInvite = z.infer<typeof guestInviteSchema>;
export const guestInviteListSchema = z.object({ data: z.array(guestInviteSchema) });

/** `POST /visit-guests/redeem` (public): the token from the link; sets the guest cookie. */
export const redeemGuestInviteRequestSchema = z.object({ token: z.string().min(20).max(200) });
export const redeemGuestInviteResponseSchema = z.object({
  appointmentId: z.string(),
  guest: visitParticipantSchema,
  language: languageSchema,
});
export type RedeemGuestInviteResponse = z.infer<typeof redeemGuestInviteResponseSchema>;

/** Name of the cookie holding a redeemed guest's visit-scoped session. */
export const guestSessionCookieName = 'tm_guest';

// ---------------------------------------------------------------- real-time payloads

const appointmentIdSchema = z.uuid({ message: 'validation.id' });

/** `visit.join`: enter the waiting room or, once admitted, the call. */
export const visitJoinSchema = z.object({
  appointmentId: appointmentIdSchema,
  /** Highest chat sequence the client already has (0 = none): the ack replays what follows. */
  lastSeq: z.number().int().min(0).default(0),
});
export type VisitJoin = z.infer<typeof visitJoinSchema>;

export const visitJoinResultSchema = z.object({
  state: visitStateSchema,
  /** True when this connection is in the call (doctor, or admitted patient/guest). */
  inCall: z.boolean(),
  /** Others currently in the call (to open a peer connection with each). */
  participants: z.array(visitParticipantSchema),
  /** Chat messages after `lastSeq`. */
  messages: z.array(chatMessageSchema),
});
export type VisitJoinResult = z.infer<typeof visitJoinResultSchema>;

export const visitRefSchema = z.object({ appointmentId: appointmentIdSchema });
export type VisitRef = z.infer<typeof visitRefSchema>;

/** `visit.signal` from a client: an SDP description or an ICE candidate for one other participant. */
export const visitSignalSchema = z
  .object({
    appointmentId: appointmentIdSchema,
    to: z.string().min(1).max(100),
    description: z
      .object({ type: z.enum(['offer', 'answer', 'pranswer', 'rollback']), sdp: z.string().max(100_000) })
      .optional(),
    candidate: z
      .object({
        candidate: z.string().max(2_000),
        sdpMid: z.string().max(100).nullish(),
        sdpMLineIndex: z.number().int().min(0).max(1000).nullish(),
        usernameFragment: z.string().max(256).nullish(),
      })
      .nullish(),
    /** Tells the other side to restart ICE / rebuild its connection to the sender. */
    restart: z.boolean().optional(),
  })
  .refine((value) => value.description !== undefined || value.candidate !== undefined || value.restart, {
    message: 'validation.required',
  });
export type VisitSignal = z.infer<typeof visitSignalSchema>;
/** `visit.signal` as delivered: `from` replaces `to`. */
export type VisitSignalDelivery = Omit<VisitSignal, 'to' | 'appointmentId'> & {
  appointmentId: string;
  from: string;
};

export const chatSendSchema = z.object({
  appointmentId: appointmentIdSchema,
  /** Chosen by the sender (e.g. a UUID); resending the same id returns the stored message. */
  clientId: z.string().min(1).max(64),
  body: chatBodySchema,
});
export type ChatSend = z.infer<typeof chatSendSchema>;

export const chatTypingSchema = z.object({ appointmentId: appointmentIdSchema, typing: z.boolean() });
export type ChatTyping = z.infer<typeof chatTypingSchema>;

export const waitingRoomWatchSchema = z.object({ doctorId: z.uuid({ message: 'validation.id' }) });
export type WaitingRoomWatch = z.infer<typeof waitingRoomWatchSchema>;

/** `waitingRoom.message`: the doctor writes to a waiting patient (not kept in the chat). */
export const waitingMessageSchema = z.object({
  appointmentId: appointmentIdSchema,
  text: z
    .string()
    .trim()
    .min(1, { message: 'validation.required' })
    .max(500, { message: 'validation.tooLong' }),
});
export type WaitingMessage = z.infer<typeof waitingMessageSchema>;

/** Connection quality a client reports about itself (shown to the others). */
export const visitMediaStateSchema = z.object({
  appointmentId: appointmentIdSchema,
  audio: z.boolean(),
  video: z.boolean(),
  screen: z.boolean(),
  /** The sender's own step-down level. */
  quality: z.enum(callQualityLevels),
  /** The sender's latest reading of its connection (absent before the first measurement). */
  reading: connectionReadingSchema.optional(),
});
export type VisitMediaState = z.infer<typeof visitMediaStateSchema>;
