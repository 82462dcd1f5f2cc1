import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { defaultWebDistDir } from '../paths.js';
import { ConfigError, loadConfig, productionPasswordHashing } from './config.js';

function configError(env: NodeJS.ProcessEnv): ConfigError {
  try {
    loadConfig(env, '/srv/app');
  } catch (error) {
    if (error instanceof ConfigError) {
      return error;
    }
    throw error;
  }
  throw new Error('expected loadConfig to throw');
}

describe('loadConfig', () => {
  it('has working defaults for an empty environment', () => {
    const config = loadConfig({}, '/srv/app');
    expect(config).toEqual({
      nodeEnv: 'development',
      isProduction: false,
      host: '0.0.0.0',
      port: 3000,
      realtimePort: 3001,
      appOrigins: ['http://localhost:3000', 'http://127.0.0.1:3000'],
      dataDir: '/srv/app/data',
      databaseUrl: null,
      logLevel: 'info',
      webDistDir: defaultWebDistDir,
      trustProxy: false,
      publicOrigin: 'http://localhost:3000',
      smtpUrl: null,
      mailFrom: 'Telemedicina <no-reply@localhost>',
      sessionIdleMinutesStaff: 15,
      sessionIdleMinutesPatient: 30,
      sessionAbsoluteHours: 12,
      seedDemo: true,
      uploadsDir: '/srv/app/data/uploads',
      mfaEncryptionKey: null,
      redisUrl: null,
      redisKeyPrefix: 'telemedicina',
      iceServers: [],
      turn: null,
      passwordHashing: { memoryCostKib: 19_456, timeCost: 2 },
      reminderPollSeconds: 30,
      securityScanNoRateLimits: false,
    });
    expect(productionPasswordHashing).toEqual({ memoryCostKib: 19_456, timeCost: 2 });
  });

  it('points the default web build at apps/web/dist', () => {
    const repositoryRoot = fileURLToPath(new URL('../../../../', import.meta.url));
    expect(defaultWebDistDir).toBe(path.join(repositoryRoot, 'apps', 'web', 'dist'));
  });

  it('reads every variable', () => {
    const config = loadConfig(
      {
        NODE_ENV: 'production',
        HOST: '127.0.0.1',
        PORT: '8080',
        REALTIME_PORT: '8081',
        APP_ORIGIN: 'https://clinic.example.org, http://localhost:5173/',
        DATA_DIR: 'var/telemedicina',
        DATABASE_URL: 'postgres://user@db:5432/telemedicina',
        LOG_LEVEL: 'warn',
        WEB_DIST_DIR: '/opt/web',
        TRUST_PROXY: '10.0.0.0/8,127.0.0.1',
        PUBLIC_ORIGIN: 'https://clinica.example.org/',
        SMTP_URL: 'smtps://mailer:secret@mail.example.org:465',
        MAIL_FROM: 'Clínica <citas@example.org>',
        SESSION_IDLE_MINUTES_STAFF: '10',
        SESSION_IDLE_MINUTES_PATIENT: '45',
        SESSION_ABSOLUTE_HOURS: '8',
        SEED_DEMO: 'true',
        UPLOADS_DIR: 'files',
        MFA_ENCRYPTION_KEY: 'k'.repeat(44),
        REDIS_URL: 'redis://cache:6379/0',
        REDIS_KEY_PREFIX: 'clinica-norte',
        ICE_SERVERS:
          '[{"urls":["stun:stun.example.org:3478"]},{"urls":["turn:turn.example.org:3478?transport=udp"],"username":"u","credential":"p"}]',
      },
      '/srv/app',
    );
    expect(config).toMatchObject({
      nodeEnv: 'production',
      isProduction: true,
      host: '127.0.0.1',
      port: 8080,
      realtimePort: 8081,
      appOrigins: ['https://clinic.example.org', 'http://localhost:5173'],
      dataDir: '/srv/app/var/telemedicina',
      databaseUrl: 'postgres://user@db:5432/telemedicina',
      logLevel: 'warn',
      webDistDir: '/opt/web',
      trustProxy: ['10.0.0.0/8', '127.0.0.1'],
      publicOrigin: 'https://clinica.example.org',
      smtpUrl: 'smtps://mailer:secret@mail.example.org:465',
      mailFrom: 'Clínica <citas@example.org>',
      sessionIdleMinutesStaff: 10,
      sessionIdleMinutesPatient: 45,
      sessionAbsoluteHours: 8,
      seedDemo: true,
      uploadsDir: '/srv/app/files',
      mfaEncryptionKey: 'k'.repeat(44),
      redisUrl: 'redis://cache:6379/0',
      redisKeyPrefix: 'clinica-norte',
      iceServers: [
        { urls: ['stun:stun.example.org:3478'] },
        { urls: ['turn:turn.example.org:3478?transport=udp'], username: 'u', credential: 'p' },
      ],
    });
  });

  it.each([
    ['not json', 'not JSON'],
    ['{"urls":["stun:a"]}', 'an object instead of an array'],
    ['[{"urls":["http://a.example.org"]}]', 'a URL that is not stun/turn'],
    ['[{"urls":[]}]', 'no URL'],
    ['[{"urls":["stun:a"],"extra":1}]', 'an unknown field'],
  ])('refuses ICE_SERVERS=%s (%s) without echoing the value', (value) => {
    const error = configError({ ICE_SERVERS: value });
    expect(error.issues.map((issue) => issue.variable)).toEqual(['ICE_SERVERS']);
    expect(error.message).not.toContain(value);
  });

  it('reads the TURN relay: a comma list or a JSON array of URLs, a TTL of an hour unless set', () => {
    const secret = 's3cret-turn-value-0123456789';
    expect(
      loadConfig({
        TURN_SECRET: secret,
        TURN_URLS: 'turn:turn.example.org:3478?transport=udp, turns:turn.example.org:5349',
      }).turn,
    ).toEqual({
      secret,
      urls: ['turn:turn.example.org:3478?transport=udp', 'turns:turn.example.org:5349'],
      ttlSeconds: 3600,
    });
    expect(
      loadConfig({
        TURN_SECRET: secret,
        TURN_URLS: '["turn:127.0.0.1:3478"]',
        TURN_TTL_SECONDS: '5',
      }).turn,
    ).toEqual({ secret, urls: ['turn:127.0.0.1:3478'], ttlSeconds: 5 });
    expect(loadConfig({}).turn).toBeNull();
  });

  it.each([
    [{ TURN_SECRET: 'x'.repeat(20) }, 'TURN_URLS', 'is required with TURN_SECRET'],
    [{ TURN_URLS: 'turn:turn.example.org' }, 'TURN_SECRET', 'is required with TURN_URLS'],
    [{ TURN_TTL_SECONDS: '60' }, 'TURN_TTL_SECONDS', 'needs TURN_SECRET and TURN_URLS'],
    [{ TURN_SECRET: 'x'.repeat(20), TURN_URLS: 'stun:a.example.org' }, 'TURN_URLS', 'turn: or turns:'],
    [{ TURN_SECRET: 'x'.repeat(20), TURN_URLS: '["turn:a", 3]' }, 'TURN_URLS', 'turn: or turns:'],
    [{ TURN_SECRET: 'x'.repeat(20), TURN_URLS: '' }, 'TURN_URLS', 'is required with TURN_SECRET'],
    [
      { TURN_SECRET: 'x'.repeat(20), TURN_URLS: 'turn:a', TURN_TTL_SECONDS: '4' },
      'TURN_TTL_SECONDS',
      'between 5 and 86400',
    ],
    [
      { TURN_SECRET: 'x'.repeat(20), TURN_URLS: 'turn:a', TURN_TTL_SECONDS: '86401' },
      'TURN_TTL_SECONDS',
      'between 5 and 86400',
    ],
    [
      { TURN_SECRET: 'x'.repeat(20), TURN_URLS: 'turn:a', TURN_TTL_SECONDS: 'an hour' },
      'TURN_TTL_SECONDS',
      'whole number of seconds',
    ],
  ])('refuses the half-done or wrong TURN set-up %j', (env, variable, message) => {
    const error = configError(env);
    expect(error.issues).toEqual([{ variable, message: expect.stringContaining(message) }]);
  });

  it('refuses a short TURN_SECRET without echoing it', () => {
    const error = configError({ TURN_SECRET: 'short-secret', TURN_URLS: 'turn:a.example.org' });
    expect(error.issues.map((issue) => issue.variable)).toEqual(['TURN_SECRET']);
    expect(error.message).toContain('at least 16 characters');
    expect(error.message).not.toContain('short-secret');
  });

  it('seeds the demo only on the embedded database unless SEED_DEMO says otherwise', () => {
    expect(loadConfig({}).seedDemo).toBe(true);
    expect(loadConfig({ DATABASE_URL: 'postgres://db/x' }).seedDemo).toBe(false);
    expect(loadConfig({ DATABASE_URL: 'postgres://db/x', SEED_DEMO: 'true' }).seedDemo).toBe(true);
    expect(loadConfig({ SEED_DEMO: 'false' }).seedDemo).toBe(false);
  });

  it('takes the public origin from PUBLIC_ORIGIN, else the first APP_ORIGIN, else localhost:PORT', () => {
    expect(loadConfig({ PORT: '4100' }).publicOrigin).toBe('http://localhost:4100');
    expect(loadConfig({ APP_ORIGIN: 'https://a.example.org,https://b.example.org' }).publicOrigin).toBe(
      'https://a.example.org',
    );
    expect(
      loadConfig({ APP_ORIGIN: 'https://a.example.org', PUBLIC_ORIGIN: 'https://c.example.org' })
        .publicOrigin,
    ).toBe('https://c.example.org');
  });

  it('requires MFA_ENCRYPTION_KEY in production with DATABASE_URL, not on the embedded database', () => {
    const error = configError({ NODE_ENV: 'production', DATABASE_URL: 'postgres://db/x' });
    expect(error.issues.map((issue) => issue.variable)).toEqual(['MFA_ENCRYPTION_KEY']);
    expect(loadConfig({ NODE_ENV: 'production' }).mfaEncryptionKey).toBeNull();
    expect(loadConfig({ DATABASE_URL: 'postgres://db/x' }).mfaEncryptionKey).toBeNull();
  });

  it('honours SECURITY_SCAN_NO_RATE_LIMITS only with NODE_ENV=test, and refuses to start otherwise', () => {
    expect(
      loadConfig({ NODE_ENV: 'test', SECURITY_SCAN_NO_RATE_LIMITS: 'true' }).securityScanNoRateLimits,
    ).toBe(true);
    expect(loadConfig({ NODE_ENV: 'test' }).securityScanNoRateLimits).toBe(false);
    for (const nodeEnv of ['production', 'development', undefined]) {
      const error = configError({ NODE_ENV: nodeEnv, SECURITY_SCAN_NO_RATE_LIMITS: 'true' });
      expect(error.issues.map((issue) => issue.variable)).toEqual(['SECURITY_SCAN_NO_RATE_LIMITS']);
    }
    for (const value of ['1', 'yes', 'TRUE']) {
      const error = configError({ NODE_ENV: 'test', SECURITY_SCAN_NO_RATE_LIMITS: value });
      expect(error.issues.map((issue) => issue.variable)).toEqual(['SECURITY_SCAN_NO_RATE_LIMITS']);
    }
  });

  it('defaults the allowed origins to the configured port', () => {
    expect(loadConfig({ PORT: '4100' }).appOrigins).toEqual([
      'http://localhost:4100',
      'http://127.0.0.1:4100',
    ]);
  });

  it('treats REALTIME_PORT=0 as "no separate port"', () => {
    expect(loadConfig({ REALTIME_PORT: '0' }).realtimePort).toBeNull();
  });

  it('treats empty values as unset', () => {
    expect(loadConfig({ PORT: '', DATABASE_URL: ' ' }).port).toBe(3000);
    expect(loadConfig({ DATABASE_URL: '' }).databaseUrl).toBeNull();
  });

  it.each([
    ['true', true],
    ['false', false],
    ['2', 2],
    ['::1', ['::1']],
  ])('parses TRUST_PROXY=%s', (value, expected) => {
    expect(loadConfig({ TRUST_PROXY: value }).trustProxy).toEqual(expected);
  });

  it.each([
    ['PORT', 'abc'],
    ['PORT', '70000'],
    ['PORT', '-1'],
    ['PORT', '3000.5'],
    ['REALTIME_PORT', 'x'],
    ['NODE_ENV', 'staging'],
    ['LOG_LEVEL', 'loud'],
    ['APP_ORIGIN', 'clinic.example.org'],
    ['APP_ORIGIN', 'https://clinic.example.org/app'],
    ['DATABASE_URL', 'mysql://db/x'],
    ['TRUST_PROXY', 'sometimes'],
    ['PUBLIC_ORIGIN', 'clinic.example.org'],
    ['SMTP_URL', 'http://mail.example.org'],
    ['SESSION_IDLE_MINUTES_STAFF', '0'],
    ['SESSION_IDLE_MINUTES_PATIENT', 'half an hour'],
    ['SESSION_ABSOLUTE_HOURS', '1000'],
    ['SEED_DEMO', 'maybe'],
    ['MFA_ENCRYPTION_KEY', 'short'],
    ['REDIS_URL', 'localhost:6379'],
    ['REDIS_KEY_PREFIX', 'two words'],
    ['REDIS_KEY_PREFIX', ':starts-with-colon'],
  ])('refuses %s=%s naming the variable and the value', (variable, value) => {
    const error = configError({ [variable]: value });
    expect(error.issues.map((issue) => issue.variable)).toEqual([variable]);
    expect(error.message).toContain(`${variable}:`);
    expect(error.message).toContain(JSON.stringify(value));
  });

  it('reports every invalid variable at once', () => {
    const error = configError({ PORT: 'abc', LOG_LEVEL: 'loud', HOST: 'ok' });
    expect(error.issues.map((issue) => issue.variable).sort()).toEqual(['LOG_LEVEL', 'PORT']);
  });

  it('does not read process.env itself', () => {
    const previous = process.env.PORT;
    process.env.PORT = 'not-a-port';
    try {
      expect(loadConfig({}).port).toBe(3000);
    } finally {
      if (previous === undefined) {
        delete process.env.PORT;
      } else {
        process.env.PORT = previous;
      }
    }
  });
});
