import type {
  ChatMessage,
  VisitJoinResult,
  VisitMediaState,
  VisitParticipant,
  VisitSignalDelivery,
  VisitState,
} from '@telemedicina/shared/visits';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { emitWithAck, getRealtimeSocket, RealtimeError, useRealtimeEvent } from '../../../lib/realtime';
import {
  addPending,
  emptyChatLog,
  lastContiguousSeq,
  mergeMessages,
  setPendingStatus,
  type ChatLog,
} from '../chat-log';
import { queryKeys } from '../../../lib/query-keys';

export type RemoteMedia = Omit<VisitMediaState, 'appointmentId'>;

export interface VisitSession {
  /** Whether this page's last join put it in the call. */
  inCall: boolean;
  joined: boolean;
  joinError: string | null;
  /** Others in the call, by key (names from the server; a placeholder for someone only seen in signalling). */
  participants: ReadonlyMap<string, VisitParticipant>;
  /** Others whose connection dropped: shown as reconnecting until they are back (or give up). */
  reconnecting: ReadonlySet<string>;
  media: ReadonlyMap<string, RemoteMedia>;
  chat: ChatLog;
  typing: readonly string[];
  waitingMessages: readonly { text: string; at: string }[];
  sendChat: (body: string) => void;
  setTyping: (typing: boolean) => void;
  addMessages: (messages: readonly ChatMessage[]) => void;
  sendMedia: (media: RemoteMedia) => void;
}

export interface VisitSessionHandlers {
  onParticipantJoined?: (participant: VisitParticipant) => void;
  /** They left (`left`), or their connection dropped (`lost`): they may be back in a moment. */
  onParticipantLeft?: (key: string, reason: 'left' | 'lost') => void;
  onSignal?: (signal: VisitSignalDelivery) => void;
  /** A fresh join (first or after a reconnection) with the others in the call. */
  onJoined?: (result: VisitJoinResult) => void;
}

const typingTimeoutMs = 6_000;
/** How long someone whose connection dropped is shown as reconnecting before they count as gone. */
export const reconnectGraceMs = 30_000;
/**
 * After being admitted, how long the page waits before joining again (for the list of the others
 * and the chat): the call is negotiated meanwhile, and the join's work on the server would hold
 * back that signalling.
 */
const admittedRejoinDelayMs = 1_500;

/**
 * This page's presence in one visit over the real-time channel: joins (again after every
 * reconnection, with the last chat sequence it holds, so the acknowledgement replays what it
 * missed), keeps the visit state in the query cache, the chat log with pending messages (resent
 * with the same clientId after a reconnection: the server stores each once), typing names,
 * the others' microphone/camera state, and hands signalling to the call.
 */
export function useVisitSession(
  appointmentId: string,
  enabled: boolean,
  handlers: VisitSessionHandlers = {},
): VisitSession {
  const queryClient = useQueryClient();
  const [inCall, setInCall] = useState(false);
  const [joined, setJoined] = useState(false);
  const [joinError, setJoinError] = useState<string | null>(null);
  const [participants, setParticipants] = useState<ReadonlyMap<string, VisitParticipant>>(new Map());
  const [reconnecting, setReconnecting] = useState<ReadonlySet<string>>(new Set());
  const graceTimers = useRef(new Map<string, ReturnType<typeof setTimeout>>());
  const [media, setMedia] = useState<ReadonlyMap<string, RemoteMedia>>(new Map());
  const [chat, setChat] = useState<ChatLog>(emptyChatLog);
  const [typingByKey, setTypingByKey] = useState<ReadonlyMap<string, { name: string; until: number }>>(
    new Map(),
  );
  const [waitingMessages, setWaitingMessages] = useState<{ text: string; at: string }[]>([]);
  const chatRef = useRef(chat);
  const handlersRef = useRef(handlers);
  useLayoutEffect(() => {
    chatRef.current = chat;
    handlersRef.current = handlers;
  });

  const setState = useCallback(
    (state: VisitState) => queryClient.setQueryData(queryKeys.visit.state(appointmentId), state),
    [queryClient, appointmentId],
  );

  const sendPending = useCallback(
    (clientId: string, body: string) => {
      setChat((log) => setPendingStatus(log, clientId, 'sending'));
      emitWithAck('chat.send', { appointmentId, clientId, body }).then(
        (message) => setChat((log) => mergeMessages(log, [message])),
        () => setChat((log) => setPendingStatus(log, clientId, 'failed')),
      );
    },
    [appointmentId],
  );

  const joining = useRef(false);
  const join = useCallback(async () => {
    if (joining.current) {
      return;
    }
    joining.current = true;
    try {
      const result = await emitWithAck('visit.join', {
        appointmentId,
        lastSeq: lastContiguousSeq(chatRef.current),
      });
      setJoinError(null);
      setJoined(true);
      setInCall(result.inCall);
      setState(result.state);
      setParticipants(new Map(result.participants.map((participant) => [participant.key, participant])));
      setChat((log) => mergeMessages(log, result.messages));
      for (const pending of chatRef.current.pending) {
        sendPending(pending.clientId, pending.body);
      }
      handlersRef.current.onJoined?.(result);
    } catch (error) {
      setJoined(false);
      setJoinError(error instanceof RealtimeError ? error.code : 'UNEXPECTED');
    } finally {
      joining.current = false;
    }
  }, [appointmentId, setState, sendPending]);

  const rejoinTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(
    () => () => {
      if (rejoinTimer.current !== null) {
        clearTimeout(rejoinTimer.current);
        rejoinTimer.current = null;
      }
    },
    [],
  );

  useEffect(() => {
    if (!enabled) {
      return;
    }
    let active = true;
    let detach: (() => void) | null = null;
    void getRealtimeSocket().then((socket) => {
      if (!active) {
        return;
      }
      const handleConnect = () => void join();
      // Until the join after a reconnection is acknowledged, this page is not in the call.
      const handleDisconnect = () => setJoined(false);
      // Closing the page is leaving (the others stop waiting for it), not a dropped connection.
      const handlePageHide = () => {
        if (socket.connected) {
          socket.emit('visit.leave', { appointmentId }, () => undefined);
        }
      };
      socket.on('connect', handleConnect);
      socket.on('disconnect', handleDisconnect);
      window.addEventListener('pagehide', handlePageHide);
      detach = () => {
        socket.off('connect', handleConnect);
        socket.off('disconnect', handleDisconnect);
        window.removeEventListener('pagehide', handlePageHide);
      };
      if (socket.connected) {
        void join();
      }
    });
    return () => {
      active = false;
      detach?.();
      void getRealtimeSocket().then((socket) => {
        if (socket.connected) {
          socket.emit('visit.leave', { appointmentId }, () => undefined);
        }
      });
    };
  }, [enabled, join, appointmentId]);

  const forThisVisit = (payload: { appointmentId: string }) => payload.appointmentId === appointmentId;

  useRealtimeEvent(
    'visit.state',
    (state) => {
      if (!forThisVisit(state)) {
        return;
      }
      setState(state);
      if (state.phase === 'in_call' && !inCall && state.self.role !== 'staff') {
        // Admitted: the server moved this connection into the call (the host's offer is on its
        // way through signalling); join again a little later for the list of the others.
        setInCall(true);
        if (rejoinTimer.current === null) {
          rejoinTimer.current = setTimeout(() => {
            rejoinTimer.current = null;
            void join();
          }, admittedRejoinDelayMs);
        }
      }
      if (state.phase === 'ended' || state.phase === 'closed') {
        setInCall(false);
      }
    },
    enabled,
  );
  /** They are back, or gone for good: no longer shown as reconnecting. */
  const endGrace = (key: string) => {
    const timer = graceTimers.current.get(key);
    if (timer !== undefined) {
      clearTimeout(timer);
      graceTimers.current.delete(key);
    }
    setReconnecting((previous) => {
      if (!previous.has(key)) {
        return previous;
      }
      const next = new Set(previous);
      next.delete(key);
      return next;
    });
  };
  const forget = (key: string) => {
    endGrace(key);
    setParticipants((previous) => {
      const next = new Map(previous);
      next.delete(key);
      return next;
    });
    setMedia((previous) => {
      const next = new Map(previous);
      next.delete(key);
      return next;
    });
    handlersRef.current.onParticipantLeft?.(key, 'left');
  };
  useEffect(() => {
    const timers = graceTimers.current;
    return () => {
      for (const timer of timers.values()) {
        clearTimeout(timer);
      }
      timers.clear();
    };
  }, []);
  useRealtimeEvent(
    'visit.participantJoined',
    ({ appointmentId: id, participant }) => {
      if (id !== appointmentId) {
        return;
      }
      setParticipants((previous) => new Map(previous).set(participant.key, participant));
      endGrace(participant.key);
      handlersRef.current.onParticipantJoined?.(participant);
    },
    enabled,
  );
  useRealtimeEvent(
    'visit.participantLeft',
    ({ appointmentId: id, key, reason }) => {
      if (id !== appointmentId) {
        return;
      }
      if (reason !== 'lost') {
        forget(key);
        return;
      }
      // Their connection dropped (or they came back on a new one): shown as reconnecting while
      // they may return; their peer connection stays until they rejoin (and it is rebuilt).
      setReconnecting((previous) => new Set(previous).add(key));
      handlersRef.current.onParticipantLeft?.(key, 'lost');
      if (!graceTimers.current.has(key)) {
        graceTimers.current.set(
          key,
          setTimeout(() => {
            graceTimers.current.delete(key);
            forget(key);
          }, reconnectGraceMs),
        );
      }
    },
    enabled,
  );
  useRealtimeEvent(
    'visit.signal',
    (signal) => {
      if (forThisVisit(signal)) {
        handlersRef.current.onSignal?.(signal);
      }
    },
    enabled,
  );
  useRealtimeEvent(
    'visit.media',
    ({ appointmentId: id, key, ...state }) => {
      if (id === appointmentId) {
        setMedia((previous) => new Map(previous).set(key, state));
      }
    },
    enabled,
  );
  useRealtimeEvent(
    'chat.message',
    (message) => {
      if (forThisVisit(message)) {
        setChat((log) => mergeMessages(log, [message]));
        setTypingByKey((previous) => {
          if (!previous.has(message.sender.key)) {
            return previous;
          }
          const next = new Map(previous);
          next.delete(message.sender.key);
          return next;
        });
      }
    },
    enabled,
  );
  useRealtimeEvent(
    'chat.typing',
    ({ appointmentId: id, key, name, typing }) => {
      if (id !== appointmentId) {
        return;
      }
      setTypingByKey((previous) => {
        const next = new Map(previous);
        if (typing) {
          next.set(key, { name, until: Date.now() + typingTimeoutMs });
        } else {
          next.delete(key);
        }
        return next;
      });
    },
    enabled,
  );
  useRealtimeEvent(
    'waitingRoom.message',
    ({ appointmentId: id, text, at }) => {
      if (id === appointmentId) {
        setWaitingMessages((previous) => [...previous, { text, at }]);
      }
    },
    enabled,
  );

  // Someone who stopped sending typing events (closed the page) stops "typing" after a while.
  useEffect(() => {
    if (typingByKey.size === 0) {
      return;
    }
    const timer = setInterval(() => {
      const now = Date.now();
      setTypingByKey((previous) => {
        const next = new Map([...previous].filter(([, entry]) => entry.until > now));
        return next.size === previous.size ? previous : next;
      });
    }, 1_000);
    return () => clearInterval(timer);
  }, [typingByKey.size]);

  const sendChat = useCallback(
    (body: string) => {
      const clientId = crypto.randomUUID();
      setChat((log) =>
        addPending(log, { clientId, body, createdAt: new Date().toISOString(), status: 'sending' }),
      );
      sendPending(clientId, body);
    },
    [sendPending],
  );

  const setTyping = useCallback(
    (typing: boolean) => {
      void getRealtimeSocket().then((socket) => socket.emit('chat.typing', { appointmentId, typing }));
    },
    [appointmentId],
  );

  const sendMedia = useCallback(
    (state: RemoteMedia) => {
      void emitWithAck('visit.media', { appointmentId, ...state }).catch(() => undefined);
    },
    [appointmentId],
  );

  const addMessages = useCallback((messages: readonly ChatMessage[]) => {
    setChat((log) => mergeMessages(log, messages));
  }, []);

  return {
    inCall,
    joined,
    joinError,
    participants,
    reconnecting,
    media,
    chat,
    typing: [...typingByKey.values()].map((entry) => entry.name),
    waitingMessages,
    sendChat,
    setTyping,
    addMessages,
    sendMedia,
  };
}
