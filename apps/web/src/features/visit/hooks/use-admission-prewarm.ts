import type { WaitingRoom, WaitingRoomEntry } from '@telemedicina/shared/visits';
import { useQueries } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { visitStateQuery } from '../api/visit-state';
import { admitAtOnce, handOffCall, prepareCall, type PreparedCall } from './call-handoff';
import { useLocalMedia, type LocalMedia } from './use-local-media';

/** Visits (first in the queue) whose connections are made ahead: each holds a camera's worth of encoder. */
export const maxPreparedVisits = 3;

const previewPreferenceKey = 'telemedicina.waitingRoom.preview';

/** Someone waits to be let in: the checked-in patient, or a guest. */
export function isSomeoneWaiting(entry: WaitingRoomEntry): boolean {
  return (entry.checkedInAt !== null && entry.admittedAt === null) || entry.waitingGuests.length > 0;
}

/**
 * Participant keys of those in `entry` waiting to be admitted whose page is open: the checked-in
 * patient (connected) and the waiting guests.
 */
export function admissionKeysOf(entry: WaitingRoomEntry): string[] {
  const keys = entry.waitingGuests.map((guest) => guest.key);
  if (entry.status === 'checked_in' && entry.admittedAt === null && entry.online) {
    keys.unshift(`user:${entry.patient.id}`);
  }
  return keys;
}

function readPreviewPreference(): boolean {
  try {
    return window.localStorage.getItem(previewPreferenceKey) !== 'off';
  } catch {
    return true;
  }
}

export interface AdmissionPrewarm {
  media: LocalMedia;
  /** Someone waits, and this person hosts: the preview is offered. */
  isOffered: boolean;
  /** The person wants the preview (kept in this browser). */
  isOn: boolean;
  setOn: (on: boolean) => void;
  /** Waiting people with a connection made ahead (offer ready, nothing sent). */
  preparedCount: number;
  /** Hands the live preview and the connections prepared for this visit to its call screen. */
  handOff: (appointmentId: string, participantKey?: string) => void;
}

/**
 * The host's waiting room made ready for admission: while someone waits, the camera and
 * microphone are on (the preview), the call screen's code is fetched (`preloadCall`), and for
 * each of the first visits in the queue the host's connection to each waiting person is made and
 * its offer and candidates kept (nothing is sent before admission: the server would not relay it
 * anyway, see `PeerMesh.prepare`). Admitting hands all of it to the call screen (`handOff`).
 */
export function useAdmissionPrewarm(
  room: WaitingRoom,
  isHost: boolean,
  preloadCall?: () => void,
): AdmissionPrewarm {
  const [isOn, setIsOn] = useState(readPreviewPreference);
  const candidates = isHost ? room.entries.filter(isSomeoneWaiting).slice(0, maxPreparedVisits) : [];
  const isOffered = candidates.length > 0;
  const media = useLocalMedia(isOffered && isOn);
  const states = useQueries({
    queries: candidates.map((entry) => ({ ...visitStateQuery(entry.appointmentId), staleTime: 60_000 })),
  });
  const plan = candidates.flatMap((entry, index) => {
    const state = states[index]?.data;
    const keys = admissionKeysOf(entry);
    return state && state.canHost && keys.length > 0
      ? [{ appointmentId: entry.appointmentId, selfKey: state.self.key, iceServers: state.iceServers, keys }]
      : [];
  });
  const planKey = JSON.stringify(plan);
  const calls = useRef(new Map<string, PreparedCall>());
  const { stream, isStarting } = media;
  // Prepared only once the camera and microphone are on: a track added later would mean a second offer.
  const isReady = isOffered && isOn && stream !== null && !isStarting;
  const preparedCount = isReady ? plan.reduce((count, item) => count + item.keys.length, 0) : 0;

  useEffect(() => {
    if (isOffered) {
      preloadCall?.();
    }
  }, [isOffered, preloadCall]);

  useEffect(() => {
    const prepared = calls.current;
    const wanted = isReady ? (JSON.parse(planKey) as typeof plan) : [];
    for (const [appointmentId, call] of prepared) {
      if (!wanted.some((item) => item.appointmentId === appointmentId)) {
        call.mesh.closeAll();
        prepared.delete(appointmentId);
      }
    }
    for (const item of wanted) {
      let call = prepared.get(item.appointmentId);
      if (!call || call.selfKey !== item.selfKey) {
        call?.mesh.closeAll();
        call = prepareCall(item.appointmentId, item.selfKey, item.iceServers);
        prepared.set(item.appointmentId, call);
      }
      call.mesh.setLocalStream(stream);
      call.mesh.prepare(item.keys);
    }
  }, [isReady, planKey, stream]);

  useEffect(() => {
    const prepared = calls.current;
    return () => {
      for (const call of prepared.values()) {
        call.mesh.closeAll();
      }
      prepared.clear();
    };
  }, []);

  const setOn = useCallback((on: boolean) => {
    try {
      window.localStorage.setItem(previewPreferenceKey, on ? 'on' : 'off');
    } catch {
      // Private mode: the choice lasts this page.
    }
    setIsOn(on);
  }, []);

  const { release, isMuted, isCameraOff } = media;
  const handOff = useCallback(
    (appointmentId: string, participantKey?: string) => {
      const prepared = calls.current.get(appointmentId) ?? null;
      calls.current.delete(appointmentId);
      const handed = release();
      const handoff = {
        appointmentId,
        admit: participantKey ? { participantKey } : {},
        media: handed ? { stream: handed, isMuted, isCameraOff } : null,
        prepared,
      };
      handOffCall(handoff);
      admitAtOnce(handoff);
    },
    [release, isMuted, isCameraOff],
  );

  return { media, isOffered, isOn, setOn, preparedCount, handOff };
}
