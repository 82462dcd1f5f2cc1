import type { AckResult, ClientToServerEvents, ServerToClientEvents } from '@telemedicina/shared/realtime';
import { io, type Socket } from 'socket.io-client';
import { demoPassword } from '../../e2e/support/demo-accounts.js';

export type VisitSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

export interface Answer<T = unknown> {
  status: number;
  body: T;
  headers: Headers;
}

/**
 * An API client for the system suites: keeps cookies (session, XSRF) across
 * server restarts and instances, sends the XSRF header, and never waits
 * forever — every request has a deadline, and a connection that fails (the
 * server is down) rejects instead of answering.
 */
export class HttpClient {
  private readonly cookies = new Map<string, string>();

  constructor(
    public baseUrl: string,
    private readonly timeoutMs = 10_000,
  ) {}

  /** The `Cookie` header this client sends (for a Socket.IO handshake). */
  cookieHeader(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  private remember(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const index = pair!.indexOf('=');
      const name = pair!.slice(0, index).trim();
      const value = pair!.slice(index + 1).trim();
      if (value === '' || /max-age=0/i.test(line)) {
        this.cookies.delete(name);
      } else {
        this.cookies.set(name, value);
      }
    }
  }

  async request<T = unknown>(
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<Answer<T>> {
    if (!this.cookies.has('XSRF-TOKEN')) {
      const config = await fetch(`${this.baseUrl}/api/v1/config`, {
        headers: { cookie: this.cookieHeader() },
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      await config.arrayBuffer();
      this.remember(config);
    }
    const response = await fetch(`${this.baseUrl}/api/v1${path}`, {
      method,
      headers: {
        cookie: this.cookieHeader(),
        'x-xsrf-token': this.cookies.get('XSRF-TOKEN') ?? '',
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(this.timeoutMs),
    });
    this.remember(response);
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = text === '' ? undefined : JSON.parse(text);
    } catch {
      // kept as text: a test asserts on it
    }
    return { status: response.status, body: parsed as T, headers: response.headers };
  }

  /** A request that must succeed (2xx); throws with the answer otherwise. */
  async ok<T = unknown>(method: string, path: string, body?: unknown): Promise<T> {
    const answer = await this.request<T>(method, path, body);
    if (answer.status >= 300) {
      throw new Error(`${method} ${path} answered ${answer.status}: ${JSON.stringify(answer.body)}`);
    }
    return answer.body;
  }

  async signIn(email: string, password = demoPassword): Promise<void> {
    await this.ok('POST', '/auth/login', { email, password });
  }
}

export interface SocketOptions {
  /** Reconnect on its own (with a short back-off) after the server goes away. */
  reconnect: boolean;
}

/** A Socket.IO connection (WebSocket only) authenticated by the client's session cookie. */
export function openSocket(client: HttpClient, url: string, options: SocketOptions): VisitSocket {
  return io(url, {
    path: '/socket.io',
    transports: ['websocket'],
    forceNew: true,
    reconnection: options.reconnect,
    reconnectionDelay: 100,
    reconnectionDelayMax: 500,
    randomizationFactor: 0.2,
    timeout: 5_000,
    extraHeaders: { origin: url, cookie: client.cookieHeader() },
  });
}

/** Resolves once the socket is connected (rejects on a refused handshake). */
export function connected(socket: VisitSocket, timeoutMs = 15_000): Promise<void> {
  if (socket.connected) {
    return Promise.resolve();
  }
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('socket did not connect in time')), timeoutMs);
    socket.once('connect', () => {
      clearTimeout(timer);
      resolve();
    });
    if (!socket.io.opts.reconnection) {
      socket.once('connect_error', (error) => {
        clearTimeout(timer);
        reject(error);
      });
    }
  });
}

/** Emits an event and resolves with its acknowledgement (rejects after `timeoutMs`). */
export async function ack<E extends keyof ClientToServerEvents, T>(
  socket: VisitSocket,
  event: E,
  payload: Parameters<ClientToServerEvents[E]>[0],
  timeoutMs = 5_000,
): Promise<AckResult<T>> {
  const timed = socket.timeout(timeoutMs) as unknown as {
    emitWithAck(event: string, payload: unknown): Promise<AckResult<T>>;
  };
  return timed.emitWithAck(event, payload);
}

/** Resolves with the first `event` whose payload satisfies `match`. */
export function nextEvent<E extends keyof ServerToClientEvents>(
  socket: VisitSocket,
  event: E,
  match: (payload: Parameters<ServerToClientEvents[E]>[0]) => boolean,
  timeoutMs = 10_000,
): Promise<Parameters<ServerToClientEvents[E]>[0]> {
  return new Promise((resolve, reject) => {
    type Payload = Parameters<ServerToClientEvents[E]>[0];
    const listener = (payload: Payload): void => {
      if (match(payload)) {
        clearTimeout(timer);
        (socket.off as (event: string, listener: unknown) => void)(event, listener);
        resolve(payload);
      }
    };
    const timer = setTimeout(() => {
      (socket.off as (event: string, listener: unknown) => void)(event, listener);
      reject(new Error(`no ${event} within ${timeoutMs} ms`));
    }, timeoutMs);
    (socket.on as (event: string, listener: unknown) => void)(event, listener);
  });
}

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
