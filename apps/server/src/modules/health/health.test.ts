import { errorResponseSchema, healthResponseSchema } from '@telemedicina/shared/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.js';
import type { DatabaseClient } from '../../db/client.js';
import { serverVersion } from '../../paths.js';
import { createTestConfig, createTestContext, type TestContext } from '../../test/test-context.js';
import { createTestDatabase, testDatabaseUrl } from '../../test/test-database.js';
import { createDatabasePinger } from './health.repository.js';

let context: TestContext;
let clock = new Date('2026-03-01T08:00:00.000Z');

beforeAll(async () => {
  context = await createTestContext({ now: () => clock });
});

afterAll(async () => {
  await context?.close();
});

describe('GET /api/v1/health', () => {
  it('answers version, uptime and a real database round trip', async () => {
    clock = new Date('2026-03-01T08:00:12.500Z');
    const response = await context.app.inject({ method: 'GET', url: '/api/v1/health' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    const body = healthResponseSchema.parse(response.json());
    expect(body).toMatchObject({
      status: 'ok',
      version: serverVersion,
      uptimeSeconds: 12.5,
      database: { kind: testDatabaseUrl === null ? 'pglite' : 'postgres' },
    });
    expect(body.database.roundTripMs).toBeGreaterThan(0);
    // The round trip ran for this request (the app's clock is frozen, so it is dated now).
    expect(body.database.checkedAt).toBe(clock.toISOString());
  });

  it('reuses the round trip for a second, then measures again', async () => {
    const first = healthResponseSchema.parse((await context.app.inject({ url: '/api/v1/health' })).json());
    clock = new Date(clock.getTime() + 500);
    const reused = healthResponseSchema.parse((await context.app.inject({ url: '/api/v1/health' })).json());
    expect(reused.database).toEqual(first.database);
    clock = new Date(clock.getTime() + 600);
    const fresh = healthResponseSchema.parse((await context.app.inject({ url: '/api/v1/health' })).json());
    expect(fresh.database.checkedAt).toBe(clock.toISOString());
  });

  it('answers 503 SERVICE_UNAVAILABLE in the error shape when the database is down', async () => {
    const broken = await createTestDatabase();
    await broken.client.close();
    const app = await buildApp({ config: createTestConfig(context.tempDir), database: broken.client });
    try {
      const response = await app.inject({ method: 'GET', url: '/api/v1/health' });
      expect(response.statusCode).toBe(503);
      const body = errorResponseSchema.parse(response.json());
      expect(body.error).toEqual({
        code: 'SERVICE_UNAVAILABLE',
        message: 'The database is not reachable.',
        details: { database: { kind: broken.client.kind } },
      });
    } finally {
      await app.close();
      await broken.dispose();
    }
  });
});

describe('createDatabasePinger', () => {
  function countingDatabase(db: DatabaseClient): { db: DatabaseClient; calls: () => number } {
    let calls = 0;
    return {
      db: {
        ...db,
        ping: () => {
          calls += 1;
          return db.ping();
        },
      },
      calls: () => calls,
    };
  }

  it('shares one in-flight round trip between concurrent callers', async () => {
    const counting = countingDatabase(context.database.client);
    const check = createDatabasePinger(counting.db, { now: () => new Date() });
    const results = await Promise.all(Array.from({ length: 10 }, () => Promise.resolve(check())));
    expect(counting.calls()).toBe(1);
    expect(new Set(results.map((result) => result.roundTripMs)).size).toBe(1);
  });

  it('reuses a successful check for maxAgeMs, then measures again', async () => {
    let now = new Date('2026-03-01T08:00:00.000Z');
    const counting = countingDatabase(context.database.client);
    const check = createDatabasePinger(counting.db, { now: () => now, maxAgeMs: 1_000 });
    const first = await check();
    expect(first.checkedAt).toEqual(now);
    now = new Date('2026-03-01T08:00:00.999Z');
    expect(await check()).toBe(first);
    expect(counting.calls()).toBe(1);
    now = new Date('2026-03-01T08:00:01.000Z');
    const second = await check();
    expect(counting.calls()).toBe(2);
    expect(second.checkedAt).toEqual(now);
  });

  it('never reuses a failure: every waiting caller gets it, the next call tries again', async () => {
    let shouldFail = true;
    const flaky: DatabaseClient = {
      ...context.database.client,
      ping: () => (shouldFail ? Promise.reject(new Error('down')) : context.database.client.ping()),
    };
    const check = createDatabasePinger(flaky, { now: () => new Date() });
    const outcomes = await Promise.allSettled([check(), check()]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['rejected', 'rejected']);
    shouldFail = false;
    await expect(check()).resolves.toMatchObject({ roundTripMs: expect.any(Number) });
  });
});
