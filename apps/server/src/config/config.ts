import { isIP } from 'node:net';
import path from 'node:path';
import { iceServerSchema, type IceServer } from '@telemedicina/shared/clinic-settings';
import { z } from 'zod';
import { defaultWebDistDir } from '../paths.js';

const logLevels = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof logLevels)[number];

/** Server configuration, parsed once from the environment at start. */
export interface Config {
  nodeEnv: 'development' | 'production' | 'test';
  isProduction: boolean;
  host: string;
  /** Main HTTP port (REST, web app, and Socket.IO at /socket.io). 0 = any free port. */
  port: number;
  /**
   * Separate Socket.IO port, or null when disabled (`REALTIME_PORT=0`). From
   * code (tests) 0 means "any free port"; from the environment 0 disables it.
   */
  realtimePort: number | null;
  /** Origins allowed to open real-time connections (CORS); the first one is the public URL. */
  appOrigins: string[];
  /** Absolute folder for local data; the embedded database lives in `<dataDir>/pglite`. */
  dataDir: string;
  /** PostgreSQL connection string; null = embedded PGlite in `dataDir`. */
  databaseUrl: string | null;
  logLevel: LogLevel;
  /** Absolute folder holding the web app's production build. */
  webDistDir: string;
  /** Fastify `trustProxy`: false, true, a hop count, or a list of addresses/CIDRs. */
  trustProxy: boolean | number | string[];
  /** Canonical URL of the app, for links in emails; an https origin also makes cookies Secure. */
  publicOrigin: string;
  /** SMTP server (smtp:// or smtps://, credentials in the URL); null = emails only go to the outbox. */
  smtpUrl: string | null;
  /** The From of every email. */
  mailFrom: string;
  /** How often due appointment reminders are sent (REMINDER_POLL_SECONDS); 0 or unset = never (tests). */
  reminderPollSeconds?: number;
  /** Idle timeout of admins, doctors and staff; the setting `session.idleMinutesStaff` overrides it. */
  sessionIdleMinutesStaff: number;
  /** Idle timeout of patients; the setting `session.idleMinutesPatient` overrides it. */
  sessionIdleMinutesPatient: number;
  /** Absolute lifetime of a session, whatever the activity. */
  sessionAbsoluteHours: number;
  /** Create the demo accounts on the first start of an empty database. */
  seedDemo: boolean;
  /** Absolute folder of uploaded files (photos…). */
  uploadsDir: string;
  /**
   * Key material for TOTP secrets at rest (any string of 32+ characters; a
   * 32-byte key is derived from it). Null = a random key kept in
   * `<dataDir>/secrets/` (refused in production with DATABASE_URL).
   */
  mfaEncryptionKey: string | null;
  /** Redis for rate limits shared by several instances; null = in-memory limits. */
  redisUrl: string | null;
  /**
   * Prefix of every Redis key and channel (`REDIS_KEY_PREFIX`, default `telemedicina`): rate
   * limits under `<prefix>:rate-limit:`, Socket.IO under `<prefix>:socket.io`. Instances of one
   * deployment share it; deployments (or test runs) sharing one Redis server use different ones.
   */
  redisKeyPrefix: string;
  /**
   * Default STUN/TURN servers for video visits (`ICE_SERVERS`, a JSON array);
   * the clinic setting `video.iceServers` overrides it once an admin saves one.
   */
  iceServers: IceServer[];
  /**
   * TURN relay with short-lived credentials (`TURN_SECRET`, `TURN_URLS`, `TURN_TTL_SECONDS`): the
   * TURN REST API scheme coturn checks with `use-auth-secret` + `static-auth-secret`. Each visit
   * participant gets its own credentials in its visit state. Null (or absent) = no TURN issued.
   */
  turn?: TurnConfig | null;
  /**
   * argon2id cost. Production follows OWASP (19 MiB, 2 passes); tests use a
   * light setting so suites stay fast. Not read from the environment.
   */
  passwordHashing: { memoryCostKib: number; timeCost: number };
  /**
   * `SECURITY_SCAN_NO_RATE_LIMITS`: requests from this machine's loopback address skip the rate
   * limits, so `npm run security:scan` can send sqlmap's thousands of requests to a rate-limited
   * endpoint. Only the scan's own server sets it, and loading refuses it unless NODE_ENV=test: a
   * production or development start with it set does not start at all.
   */
  securityScanNoRateLimits?: boolean;
}

/** The TURN relay the server issues credentials for. The secret is never logged nor sent. */
export interface TurnConfig {
  /** coturn's `static-auth-secret`. */
  secret: string;
  /** `turn:` / `turns:` URLs of the relay. */
  urls: string[];
  /** How long issued credentials are accepted for new relays, in seconds. */
  ttlSeconds: number;
}

/** Bounds of `TURN_TTL_SECONDS`: at least a few seconds (tests), at most a day (the TURN REST API draft's advice). */
export const turnTtlBounds = { min: 5, max: 86_400, fallback: 3_600 } as const;

/** OWASP's argon2id recommendation: m=19 MiB, t=2, p=1. */
export const productionPasswordHashing = { memoryCostKib: 19_456, timeCost: 2 } as const;

/** Thrown when the environment holds an invalid value; the message names every bad variable. */
export class ConfigError extends Error {
  constructor(readonly issues: { variable: string; message: string }[]) {
    super(
      `Invalid configuration:\n${issues.map((issue) => `  ${issue.variable}: ${issue.message}`).join('\n')}`,
    );
    this.name = 'ConfigError';
  }
}

const port = (fallback: number) =>
  z
    .string()
    .regex(/^\d+$/, 'must be a whole number between 0 and 65535')
    .transform(Number)
    .pipe(z.number().int().min(0, 'must be between 0 and 65535').max(65535, 'must be between 0 and 65535'))
    .default(fallback);

/** A whole number from 1 to `max` (minutes or hours). */
const minutes = (fallback: number, max: number) =>
  z
    .string()
    .regex(/^\d+$/, `must be a whole number between 1 and ${max}`)
    .transform(Number)
    .pipe(z.number().int().min(1, `must be between 1 and ${max}`).max(max, `must be between 1 and ${max}`))
    .default(fallback);

const origin = z.string().transform((value, ctx) => {
  try {
    const url = new URL(value);
    if ((url.protocol === 'http:' || url.protocol === 'https:') && url.origin === value.replace(/\/$/, '')) {
      return url.origin;
    }
  } catch {
    // reported below
  }
  ctx.addIssue({ code: 'custom', message: `"${value}" is not an origin such as https://clinic.example.org` });
  return z.NEVER;
});

const trustProxy = z.string().transform((value, ctx): Config['trustProxy'] => {
  const lowered = value.trim().toLowerCase();
  if (lowered === 'true') {
    return true;
  }
  if (lowered === 'false') {
    return false;
  }
  if (/^\d+$/.test(lowered)) {
    return Number(lowered);
  }
  const entries = value.split(',').map((entry) => entry.trim());
  const isAddressList = entries.every((entry) => {
    const [address, prefix, ...rest] = entry.split('/');
    return (
      rest.length === 0 &&
      address !== undefined &&
      isIP(address) !== 0 &&
      (prefix === undefined || /^\d{1,3}$/.test(prefix))
    );
  });
  if (isAddressList) {
    return entries;
  }
  ctx.addIssue({
    code: 'custom',
    message: 'must be true, false, a number of proxy hops, or a comma-separated list of IP addresses/CIDRs',
  });
  return z.NEVER;
});

/** `ICE_SERVERS`: a JSON array of `{ urls: [...], username?, credential? }`, at most 10. */
const iceServers = z.string().transform((value, ctx): IceServer[] => {
  let json: unknown;
  try {
    json = JSON.parse(value);
  } catch {
    ctx.addIssue({
      code: 'custom',
      message: 'must be a JSON array such as [{"urls":["stun:stun.example.org:3478"]}]',
    });
    return z.NEVER;
  }
  const parsed = z.array(iceServerSchema).max(10).safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue === undefined || issue.path.length === 0 ? '' : ` at ${issue.path.join('.')}`;
    ctx.addIssue({
      code: 'custom',
      message: `must be a JSON array of at most 10 { urls: ["stun:…" | "turn:…"], username?, credential? }${where}`,
    });
    return z.NEVER;
  }
  return parsed.data;
});

const turnUrlPattern = /^turns?:[^\s,"]+$/;
const turnUrlsMessage =
  'must be turn: or turns: URLs, comma-separated or a JSON array, at most 10, such as turn:turn.example.org:3478?transport=udp,turns:turn.example.org:5349';

/** `TURN_URLS`: `turn:a,turns:b` or `["turn:a","turns:b"]`; 1 to 10 turn:/turns: URLs. */
const turnUrls = z.string().transform((value, ctx): string[] => {
  let entries: unknown;
  if (value.trim().startsWith('[')) {
    try {
      entries = JSON.parse(value);
    } catch {
      entries = null;
    }
  } else {
    entries = value.split(',').map((entry) => entry.trim());
  }
  const parsed = z.array(z.string().trim().max(300).regex(turnUrlPattern)).min(1).max(10).safeParse(entries);
  if (!parsed.success) {
    ctx.addIssue({ code: 'custom', message: turnUrlsMessage });
    return z.NEVER;
  }
  return parsed.data;
});

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  HOST: z.string().min(1).default('0.0.0.0'),
  PORT: port(3000),
  REALTIME_PORT: port(3001),
  APP_ORIGIN: z
    .string()
    .transform((value) => value.split(',').map((entry) => entry.trim()))
    .pipe(z.array(origin).min(1))
    .optional(),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// connection string')
    .optional(),
  LOG_LEVEL: z.enum(logLevels).default('info'),
  WEB_DIST_DIR: z.string().min(1).optional(),
  TRUST_PROXY: trustProxy.default(false),
  PUBLIC_ORIGIN: origin.optional(),
  SMTP_URL: z
    .string()
    .regex(
      /^smtps?:\/\/[^\s]+$/,
      'must be an smtp:// or smtps:// URL such as smtp://user:pass@mail.example.org:587',
    )
    .optional(),
  MAIL_FROM: z.string().trim().min(3).max(200).optional(),
  SESSION_IDLE_MINUTES_STAFF: minutes(15, 24 * 60),
  SESSION_IDLE_MINUTES_PATIENT: minutes(30, 24 * 60),
  SESSION_ABSOLUTE_HOURS: minutes(12, 24 * 30),
  SEED_DEMO: z
    .enum(['true', 'false', '1', '0', 'yes', 'no'], { message: 'must be true or false' })
    .transform((value) => value === 'true' || value === '1' || value === 'yes')
    .optional(),
  UPLOADS_DIR: z.string().min(1).optional(),
  MFA_ENCRYPTION_KEY: z
    .string()
    .min(32, 'must be at least 32 characters (for example `openssl rand -base64 32`)')
    .optional(),
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//, 'must be a redis:// or rediss:// URL')
    .optional(),
  REDIS_KEY_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9][A-Za-z0-9_.:-]{0,62}$/, 'must be 1 to 63 letters, digits or _ . : -')
    .default('telemedicina'),
  ICE_SERVERS: iceServers.optional(),
  TURN_SECRET: z
    .string()
    .min(
      16,
      "must be at least 16 characters (for example `openssl rand -hex 32`), the same as coturn's static-auth-secret",
    )
    .max(512, 'must be at most 512 characters')
    .optional(),
  TURN_URLS: turnUrls.optional(),
  TURN_TTL_SECONDS: z
    .string()
    .regex(/^\d+$/, `must be a whole number of seconds between ${turnTtlBounds.min} and ${turnTtlBounds.max}`)
    .transform(Number)
    .pipe(
      z
        .number()
        .int()
        .min(turnTtlBounds.min, `must be between ${turnTtlBounds.min} and ${turnTtlBounds.max} seconds`)
        .max(turnTtlBounds.max, `must be between ${turnTtlBounds.min} and ${turnTtlBounds.max} seconds`),
    )
    .optional(),
  REMINDER_POLL_SECONDS: z.coerce
    .number({ message: 'must be a whole number of seconds' })
    .int({ message: 'must be a whole number of seconds' })
    .min(0, { message: 'must be between 0 and 3600' })
    .max(3600, { message: 'must be between 0 and 3600' })
    .default(30),
  SECURITY_SCAN_NO_RATE_LIMITS: z.enum(['true'], { message: 'must be true or unset' }).optional(),
});

/** The variables the server reads; the README's configuration table lists the same. */
export const configVariables = Object.keys(envSchema.shape);

/**
 * Parses the environment into a {@link Config}. Pure (reads nothing but
 * `env` and `cwd`) so tests can feed it any environment. Empty values count as
 * unset, the way `FOO=` in a compose file is meant.
 *
 * @throws ConfigError naming each invalid variable.
 */
export function loadConfig(env: NodeJS.ProcessEnv, cwd: string = process.cwd()): Config {
  const present = Object.fromEntries(
    configVariables.flatMap((name) => {
      const value = env[name];
      return value === undefined || value.trim() === '' ? [] : [[name, value]];
    }),
  );
  const parsed = envSchema.safeParse(present);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((issue) => {
        const variable = String(issue.path[0] ?? 'environment');
        const value = present[variable];
        // ICE_SERVERS may hold TURN credentials, TURN_SECRET is one: never echoed into logs.
        const shown =
          value === undefined || secretVariables.has(variable) ? '' : ` (got ${JSON.stringify(value)})`;
        return { variable, message: `${issue.message}${shown}` };
      }),
    );
  }
  const values = parsed.data;
  const isProduction = values.NODE_ENV === 'production';
  const databaseUrl = values.DATABASE_URL ?? null;
  if (isProduction && databaseUrl !== null && values.MFA_ENCRYPTION_KEY === undefined) {
    throw new ConfigError([
      {
        variable: 'MFA_ENCRYPTION_KEY',
        message:
          'is required in production with DATABASE_URL (several instances must share it; for example `openssl rand -base64 32`)',
      },
    ]);
  }
  const securityScanNoRateLimits = values.SECURITY_SCAN_NO_RATE_LIMITS === 'true';
  if (securityScanNoRateLimits && values.NODE_ENV !== 'test') {
    throw new ConfigError([
      {
        variable: 'SECURITY_SCAN_NO_RATE_LIMITS',
        message:
          'is only for the server `npm run security:scan` starts, with NODE_ENV=test; never set it anywhere else',
      },
    ]);
  }
  const turn = turnConfigOf(values.TURN_SECRET, values.TURN_URLS, values.TURN_TTL_SECONDS);
  const dataDir = path.resolve(cwd, values.DATA_DIR);
  const appOrigins = values.APP_ORIGIN ?? defaultOrigins(values.PORT);
  return {
    nodeEnv: values.NODE_ENV,
    isProduction,
    host: values.HOST,
    port: values.PORT,
    realtimePort: values.REALTIME_PORT === 0 ? null : values.REALTIME_PORT,
    appOrigins,
    dataDir,
    databaseUrl,
    logLevel: values.LOG_LEVEL,
    webDistDir:
      values.WEB_DIST_DIR === undefined ? defaultWebDistDir : path.resolve(cwd, values.WEB_DIST_DIR),
    trustProxy: values.TRUST_PROXY,
    publicOrigin: values.PUBLIC_ORIGIN ?? values.APP_ORIGIN?.[0] ?? `http://localhost:${values.PORT}`,
    smtpUrl: values.SMTP_URL ?? null,
    mailFrom: values.MAIL_FROM ?? 'Telemedicina <no-reply@localhost>',
    sessionIdleMinutesStaff: values.SESSION_IDLE_MINUTES_STAFF,
    sessionIdleMinutesPatient: values.SESSION_IDLE_MINUTES_PATIENT,
    sessionAbsoluteHours: values.SESSION_ABSOLUTE_HOURS,
    seedDemo: values.SEED_DEMO ?? databaseUrl === null,
    uploadsDir:
      values.UPLOADS_DIR === undefined
        ? path.join(dataDir, 'uploads')
        : path.resolve(cwd, values.UPLOADS_DIR),
    mfaEncryptionKey: values.MFA_ENCRYPTION_KEY ?? null,
    redisUrl: values.REDIS_URL ?? null,
    redisKeyPrefix: values.REDIS_KEY_PREFIX,
    iceServers: values.ICE_SERVERS ?? [],
    turn,
    passwordHashing: { ...productionPasswordHashing },
    reminderPollSeconds: values.REMINDER_POLL_SECONDS,
    securityScanNoRateLimits,
  };
}

/** Variables whose values never appear in a configuration error. */
const secretVariables = new Set(['ICE_SERVERS', 'TURN_SECRET']);

/** TURN_SECRET and TURN_URLS come together (one without the other is a half-done set-up); the TTL needs them. */
function turnConfigOf(
  secret: string | undefined,
  urls: string[] | undefined,
  ttlSeconds: number | undefined,
): TurnConfig | null {
  if (secret === undefined && urls === undefined) {
    if (ttlSeconds !== undefined) {
      throw new ConfigError([
        {
          variable: 'TURN_TTL_SECONDS',
          message: 'needs TURN_SECRET and TURN_URLS (it only applies to them)',
        },
      ]);
    }
    return null;
  }
  if (secret === undefined) {
    throw new ConfigError([
      {
        variable: 'TURN_SECRET',
        message: "is required with TURN_URLS (the same value as coturn's static-auth-secret)",
      },
    ]);
  }
  if (urls === undefined) {
    throw new ConfigError([
      {
        variable: 'TURN_URLS',
        message: 'is required with TURN_SECRET (for example turn:turn.example.org:3478?transport=udp)',
      },
    ]);
  }
  return { secret, urls, ttlSeconds: ttlSeconds ?? turnTtlBounds.fallback };
}

/** Without APP_ORIGIN the app is reached on this machine: localhost and 127.0.0.1 on PORT. */
function defaultOrigins(port: number): string[] {
  return [`http://localhost:${port}`, `http://127.0.0.1:${port}`];
}
