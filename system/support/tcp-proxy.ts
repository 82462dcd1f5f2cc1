import { createServer, connect, type Server, type Socket } from 'node:net';

export interface TcpProxy {
  readonly port: number;
  /** Connections accepted since the start (or the last restore). */
  readonly accepted: number;
  /**
   * Cuts the link as a database restart or a network failure would: every open
   * connection is destroyed (both sides) and new ones are refused (nothing listens).
   */
  cut(): Promise<void>;
  /** Listens again on the same port; connections pass through once more. */
  restore(): Promise<void>;
  close(): Promise<void>;
}

/**
 * A tiny TCP proxy (node:net) between the app and PostgreSQL, on a free port,
 * that a test can cut and restore while the app serves.
 */
export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const sockets = new Set<Socket>();
  let accepted = 0;
  const track = (socket: Socket): void => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  };
  const handle = (client: Socket): void => {
    accepted += 1;
    const upstream = connect(target.port, target.host);
    track(client);
    track(upstream);
    client.pipe(upstream);
    upstream.pipe(client);
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  };
  let server: Server = createServer(handle);
  const listen = (port: number): Promise<number> =>
    new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', reject);
        const address = server.address();
        resolve(typeof address === 'object' && address !== null ? address.port : port);
      });
    });
  const port = await listen(0);
  const closeServer = (): Promise<void> =>
    new Promise((resolve) => {
      if (!server.listening) {
        resolve();
        return;
      }
      server.close(() => resolve());
      for (const socket of sockets) {
        socket.destroy();
      }
    });
  return {
    port,
    get accepted() {
      return accepted;
    },
    cut: closeServer,
    restore: async () => {
      server = createServer(handle);
      await listen(port);
    },
    close: closeServer,
  };
}
