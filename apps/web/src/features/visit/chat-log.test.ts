import type { ChatMessage } from '@telemedicina/shared/visits';
import { describe, expect, it } from 'vitest';
import { addPending, emptyChatLog, lastContiguousSeq, mergeMessages, setPendingStatus } from './chat-log';

const message = (seq: number, clientId = `c-${seq}`): ChatMessage => ({
  id: `m-${seq}`,
  appointmentId: 'a-1',
  seq,
  sender: { key: 'user:1', name: 'Ana', role: 'doctor' },
  clientId,
  kind: 'text',
  body: `hola ${seq}`,
  file: null,
  createdAt: '2026-11-21T10:00:00.000Z',
});

describe('chat log', () => {
  it('keeps one entry per sequence, in order, however messages arrive', () => {
    let log = mergeMessages(emptyChatLog, [message(3), message(1)]);
    log = mergeMessages(log, [message(2), message(3)]);
    log = mergeMessages(log, [message(1), message(2), message(3), message(4)]);
    expect(log.messages.map((m) => m.seq)).toEqual([1, 2, 3, 4]);
  });

  it('drops a pending message once its clientId comes back stored, and only then', () => {
    let log = addPending(emptyChatLog, { clientId: 'x', body: 'hola', createdAt: '', status: 'sending' });
    log = addPending(log, { clientId: 'x', body: 'hola', createdAt: '', status: 'sending' });
    expect(log.pending).toHaveLength(1);
    log = mergeMessages(log, [message(1, 'other')]);
    expect(log.pending).toHaveLength(1);
    log = setPendingStatus(log, 'x', 'failed');
    expect(log.pending[0]!.status).toBe('failed');
    log = mergeMessages(log, [message(2, 'x')]);
    expect(log.pending).toHaveLength(0);
    // The same acknowledgement arriving again (a resend after a reconnection) adds nothing.
    log = mergeMessages(log, [message(2, 'x')]);
    expect(log.messages.map((m) => m.seq)).toEqual([1, 2]);
  });

  it('asks to replay from the first gap', () => {
    expect(lastContiguousSeq(emptyChatLog)).toBe(0);
    expect(lastContiguousSeq(mergeMessages(emptyChatLog, [message(1), message(2)]))).toBe(2);
    expect(lastContiguousSeq(mergeMessages(emptyChatLog, [message(1), message(2), message(4)]))).toBe(2);
    expect(lastContiguousSeq(mergeMessages(emptyChatLog, [message(2)]))).toBe(0);
  });
});
