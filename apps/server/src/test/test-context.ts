import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildApp, type App } from '../app.js';
import type { Config } from '../config/config.js';
import type { Database } from '../db/client.js';
import { seedSystemData } from '../db/seed.js';
import { writeSetting } from '../modules/settings/settings.repository.js';
import { settingKeys } from '../modules/settings/settings.service.js';
import { startSmtpCatcher, type SmtpCatcher } from './smtp-catcher.js';
import { createTestDatabase, type TestDatabase } from './test-database.js';

export interface TestContext {
  app: App;
  config: Config;
  /** The query handle (Drizzle) the app's services use. */
  db: Database;
  database: TestDatabase;
  /** A scratch folder removed on close. */
  tempDir: string;
  /**
   * With `smtp: true`, the loopback mail server the app delivers to (what a
   * recipient really gets, secrets included, unlike the outbox); else null.
   */
  mail: SmtpCatcher | null;
  /** Closes the app, disposes of the database and removes the scratch folder. */
  close(): Promise<void>;
}

/** The origin test requests and sockets present as the app's own. */
export const testAppOrigin = 'http://app.test';

/**
 * A configuration for tests: silent logs, no web build, no separate
 * real-time port unless asked, everything under a scratch folder.
 */
export function createTestConfig(tempDir: string, overrides: Partial<Config> = {}): Config {
  return {
    nodeEnv: 'test',
    isProduction: false,
    host: '127.0.0.1',
    port: 0,
    realtimePort: null,
    appOrigins: [testAppOrigin],
    dataDir: path.join(tempDir, 'data'),
    databaseUrl: null,
    logLevel: 'silent',
    webDistDir: path.join(tempDir, 'no-web-build'),
    trustProxy: false,
    publicOrigin: testAppOrigin,
    smtpUrl: null,
    mailFrom: 'Telemedicina <no-reply@app.test>',
    sessionIdleMinutesStaff: 15,
    sessionIdleMinutesPatient: 30,
    sessionAbsoluteHours: 12,
    seedDemo: false,
    uploadsDir: path.join(tempDir, 'uploads'),
    mfaEncryptionKey: 'test-only-mfa-encryption-key-0123456789',
    redisUrl: null,
    redisKeyPrefix: 'telemedicina',
    iceServers: [],
    // Far lighter than production (19 MiB, t=2) so suites stay fast; still argon2id.
    passwordHashing: { memoryCostKib: 256, timeCost: 1 },
    ...overrides,
  };
}

/**
 * Builds the app (not listening) on a fresh database — PGlite, or a new
 * PostgreSQL database when TEST_DATABASE_URL is set — with the system roles
 * seeded. Call once per test file (beforeAll) and close in afterAll.
 * `configure` may add test-only routes before the app is ready.
 * `mfaRequiredRoles` sets the clinic setting (default: none, like the demo).
 */
export async function createTestContext(
  options: {
    config?: Partial<Config>;
    configure?: (app: App) => void | Promise<void>;
    now?: () => Date;
    mfaRequiredRoles?: string[];
    /** Deliver emails over SMTP to a catcher on loopback (`context.mail`). */
    smtp?: boolean;
  } = {},
): Promise<TestContext> {
  const tempDir = await mkdtemp(path.join(tmpdir(), 'telemedicina-test-'));
  const database = await createTestDatabase();
  const now = options.now ?? (() => new Date());
  await seedSystemData(database.db, now());
  await writeSetting(database.db, settingKeys.mfaRequiredRoles, options.mfaRequiredRoles ?? [], {
    now: now(),
  });
  const mail = options.smtp === true ? await startSmtpCatcher() : null;
  const config = createTestConfig(tempDir, {
    ...(mail === null ? {} : { smtpUrl: mail.url }),
    ...options.config,
  });
  const app = await buildApp({ config, database: database.client, now });
  await options.configure?.(app);
  await app.ready();
  let closing: Promise<void> | null = null;
  return {
    app,
    config,
    db: database.db,
    database,
    tempDir,
    mail,
    close: () =>
      (closing ??= (async () => {
        try {
          await app.close();
        } finally {
          await database.dispose();
          await mail?.close();
          await rm(tempDir, { recursive: true, force: true });
        }
      })()),
  };
}

/** Reads `name=value` pairs out of Set-Cookie headers (ignores attributes). */
export function parseSetCookie(
  header: string | string[] | undefined,
): Map<string, { value: string; attributes: string[] }> {
  const result = new Map<string, { value: string; attributes: string[] }>();
  for (const line of header === undefined ? [] : Array.isArray(header) ? header : [header]) {
    const [pair = '', ...attributes] = line.split(';').map((part) => part.trim());
    const separator = pair.indexOf('=');
    result.set(pair.slice(0, separator), {
      value: pair.slice(separator + 1),
      attributes: attributes.map((attribute) => attribute.toLowerCase()),
    });
  }
  return result;
}
