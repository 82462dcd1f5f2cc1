import type { AckResult } from '@telemedicina/shared/realtime';
import type { ChatMessage, VisitJoinResult } from '@telemedicina/shared/visits';
import { ack, openSocket, sleep, type HttpClient, type VisitSocket } from './clients.js';

/**
 * One participant of a visit's chat that survives server restarts and
 * instance failures the way the web client does: Socket.IO reconnects by
 * itself; on every connection the participant joins the visit again with the
 * highest sequence it holds without a gap, and the join acknowledgement
 * replays what follows. A send that is not acknowledged (timeout, connection
 * lost, the server answered an error) is sent again with the same `clientId`
 * until it is. Only acknowledged messages count as written.
 */
export class ChatParticipant {
  readonly socket: VisitSocket;
  /** clientId → what the acknowledgement said. */
  readonly acked = new Map<string, { seq: number; body: string }>();
  /** Every message this participant has seen (acks, pushes, join replays), by sequence. */
  readonly seen = new Map<number, ChatMessage>();
  /** Messages delivered more than once for the same sequence with different content (must stay 0). */
  conflictingDeliveries = 0;
  joins = 0;
  retries = 0;
  /** Set when a join was answered in a way no retry fixes (e.g. put in the waiting room). */
  fatal: Error | null = null;
  private isJoined = false;
  private waiters: (() => void)[] = [];

  constructor(
    readonly label: string,
    client: HttpClient,
    url: string,
    readonly appointmentId: string,
  ) {
    this.socket = openSocket(client, url, { reconnect: true });
    this.socket.on('connect', () => void this.join());
    this.socket.on('disconnect', () => {
      this.isJoined = false;
    });
    this.socket.on('chat.message', (message) => this.record(message));
  }

  /** Highest sequence held with every earlier one held too. */
  get contiguousSeq(): number {
    let seq = 0;
    while (this.seen.has(seq + 1)) {
      seq += 1;
    }
    return seq;
  }

  get joined(): boolean {
    return this.isJoined;
  }

  private record(message: ChatMessage): void {
    if (message.appointmentId !== this.appointmentId) {
      return;
    }
    const previous = this.seen.get(message.seq);
    if (previous !== undefined && (previous.clientId !== message.clientId || previous.id !== message.id)) {
      this.conflictingDeliveries += 1;
    }
    this.seen.set(message.seq, message);
  }

  private async join(): Promise<void> {
    while (this.socket.connected) {
      try {
        const result = await ack<'visit.join', VisitJoinResult>(this.socket, 'visit.join', {
          appointmentId: this.appointmentId,
          lastSeq: this.contiguousSeq,
        });
        if (result.ok) {
          if (!result.data.inCall) {
            this.fatal = new Error(`${this.label} joined the waiting room, not the call`);
            return;
          }
          for (const message of result.data.messages) {
            this.record(message);
          }
          this.joins += 1;
          this.isJoined = true;
          for (const wake of this.waiters.splice(0)) {
            wake();
          }
          return;
        }
      } catch {
        // timed out (the server went away meanwhile): try again while connected
      }
      await sleep(100);
    }
  }

  /** Resolves once joined (after a reconnect too); rejects after `timeoutMs`. */
  untilJoined(timeoutMs = 60_000): Promise<void> {
    if (this.isJoined) {
      return Promise.resolve();
    }
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`${this.label} did not join within ${timeoutMs} ms`)),
        timeoutMs,
      );
      this.waiters.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  /**
   * Sends until acknowledged (same clientId every time); resolves with the acknowledged message. The
   * limit only bounds a real hang: with the machine at a load of 18 on two cores, a killed server's
   * restart and the rejoin took over 90 s.
   */
  async send(clientId: string, body: string, timeoutMs = 240_000): Promise<ChatMessage> {
    const deadline = Date.now() + timeoutMs;
    for (let attempt = 0; ; attempt += 1) {
      if (this.fatal !== null) {
        throw this.fatal;
      }
      if (Date.now() > deadline) {
        throw new Error(`${this.label}: ${clientId} not acknowledged within ${timeoutMs} ms`);
      }
      if (attempt > 0) {
        this.retries += 1;
      }
      await this.untilJoined(Math.max(1, deadline - Date.now()));
      let result: AckResult<ChatMessage>;
      try {
        result = await ack<'chat.send', ChatMessage>(
          this.socket,
          'chat.send',
          { appointmentId: this.appointmentId, clientId, body },
          3_000,
        );
      } catch {
        continue; // no acknowledgement: not written as far as this client knows
      }
      if (result.ok) {
        this.acked.set(clientId, { seq: result.data.seq, body });
        this.record(result.data);
        return result.data;
      }
      await sleep(100);
    }
  }

  close(): void {
    this.socket.disconnect();
  }
}
