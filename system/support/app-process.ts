import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { freePort, repoRoot } from '../../e2e/support/server.js';

export { freePort, repoRoot };

/** Any value of the right length: the suites' databases are thrown away after the run. */
export const systemMfaKey = 'system-suite-only-mfa-encryption-key-0123456789';

export interface AppProcessOptions {
  /** PostgreSQL connection string (the scratch database, or a proxy in front of it). */
  databaseUrl: string;
  /** Extra environment (REDIS_URL, TRUST_PROXY…). */
  env?: Record<string, string>;
  /** Name used in failure messages ("A", "B"…). */
  name?: string;
}

/**
 * The built server (`apps/server/dist/main.js`, NODE_ENV=production) on
 * PostgreSQL, as its own process, on a port chosen once: it can be killed
 * (SIGKILL or SIGTERM) and started again on the same port and database, so
 * clients keep the same address across restarts. No separate real-time port
 * (`REALTIME_PORT=0`): Socket.IO on the main port's `/socket.io/`, as behind a
 * load balancer. The demo clinic is seeded on the first start.
 */
export class AppProcess {
  readonly name: string;
  readonly dataDir = mkdtempSync(join(tmpdir(), 'telemedicina-system-'));
  private child: ChildProcess | null = null;
  private log = '';
  private isStopRequested = false;
  /** Exits nobody asked for (crashes). */
  unexpectedExits = 0;
  /** How many times the process was started (1 after the first start). */
  starts = 0;
  /** Milliseconds each start took until health answered 200. */
  readonly startTimes: number[] = [];

  private constructor(
    readonly port: number,
    private readonly options: AppProcessOptions,
  ) {
    this.name = options.name ?? 'app';
  }

  static async create(options: AppProcessOptions): Promise<AppProcess> {
    return new AppProcess(await freePort(), options);
  }

  get baseUrl(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  get isRunning(): boolean {
    return this.child !== null && this.child.exitCode === null && this.child.signalCode === null;
  }

  /** Everything the process wrote (all starts), for failure messages. */
  output(): string {
    return this.log;
  }

  /** Starts the process and resolves once `GET /api/v1/health` answers 200. */
  async start(): Promise<void> {
    if (this.isRunning) {
      throw new Error(`${this.name} is already running`);
    }
    const startedAt = performance.now();
    this.starts += 1;
    this.log += `\n--- start ${this.starts} ---\n`;
    const child = spawn(process.execPath, [join(repoRoot, 'apps/server/dist/main.js')], {
      cwd: repoRoot,
      env: {
        ...process.env,
        NODE_ENV: 'production',
        HOST: '127.0.0.1',
        PORT: String(this.port),
        REALTIME_PORT: '0',
        DATA_DIR: this.dataDir,
        DATABASE_URL: this.options.databaseUrl,
        // The demo clinic on the first start; later starts find it (and skip hashing its passwords).
        SEED_DEMO: this.starts === 1 ? 'true' : 'false',
        MFA_ENCRYPTION_KEY: systemMfaKey,
        PUBLIC_ORIGIN: `http://127.0.0.1:${this.port}`,
        APP_ORIGIN: `http://127.0.0.1:${this.port}`,
        LOG_LEVEL: 'warn',
        REMINDER_POLL_SECONDS: '0',
        ...this.options.env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child = child;
    this.isStopRequested = false;
    child.once('exit', (code, signal) => {
      if (!this.isStopRequested) {
        // Nobody asked it to stop: say so (with its last words) wherever the test fails next.
        this.unexpectedExits += 1;
        console.error(`${this.name} exited on its own (${code ?? signal}):\n${this.tail()}`);
      }
    });
    child.stdout?.on('data', (chunk: Buffer) => (this.log += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (this.log += chunk.toString()));
    const deadline = Date.now() + 60_000;
    for (;;) {
      if (child.exitCode !== null || child.signalCode !== null) {
        throw new Error(
          `${this.name} exited (${child.exitCode ?? child.signalCode}) before it was ready:\n${this.tail()}`,
        );
      }
      try {
        const response = await fetch(`${this.baseUrl}/api/v1/health`, { signal: AbortSignal.timeout(2_000) });
        await response.arrayBuffer();
        if (response.ok) {
          break;
        }
      } catch {
        // not listening yet
      }
      if (Date.now() > deadline) {
        this.isStopRequested = true;
        child.kill('SIGKILL');
        throw new Error(`${this.name} did not become ready within 60 s:\n${this.tail()}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    this.startTimes.push(performance.now() - startedAt);
  }

  /** Sends `signal` and resolves once the process has exited. */
  async stop(signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
    const child = this.child;
    if (child === null || !this.isRunning) {
      return;
    }
    const exited = new Promise((resolve) => child.once('exit', resolve));
    this.isStopRequested = true;
    child.kill(signal);
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    await exited;
    clearTimeout(timer);
  }

  /** Stops the process if it runs and removes its data folder. */
  async dispose(): Promise<void> {
    await this.stop('SIGKILL');
    rmSync(this.dataDir, { recursive: true, force: true });
  }

  /** The last lines the process wrote. */
  tail(lines = 20): string {
    return this.log
      .split('\n')
      .slice(-lines)
      .map((line) => (line.length > 400 ? `${line.slice(0, 400)}…` : line))
      .join('\n');
  }
}
