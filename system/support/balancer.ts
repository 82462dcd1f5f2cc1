import { createServer, request as httpRequest, type IncomingMessage, type Server } from 'node:http';
import { connect, type Socket } from 'node:net';

export interface Backend {
  name: string;
  port: number;
}

export interface Balancer {
  readonly port: number;
  readonly url: string;
  /** Which backend served each HTTP request, in order. */
  readonly requests: { backend: string; method: string; url: string }[];
  /** Which backend took each WebSocket upgrade, in order. */
  readonly upgrades: { backend: string; url: string }[];
  /** The client address reported in `X-Forwarded-For` from now on. */
  forwardedFor: string;
  close(): Promise<void>;
}

export interface BalancerOptions {
  /**
   * Client address the proxy reports in `X-Forwarded-For` (the instances trust
   * 127.0.0.1 as a proxy), as a load balancer does with the real client's address.
   * A random one per run keeps the shared Redis rate-limit counters of earlier runs out.
   */
  forwardedFor: string;
}

const hopByHop = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'upgrade',
  'te',
  'trailer',
]);

/**
 * A small round-robin load balancer (node:http, no packages): plain HTTP
 * requests and WebSocket upgrades go to the backends in turn (separate turns
 * for each), like nginx's default upstream. A backend that refuses the
 * connection (stopped, killed) is skipped for that request and the next one is
 * tried — nginx's `proxy_next_upstream error`. Each answer carries
 * `X-Backend: <name>` so tests can see where it came from.
 */
export async function startBalancer(
  backends: readonly Backend[],
  options: BalancerOptions,
): Promise<Balancer> {
  let nextHttp = 0;
  let nextUpgrade = 0;
  const requests: Balancer['requests'] = [];
  const upgrades: Balancer['upgrades'] = [];
  const sockets = new Set<Socket>();
  const state = { forwardedFor: options.forwardedFor };

  const forwardHeaders = (incoming: IncomingMessage): Record<string, string | string[]> => {
    const headers: Record<string, string | string[]> = {};
    for (const [name, value] of Object.entries(incoming.headers)) {
      if (value !== undefined && !hopByHop.has(name)) {
        headers[name] = value;
      }
    }
    headers['x-forwarded-for'] = state.forwardedFor;
    headers['x-forwarded-proto'] = 'http';
    return headers;
  };

  const server: Server = createServer((incoming, outgoing) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const body = Buffer.concat(chunks);
      const first = nextHttp;
      nextHttp = (nextHttp + 1) % backends.length;
      const attempt = (tried: number): void => {
        if (tried >= backends.length) {
          outgoing.writeHead(502, { 'content-type': 'application/json; charset=utf-8' });
          outgoing.end(JSON.stringify({ error: { code: 'BAD_GATEWAY', message: 'No backend answered.' } }));
          return;
        }
        const backend = backends[(first + tried) % backends.length]!;
        let isConnected = false;
        const upstream = httpRequest(
          {
            host: '127.0.0.1',
            port: backend.port,
            method: incoming.method,
            path: incoming.url,
            headers: { ...forwardHeaders(incoming), 'content-length': String(body.length) },
            agent: false,
          },
          (answer) => {
            requests.push({
              backend: backend.name,
              method: incoming.method ?? 'GET',
              url: incoming.url ?? '',
            });
            const headers: Record<string, string | string[]> = { 'x-backend': backend.name };
            for (const [name, value] of Object.entries(answer.headers)) {
              if (value !== undefined && !hopByHop.has(name)) {
                headers[name] = value;
              }
            }
            outgoing.writeHead(answer.statusCode ?? 502, headers);
            answer.pipe(outgoing);
            answer.on('error', () => outgoing.destroy());
          },
        );
        upstream.on('socket', (socket) => socket.once('connect', () => (isConnected = true)));
        upstream.on('error', () => {
          if (!isConnected) {
            attempt(tried + 1);
          } else if (!outgoing.headersSent) {
            // The backend died with the request in flight: not safe to replay (it may have been applied).
            outgoing.writeHead(502, { 'content-type': 'application/json; charset=utf-8' });
            outgoing.end(JSON.stringify({ error: { code: 'BAD_GATEWAY', message: 'The backend failed.' } }));
          } else {
            outgoing.destroy();
          }
        });
        upstream.end(body);
      };
      attempt(0);
    });
  });

  server.on('upgrade', (incoming: IncomingMessage, client: Socket, head: Buffer) => {
    sockets.add(client);
    client.once('close', () => sockets.delete(client));
    client.on('error', () => client.destroy());
    const first = nextUpgrade;
    nextUpgrade = (nextUpgrade + 1) % backends.length;
    const attempt = (tried: number): void => {
      if (tried >= backends.length) {
        client.end('HTTP/1.1 502 Bad Gateway\r\nconnection: close\r\ncontent-length: 0\r\n\r\n');
        return;
      }
      const backend = backends[(first + tried) % backends.length]!;
      const upstream = connect(backend.port, '127.0.0.1');
      sockets.add(upstream);
      upstream.once('close', () => sockets.delete(upstream));
      let isConnected = false;
      upstream.once('connect', () => {
        isConnected = true;
        upgrades.push({ backend: backend.name, url: incoming.url ?? '' });
        const lines = [`${incoming.method} ${incoming.url} HTTP/1.1`];
        for (let index = 0; index < incoming.rawHeaders.length; index += 2) {
          const name = incoming.rawHeaders[index]!;
          if (name.toLowerCase() !== 'x-forwarded-for') {
            lines.push(`${name}: ${incoming.rawHeaders[index + 1]}`);
          }
        }
        lines.push(`X-Forwarded-For: ${state.forwardedFor}`);
        upstream.write(`${lines.join('\r\n')}\r\n\r\n`);
        if (head.length > 0) {
          upstream.write(head);
        }
        upstream.pipe(client);
        client.pipe(upstream);
      });
      upstream.on('error', () => {
        if (!isConnected) {
          attempt(tried + 1);
        } else {
          client.destroy();
        }
      });
      upstream.on('close', () => client.destroy());
      client.on('close', () => upstream.destroy());
    };
    attempt(0);
  });

  const port = await new Promise<number>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      resolve(typeof address === 'object' && address !== null ? address.port : 0);
    });
  });
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    requests,
    upgrades,
    get forwardedFor() {
      return state.forwardedFor;
    },
    set forwardedFor(value: string) {
      state.forwardedFor = value;
    },
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) {
          socket.destroy();
        }
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
