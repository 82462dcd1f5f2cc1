import type { ChatMessage } from '@telemedicina/shared/visits';

/** A message this page sent that the server has not acknowledged yet. */
export interface PendingMessage {
  clientId: string;
  body: string;
  createdAt: string;
  status: 'sending' | 'failed';
}

/** The chat as this page knows it: stored messages by sequence, and its own unacknowledged ones. */
export interface ChatLog {
  messages: readonly ChatMessage[];
  pending: readonly PendingMessage[];
}

export const emptyChatLog: ChatLog = { messages: [], pending: [] };

/**
 * Adds stored messages (a `chat.message` event, the join acknowledgement's replay, a history page or
 * a send acknowledgement): one entry per sequence number, in sequence order, whatever the order
 * and however many times each arrives. A pending message whose `clientId` came back stored is
 * no longer pending.
 */
export function mergeMessages(log: ChatLog, incoming: readonly ChatMessage[]): ChatLog {
  if (incoming.length === 0) {
    return log;
  }
  const bySeq = new Map<number, ChatMessage>();
  for (const message of log.messages) {
    bySeq.set(message.seq, message);
  }
  for (const message of incoming) {
    bySeq.set(message.seq, message);
  }
  const messages = [...bySeq.values()].sort((a, b) => a.seq - b.seq);
  const storedClientIds = new Set(incoming.map((message) => message.clientId));
  const pending = log.pending.filter((item) => !storedClientIds.has(item.clientId));
  return { messages, pending };
}

/** Shows a message as pending (sending) until its acknowledgement arrives. */
export function addPending(log: ChatLog, pending: PendingMessage): ChatLog {
  if (log.pending.some((item) => item.clientId === pending.clientId)) {
    return log;
  }
  return { ...log, pending: [...log.pending, pending] };
}

/** Marks a pending message as failed (no acknowledgement) or sending again. */
export function setPendingStatus(log: ChatLog, clientId: string, status: PendingMessage['status']): ChatLog {
  return {
    ...log,
    pending: log.pending.map((item) => (item.clientId === clientId ? { ...item, status } : item)),
  };
}

/**
 * The sequence up to which this page has every message (1…n without a gap): what `visit.join`
 * sends as `lastSeq`, so a message missed in between is replayed rather than skipped.
 */
export function lastContiguousSeq(log: ChatLog): number {
  let expected = 1;
  for (const message of log.messages) {
    if (message.seq < expected) {
      continue;
    }
    if (message.seq !== expected) {
      break;
    }
    expected += 1;
  }
  return expected - 1;
}
