import type { AckResult, ClientToServerEvents, ServerToClientEvents } from '@telemedicina/shared/realtime';
import { io as connect, type Socket } from 'socket.io-client';
import type { App } from '../app.js';
import { createDoctor, type TestDoctor } from './booking-fixtures.js';
import { createAppointment, createUser, signIn, type SignedInClient, type TestUser } from './factories.js';
import { testAppOrigin } from './test-context.js';

/**
 * Test fixtures of video visits: a doctor and a patient signed in with an
 * appointment between them, and Socket.IO clients presenting their cookies.
 */

export type VisitClientSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

export interface TestVisit {
  appointmentId: string;
  doctor: TestDoctor;
  patient: TestUser;
  doctorSession: SignedInClient;
  patientSession: SignedInClient;
}

/** A doctor, a patient and an appointment (status and times as given), both signed in. */
export async function createVisit(
  app: App,
  options: {
    startsAt: string | Date;
    minutes?: number;
    status?: 'confirmed' | 'checked_in' | 'in_progress' | 'completed' | 'cancelled' | 'no_show';
    doctor?: TestDoctor;
    doctorSession?: SignedInClient;
    timeZone?: string;
  },
): Promise<TestVisit> {
  const doctor = options.doctor ?? (await createDoctor(app, { timeZone: options.timeZone ?? 'UTC' }));
  const patient = await createUser(app, { roles: ['patient'] });
  const appointment = await createAppointment(app, {
    doctorId: doctor.id,
    patientId: patient.id,
    startsAt: options.startsAt,
    minutes: options.minutes ?? 30,
    status: options.status ?? 'confirmed',
  });
  return {
    appointmentId: appointment.id,
    doctor,
    patient,
    doctorSession: options.doctorSession ?? (await signIn(app, doctor)),
    patientSession: await signIn(app, patient),
  };
}

const sockets: VisitClientSocket[] = [];

/** Opens a socket with the given cookies (`tm_session=…` or `tm_guest=…`) and waits until it connects. */
export async function openVisitSocket(port: number, cookie: string): Promise<VisitClientSocket> {
  const socket: VisitClientSocket = connect(`http://127.0.0.1:${port}`, {
    path: '/socket.io',
    transports: ['websocket'],
    reconnection: false,
    forceNew: true,
    // Connect and acknowledgement limits only bound how long a real failure takes to show: on a busy
    // two-core machine a handshake (session lookup) took over 5 s.
    timeout: 20_000,
    extraHeaders: { origin: testAppOrigin, cookie },
  });
  sockets.push(socket);
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', reject);
  });
  return socket;
}

/** Disconnects every socket opened by {@link openVisitSocket}. */
export function closeVisitSockets(): void {
  for (const socket of sockets.splice(0)) {
    socket.disconnect();
  }
}

/** Emits with an acknowledgement (20 s limit). */
export async function ask<E extends keyof ClientToServerEvents>(
  socket: VisitClientSocket,
  event: E,
  payload: Parameters<ClientToServerEvents[E]>[0],
): Promise<
  Parameters<ClientToServerEvents[E]>[1] extends (result: infer R) => void ? R : AckResult<unknown>
> {
  return (await (
    socket.timeout(20_000) as unknown as {
      emitWithAck(event: string, payload: unknown): Promise<unknown>;
    }
  ).emitWithAck(event, payload)) as never;
}

/** Resolves with the next payload of a server event (rejects after `timeoutMs`). */
export function nextEvent<E extends keyof ServerToClientEvents>(
  socket: VisitClientSocket,
  event: E,
  options: { timeoutMs?: number; where?: (payload: Parameters<ServerToClientEvents[E]>[0]) => boolean } = {},
): Promise<Parameters<ServerToClientEvents[E]>[0]> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      socket.off(event, listener as never);
      reject(new Error(`no ${event} within ${options.timeoutMs ?? 20_000} ms`));
    }, options.timeoutMs ?? 20_000);
    const listener = (payload: Parameters<ServerToClientEvents[E]>[0]): void => {
      if (options.where !== undefined && !options.where(payload)) {
        return;
      }
      clearTimeout(timer);
      socket.off(event, listener as never);
      resolve(payload);
    };
    socket.on(event, listener as never);
  });
}

/** Collects every payload of a server event from now on. */
export function collectEvents<E extends keyof ServerToClientEvents>(
  socket: VisitClientSocket,
  event: E,
): Parameters<ServerToClientEvents[E]>[0][] {
  const received: Parameters<ServerToClientEvents[E]>[0][] = [];
  socket.on(event, ((payload: Parameters<ServerToClientEvents[E]>[0]) => received.push(payload)) as never);
  return received;
}

export const sessionCookie = (client: SignedInClient): string => `tm_session=${client.token}`;

/** Lets in-flight socket traffic settle (for asserting that something did NOT arrive). */
export function settle(ms = 150): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
