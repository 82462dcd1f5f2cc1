/**
 * The event access matrix's fixtures (event-access-matrix.test.ts): for every client → server event,
 * payloads aimed at the visits under attack and how an unrelated caller must be answered; and the
 * malformed payloads every event must refuse. `fixtures` is typed as a record over the shared event
 * map, so a new event without a fixture does not compile.
 */
import type { Permission } from '@telemedicina/shared/permission-catalogue';
import type { ClientToServerEvents } from '@telemedicina/shared/realtime';
import type { TestVisit } from '../test/visit-fixtures.js';

export type EventName = keyof ClientToServerEvents;

/** What the visits under attack are, for building payloads. */
export interface Targets {
  /** A visit in progress: its doctor and patient are in the call. */
  call: TestVisit;
  /** A visit whose patient is in the waiting room; its doctor watches the waiting room. */
  waiting: TestVisit;
}

export interface Fixture {
  /** Payloads aimed at the targets. */
  payloads: (targets: Targets) => unknown[];
  /**
   * How an unrelated caller is answered:
   * - `refused`: an error acknowledgement;
   * - `harmless`: acknowledged as a no-op (leaving a visit one is not in, a typing flag nobody receives),
   *   checked for having no effect like the rest;
   * - `open`: any connected socket may use it (not visit-scoped).
   */
  outsider: 'refused' | 'harmless' | 'open';
  /** Permissions that legitimately allow an unrelated caller (staff who see every appointment). */
  allowedWith?: readonly Permission[];
  /** Rooms a legitimately allowed caller may end up in. */
  allowedRooms?: (targets: Targets) => string[];
}

export const validUuid = '0b8a1c3e-5d2f-4a6b-8c9d-0e1f2a3b4c5d';

export const fixtures = {
  'system.ping': { payloads: () => [{ nonce: 'matrix' }], outsider: 'open' },
  'visit.join': {
    payloads: (t) => [
      { appointmentId: t.call.appointmentId, lastSeq: 0 },
      { appointmentId: t.waiting.appointmentId, lastSeq: 0 },
    ],
    outsider: 'refused',
  },
  'visit.leave': {
    payloads: (t) => [{ appointmentId: t.call.appointmentId }, { appointmentId: t.waiting.appointmentId }],
    outsider: 'harmless',
  },
  'visit.signal': {
    payloads: (t) => [
      {
        appointmentId: t.call.appointmentId,
        to: `user:${t.call.patient.id}`,
        description: { type: 'offer', sdp: 'v=0 intruder' },
      },
      {
        appointmentId: t.call.appointmentId,
        to: `user:${t.call.doctor.id}`,
        candidate: { candidate: 'candidate:1 1 udp 1 127.0.0.1 9 typ host' },
      },
    ],
    outsider: 'refused',
  },
  'visit.media': {
    payloads: (t) => [
      { appointmentId: t.call.appointmentId, audio: true, video: false, screen: true, quality: 'low' },
      {
        appointmentId: t.call.appointmentId,
        audio: true,
        video: false,
        screen: false,
        quality: 'chat_only',
        reading: { indicator: 'weak', rttMs: 900, packetLoss: 0.5, relayed: true },
      },
    ],
    outsider: 'refused',
  },
  'chat.send': {
    payloads: (t) => [
      { appointmentId: t.call.appointmentId, clientId: 'matrix-intruder', body: 'intruso' },
      { appointmentId: t.waiting.appointmentId, clientId: 'matrix-intruder', body: 'intruso' },
    ],
    outsider: 'refused',
  },
  'chat.typing': {
    payloads: (t) => [{ appointmentId: t.call.appointmentId, typing: true }],
    outsider: 'harmless',
  },
  'waitingRoom.watch': {
    payloads: (t) => [{ doctorId: t.waiting.doctor.id }, { doctorId: t.call.doctor.id }],
    outsider: 'refused',
    allowedWith: ['appointments.read.any'],
    allowedRooms: (t) => [`waiting-room:${t.waiting.doctor.id}`, `waiting-room:${t.call.doctor.id}`],
  },
  'waitingRoom.message': {
    payloads: (t) => [
      { appointmentId: t.waiting.appointmentId, text: 'Mensaje falso' },
      { appointmentId: t.call.appointmentId, text: 'Mensaje falso' },
    ],
    outsider: 'refused',
  },
} satisfies Record<EventName, Fixture>;

export const eventNames = Object.keys(fixtures) as EventName[];

export const deep = (depth: number): unknown => {
  let value: unknown = { leaf: true };
  for (let level = 0; level < depth; level += 1) {
    value = { nested: value };
  }
  return value;
};

/** Payloads no event accepts: wrong types, missing fields, huge strings, deep objects, polluting keys. */
export function malformedPayloads(targets: Targets): [string, unknown][] {
  // Three fields of 300 kB stay under the 1 MB message limit (beyond it the connection is dropped, tested below).
  const huge = 'x'.repeat(300_000);
  const id = targets.call.appointmentId;
  return [
    ['no payload', undefined],
    ['null', null],
    ['a number', 42],
    ['a string', 'visit'],
    ['an array', [id]],
    ['an empty object', {}],
    ['wrong field types', { appointmentId: 42, nonce: 7, doctorId: false, typing: 'yes', body: 1, text: [] }],
    ['a huge string id', { appointmentId: huge, nonce: huge, doctorId: huge }],
    ['a non-uuid id', { appointmentId: "1' OR '1'='1", doctorId: '../../etc/passwd', nonce: '' }],
    ['deep nesting', { appointmentId: deep(1000), nonce: deep(1000), doctorId: deep(1000) }],
    [
      'prototype-pollution keys',
      JSON.parse(`{"__proto__": {"isAdmin": true}, "constructor": {"prototype": {"polluted": 1}}}`),
    ],
    [
      'an almost-uuid id',
      {
        appointmentId: `${validUuid}0`,
        doctorId: `${validUuid}0`,
        typing: 'maybe',
        lastSeq: -1,
        quality: 'ultra',
      },
    ],
  ];
}
