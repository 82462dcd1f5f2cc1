import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { createHash, createHmac, randomBytes } from 'node:crypto';
import { createSocket } from 'node:dgram';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort, repoRoot } from './server.js';

/**
 * coturn (Debian's `turnserver`) for the TURN relay journey: installed by
 * scripts/ensure-coturn.mjs when missing, started on loopback with the TURN REST API shared secret
 * (the configuration docs/DEPLOYMENT.md shows), stopped by its own pid. Also a minimal TURN client
 * (STUN over UDP, RFC 5389/5766) to ask coturn for an allocation with given credentials.
 */

export interface RunningCoturn {
  port: number;
  realm: string;
  secret: string;
  /** The `TURN_URLS` value for the app server. */
  url: string;
  output: () => string;
  stop: () => Promise<void>;
}

/** Installs coturn if needed (apt-get as root, waiting for a busy dpkg lock); returns the binary. */
export async function ensureCoturn(): Promise<string> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [join(repoRoot, 'scripts/ensure-coturn.mjs')],
    {
      encoding: 'utf8',
      maxBuffer: 16 * 1024 * 1024,
    },
  );
  const lines = stdout.trim().split('\n');
  return lines[lines.length - 1]!;
}

/** A port free for both TCP (checked by `freePort`) and UDP on loopback. */
async function freeUdpAndTcpPort(): Promise<number> {
  for (;;) {
    const port = await freePort();
    const isFree = await new Promise<boolean>((resolve) => {
      const socket = createSocket('udp4');
      socket.once('error', () => resolve(false));
      socket.bind(port, '127.0.0.1', () => socket.close(() => resolve(true)));
    });
    if (isFree) {
      return port;
    }
  }
}

/** The coturn configuration of the test: the keys docs/DEPLOYMENT.md shows, on loopback. */
export function coturnConfig(options: { port: number; realm: string; secret: string; dir: string }): string {
  return [
    `listening-ip=127.0.0.1`,
    `listening-port=${options.port}`,
    `relay-ip=127.0.0.1`,
    // Relayed addresses come from this range; the firewall of a real server opens it (UDP).
    `min-port=49160`,
    `max-port=49400`,
    `realm=${options.realm}`,
    // The TURN REST API: credentials `<expiry>:<user>` / base64(HMAC-SHA1(secret, username)).
    `use-auth-secret`,
    `static-auth-secret=${options.secret}`,
    `no-tls`,
    `no-dtls`,
    `no-cli`,
    `no-multicast-peers`,
    // Both peers relay through 127.0.0.1 here; coturn refuses loopback peers unless told.
    `allow-loopback-peers`,
    `userdb=${join(options.dir, 'turndb')}`,
    `pidfile=${join(options.dir, 'turnserver.pid')}`,
    `log-file=stdout`,
    `simple-log`,
    '',
  ].join('\n');
}

/** Starts turnserver on a free loopback port and resolves once it answers a STUN binding request. */
export async function startCoturn(binary: string): Promise<RunningCoturn> {
  const dir = mkdtempSync(join(tmpdir(), 'telemedicina-coturn-'));
  const port = await freeUdpAndTcpPort();
  const realm = 'telemedicina.test';
  const secret = randomBytes(24).toString('hex');
  const configPath = join(dir, 'turnserver.conf');
  writeFileSync(configPath, coturnConfig({ port, realm, secret, dir }), { mode: 0o600 });
  let log = '';
  const child: ChildProcess = spawn(binary, ['-c', configPath], { stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout?.on('data', (chunk: Buffer) => (log += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (log += chunk.toString()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    }
    rmSync(dir, { recursive: true, force: true });
  };
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) {
      await stop();
      throw new Error(`turnserver exited with ${child.exitCode} before it listened:\n${log}`);
    }
    if (await answersBinding(port)) {
      break;
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`turnserver did not answer on 127.0.0.1:${port} within 30 s:\n${log}`);
    }
  }
  return {
    port,
    realm,
    secret,
    url: `turn:127.0.0.1:${port}?transport=udp`,
    output: () => log,
    stop,
  };
}

// ---------------------------------------------------------------- a minimal TURN client

const magicCookie = 0x2112a442;
const attribute = {
  username: 0x0006,
  messageIntegrity: 0x0008,
  errorCode: 0x0009,
  realm: 0x0014,
  nonce: 0x0015,
  requestedTransport: 0x0019,
} as const;

interface StunMessage {
  type: number;
  attributes: Map<number, Buffer>;
}

function encodeAttribute(type: number, value: Buffer): Buffer {
  const padded = Buffer.alloc(4 + Math.ceil(value.length / 4) * 4);
  padded.writeUInt16BE(type, 0);
  padded.writeUInt16BE(value.length, 2);
  value.copy(padded, 4);
  return padded;
}

/** A STUN request; with `key`, MESSAGE-INTEGRITY (HMAC-SHA1) is appended as RFC 5389 §15.4 says. */
function encodeRequest(type: number, attributes: Buffer[], key?: Buffer): Buffer {
  const header = Buffer.alloc(20);
  header.writeUInt16BE(type, 0);
  header.writeUInt32BE(magicCookie, 4);
  randomBytes(12).copy(header, 8);
  const body = Buffer.concat(attributes);
  if (!key) {
    header.writeUInt16BE(body.length, 2);
    return Buffer.concat([header, body]);
  }
  header.writeUInt16BE(body.length + 24, 2);
  const integrity = createHmac('sha1', key)
    .update(Buffer.concat([header, body]))
    .digest();
  return Buffer.concat([header, body, encodeAttribute(attribute.messageIntegrity, integrity)]);
}

function decode(message: Buffer): StunMessage {
  const attributes = new Map<number, Buffer>();
  let offset = 20;
  const end = 20 + message.readUInt16BE(2);
  while (offset + 4 <= end) {
    const type = message.readUInt16BE(offset);
    const length = message.readUInt16BE(offset + 2);
    attributes.set(type, message.subarray(offset + 4, offset + 4 + length));
    offset += 4 + Math.ceil(length / 4) * 4;
  }
  return { type: message.readUInt16BE(0), attributes };
}

/** Sends requests over one UDP socket (one client 5-tuple), one answer each. */
async function withSocket<T>(
  port: number,
  body: (ask: (request: Buffer) => Promise<StunMessage>) => Promise<T>,
): Promise<T> {
  const socket = createSocket('udp4');
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  // UDP may lose a datagram (or coturn may not listen yet): the request is sent again every
  // 250 ms, as STUN clients retransmit, until an answer with its transaction id or 5 s.
  const ask = (request: Buffer) =>
    new Promise<StunMessage>((resolve, reject) => {
      const send = () => socket.send(request, port, '127.0.0.1');
      const resend = setInterval(send, 250);
      const timer = setTimeout(() => {
        clearInterval(resend);
        socket.off('message', onMessage);
        reject(new Error(`no STUN answer from 127.0.0.1:${port} within 5 s`));
      }, 5_000);
      const onMessage = (message: Buffer) => {
        if (message.length >= 20 && message.subarray(8, 20).equals(request.subarray(8, 20))) {
          clearTimeout(timer);
          clearInterval(resend);
          socket.off('message', onMessage);
          resolve(decode(message));
        }
      };
      socket.on('message', onMessage);
      send();
    });
  try {
    return await body(ask);
  } finally {
    socket.close();
  }
}

async function answersBinding(port: number): Promise<boolean> {
  try {
    const answer = await withSocket(port, (ask) => ask(encodeRequest(0x0001, [])));
    return answer.type === 0x0101;
  } catch {
    return false;
  }
}

/**
 * Asks coturn for a UDP relay with TURN credentials (long-term credential mechanism: the first
 * Allocate is challenged with a realm and a nonce, the second carries them with USERNAME and
 * MESSAGE-INTEGRITY). `allocated`, or the error code coturn answered (401: credentials refused).
 */
export async function requestAllocation(
  port: number,
  credentials: { username: string; credential: string },
): Promise<{ allocated: true } | { allocated: false; code: number }> {
  return withSocket(port, async (ask) => {
    const transport = encodeAttribute(attribute.requestedTransport, Buffer.from([17, 0, 0, 0]));
    const challenge = await ask(encodeRequest(0x0003, [transport]));
    const realm = challenge.attributes.get(attribute.realm);
    const nonce = challenge.attributes.get(attribute.nonce);
    if (challenge.type !== 0x0113 || !realm || !nonce) {
      throw new Error(`coturn did not challenge the first Allocate (type 0x${challenge.type.toString(16)})`);
    }
    const key = createHash('md5')
      .update(`${credentials.username}:${realm.toString()}:${credentials.credential}`)
      .digest();
    const answer = await ask(
      encodeRequest(
        0x0003,
        [
          transport,
          encodeAttribute(attribute.username, Buffer.from(credentials.username)),
          encodeAttribute(attribute.realm, realm),
          encodeAttribute(attribute.nonce, nonce),
        ],
        key,
      ),
    );
    if (answer.type === 0x0103) {
      return { allocated: true };
    }
    const error = answer.attributes.get(attribute.errorCode);
    return { allocated: false, code: error ? (error[2]! & 0x07) * 100 + error[3]! : 0 };
  });
}
