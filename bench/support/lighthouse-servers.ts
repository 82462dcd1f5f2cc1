/**
 * The servers the Lighthouse bench measures (bench/lighthouse.bench.ts): the built application on
 * free ports with a fresh embedded database and the demo data, the demo patient's session cookie for
 * the portal, and the baseline — a page that does nothing, served by node:http.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { demoPassword } from '../../e2e/support/demo-accounts.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createNetServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** The built server (what `npm start` runs), production settings, embedded database, demo data. */
export async function startApp(): Promise<{ baseUrl: string; stop: () => Promise<void> }> {
  if (
    !existsSync(path.join(root, 'apps/server/dist/main.js')) ||
    !existsSync(path.join(root, 'apps/web/dist/index.html'))
  ) {
    throw new Error('The build is missing: run `npm run build` first.');
  }
  const port = await freePort();
  const realtimePort = await freePort();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'telemedicina-lighthouse-'));
  const baseUrl = `http://127.0.0.1:${port}`;
  let log = '';
  const child: ChildProcess = spawn(process.execPath, [path.join(root, 'apps/server/dist/main.js')], {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: String(port),
      REALTIME_PORT: String(realtimePort),
      DATA_DIR: dataDir,
      PUBLIC_ORIGIN: baseUrl,
      APP_ORIGIN: baseUrl,
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk: Buffer) => (log += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (log += chunk.toString()));
  // A fresh data directory: migrations and the demo data first (slow on a busy host).
  const deadline = Date.now() + 180_000;
  for (;;) {
    if (child.exitCode !== null) {
      throw new Error(`The server exited with ${child.exitCode}:\n${log}`);
    }
    try {
      if ((await fetch(`${baseUrl}/api/v1/health`)).ok) {
        break;
      }
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`The server was not ready within 180 s:\n${log}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
  return {
    baseUrl,
    stop: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Signs the demo patient in over HTTP and returns the session cookie pair. */
export async function patientCookie(baseUrl: string): Promise<string> {
  const cookies = new Map<string, string>();
  const remember = (response: Response) => {
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const index = pair!.indexOf('=');
      cookies.set(pair!.slice(0, index).trim(), pair!.slice(index + 1).trim());
    }
  };
  remember(await fetch(`${baseUrl}/api/v1/config`));
  const login = await fetch(`${baseUrl}/api/v1/auth/login`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      cookie: [...cookies].map(([name, value]) => `${name}=${value}`).join('; '),
      'x-xsrf-token': cookies.get('XSRF-TOKEN') ?? '',
    },
    body: JSON.stringify({ email: 'paciente1@example.com', password: demoPassword }),
  });
  await login.text();
  remember(login);
  if (login.status !== 200 || !cookies.has('tm_session')) {
    throw new Error(`Signing the demo patient in answered ${login.status}`);
  }
  return [...cookies].map(([name, value]) => `${name}=${value}`).join('; ');
}

/** The baseline: a page that does nothing, served by node:http. */
export async function startBaseline(): Promise<{ url: string; server: Server }> {
  const html = `<!doctype html><html lang="es"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>Telemedicina</title>
<meta name="description" content="Página de referencia"></head>
<body style="font-family:system-ui,sans-serif;margin:0;padding:24px;color:#212529">
<main><h1>Telemedicina</h1><p>Inicie sesión para continuar.</p>
<form><label for="e">Correo electrónico</label><br><input id="e" type="email" autocomplete="email"><br>
<label for="p">Contraseña</label><br><input id="p" type="password" autocomplete="current-password"><br>
<button type="submit" style="margin-top:12px;padding:8px 16px;background:#0a6b7e;color:#fff;border:0">Entrar</button>
</form></main></body></html>`;
  const server = createServer((_request, response) => {
    response.writeHead(200, {
      'content-type': 'text/html; charset=utf-8',
      'content-length': Buffer.byteLength(html),
    });
    response.end(html);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, server };
}
