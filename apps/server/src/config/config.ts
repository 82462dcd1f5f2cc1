import { isIP } from 'node:net';
import path from 'node:path';
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
}

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
        const shown = value === undefined ? '' : ` (got ${JSON.stringify(value)})`;
        return { variable, message: `${issue.message}${shown}` };
      }),
    );
  }
  const values = parsed.data;
  return {
    nodeEnv: values.NODE_ENV,
    isProduction: values.NODE_ENV === 'production',
    host: values.HOST,
    port: values.PORT,
    realtimePort: values.REALTIME_PORT === 0 ? null : values.REALTIME_PORT,
    appOrigins: values.APP_ORIGIN ?? defaultOrigins(values.PORT),
    dataDir: path.resolve(cwd, values.DATA_DIR),
    databaseUrl: values.DATABASE_URL ?? null,
    logLevel: values.LOG_LEVEL,
    webDistDir:
      values.WEB_DIST_DIR === undefined ? defaultWebDistDir : path.resolve(cwd, values.WEB_DIST_DIR),
    trustProxy: values.TRUST_PROXY,
  };
}

/** Without APP_ORIGIN the app is reached on this machine: localhost and 127.0.0.1 on PORT. */
function defaultOrigins(port: number): string[] {
  return [`http://localhost:${port}`, `http://127.0.0.1:${port}`];
}
