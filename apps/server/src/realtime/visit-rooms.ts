import type { ServerToClientEvents } from '@telemedicina/shared/realtime';
import type { VisitParticipant } from '@telemedicina/shared/visits';
import type { TypedServer } from './types.js';

/**
 * Rooms of a video visit. Every membership change goes through the adapter
 * (`socketsJoin`, `socketsLeave`, `fetchSockets`), so it reaches sockets
 * connected to any instance when the Redis adapter is on.
 *
 * - `visit:<id>:call`: the connections in the call (the host, admitted participants).
 * - `visit:<id>:waiting`: connections waiting to be admitted.
 * - `visit:<id>:key:<participantKey>`: the one live connection of a participant.
 * - `visit:<id>:call:<participantKey>`: the same, only while it is in the call.
 * - `waiting-room:<doctorId>`: the doctor's (or staff's) live view of the queue.
 */
export const visitCallRoom = (appointmentId: string): string => `visit:${appointmentId}:call`;
export const visitWaitingRoom = (appointmentId: string): string => `visit:${appointmentId}:waiting`;
export const visitKeyRoom = (appointmentId: string, key: string): string =>
  `visit:${appointmentId}:key:${key}`;
/** A participant's connection while it is in the call: signalling is delivered only there. */
export const visitCallKeyRoom = (appointmentId: string, key: string): string =>
  `visit:${appointmentId}:call:${key}`;
export const waitingRoomWatchRoom = (doctorId: string): string => `waiting-room:${doctorId}`;

/** One live connection in a visit, as any instance sees it. */
export interface VisitPresence {
  socketId: string;
  appointmentId: string;
  participant: VisitParticipant;
  inCall: boolean;
}

/** The visit-level operations services need from the real-time server (null when it is not running). */
export interface VisitRealtime {
  /** Who is connected to these visits (waiting or in the call), on every instance. */
  presence(appointmentIds: readonly string[]): Promise<VisitPresence[]>;
  /** Moves a participant's connection from the waiting room into the call. */
  admit(appointmentId: string, key: string): Promise<void>;
  /** Takes every connection out of the call and the waiting room (the visit ended). */
  clear(appointmentId: string): Promise<void>;
  /** Disconnects every connection of a guest (invitation revoked). */
  disconnectGuest(guestId: string): void;
  /** Sends an event to one participant's connection. */
  toParticipant<E extends keyof ServerToClientEvents>(
    appointmentId: string,
    key: string,
    event: E,
    ...args: Parameters<ServerToClientEvents[E]>
  ): void;
  /** Sends an event to everyone in the call but one participant. */
  toCallExcept<E extends keyof ServerToClientEvents>(
    appointmentId: string,
    key: string,
    event: E,
    ...args: Parameters<ServerToClientEvents[E]>
  ): void;
  /** Sends an event to everyone in the call. */
  toCall<E extends keyof ServerToClientEvents>(
    appointmentId: string,
    event: E,
    ...args: Parameters<ServerToClientEvents[E]>
  ): void;
  /** Sends an event to the watchers of a doctor's waiting room. */
  toWatchers<E extends keyof ServerToClientEvents>(
    doctorId: string,
    event: E,
    ...args: Parameters<ServerToClientEvents[E]>
  ): void;
  /** Whether anyone (on any instance) watches this doctor's waiting room. */
  hasWatchers(doctorId: string): Promise<boolean>;
}

/** The {@link VisitRealtime} of a Socket.IO server. */
export function createVisitRealtime(getIo: () => TypedServer | null): VisitRealtime {
  return {
    presence: async (appointmentIds) => {
      const io = getIo();
      if (io === null || appointmentIds.length === 0) {
        return [];
      }
      const wanted = new Set(appointmentIds);
      const rooms = appointmentIds.flatMap((id) => [visitCallRoom(id), visitWaitingRoom(id)]);
      const sockets = await io.in(rooms).fetchSockets();
      const result: VisitPresence[] = [];
      for (const socket of sockets) {
        const visit = socket.data.visit;
        if (visit === null || !wanted.has(visit.appointmentId)) {
          continue;
        }
        const inCall = socket.rooms.has(visitCallRoom(visit.appointmentId));
        if (!inCall && !socket.rooms.has(visitWaitingRoom(visit.appointmentId))) {
          continue;
        }
        result.push({
          socketId: socket.id,
          appointmentId: visit.appointmentId,
          participant: visit.participant,
          inCall,
        });
      }
      return result;
    },
    admit: async (appointmentId, key) => {
      const io = getIo();
      if (io === null) {
        return;
      }
      const room = visitKeyRoom(appointmentId, key);
      io.in(room).socketsJoin([visitCallRoom(appointmentId), visitCallKeyRoom(appointmentId, key)]);
      io.in(room).socketsLeave(visitWaitingRoom(appointmentId));
      await Promise.resolve();
    },
    clear: async (appointmentId) => {
      const io = getIo();
      if (io === null) {
        return;
      }
      const rooms = [visitCallRoom(appointmentId), visitWaitingRoom(appointmentId)];
      const sockets = await io.in(rooms).fetchSockets();
      for (const socket of sockets) {
        const key = socket.data.visit?.participant.key;
        socket.leave(visitCallRoom(appointmentId));
        socket.leave(visitWaitingRoom(appointmentId));
        if (key !== undefined) {
          socket.leave(visitCallKeyRoom(appointmentId, key));
        }
      }
    },
    disconnectGuest: (guestId) => {
      getIo()?.in(`guest:${guestId}`).disconnectSockets(true);
    },
    toParticipant: (appointmentId, key, event, ...args) => {
      getIo()
        ?.to(visitKeyRoom(appointmentId, key))
        .emit(event, ...args);
    },
    toCallExcept: (appointmentId, key, event, ...args) => {
      getIo()
        ?.to(visitCallRoom(appointmentId))
        .except(visitKeyRoom(appointmentId, key))
        .emit(event, ...args);
    },
    toCall: (appointmentId, event, ...args) => {
      getIo()
        ?.to(visitCallRoom(appointmentId))
        .emit(event, ...args);
    },
    toWatchers: (doctorId, event, ...args) => {
      getIo()
        ?.to(waitingRoomWatchRoom(doctorId))
        .emit(event, ...args);
    },
    hasWatchers: async (doctorId) => {
      const io = getIo();
      if (io === null) {
        return false;
      }
      return (await io.in(waitingRoomWatchRoom(doctorId)).fetchSockets()).length > 0;
    },
  };
}
