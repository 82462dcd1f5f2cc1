import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nextRemoteAddress, send } from '../test/factories.js';
import { createTestContext, type TestContext } from '../test/test-context.js';

/** A TCP port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  return typeof address === 'object' && address !== null ? address.port : 1;
}

async function forgotStatuses(context: TestContext, address: string, count: number): Promise<number[]> {
  const statuses: number[] = [];
  for (let round = 0; round < count; round += 1) {
    const response = await send(context.app, 'POST', '/api/v1/auth/password/forgot', {
      body: { email: `nadie${round}@example.test` },
      remoteAddress: address,
    });
    statuses.push(response.statusCode);
  }
  return statuses;
}

describe('rate limits with REDIS_URL', () => {
  let context: TestContext;

  beforeAll(async () => {
    context = await createTestContext({ config: { redisUrl: `redis://127.0.0.1:${await closedPort()}` } });
  });

  afterAll(async () => {
    await context?.close();
  });

  it('lets requests through when Redis cannot be reached (the database lockout still guards sign-in)', async () => {
    expect(await forgotStatuses(context, nextRemoteAddress(), 7)).toEqual(
      Array.from({ length: 7 }, () => 202),
    );
  });
});

async function verifyStatuses(context: TestContext, address: string, count: number): Promise<number[]> {
  const statuses: number[] = [];
  for (let round = 0; round < count; round += 1) {
    const response = await send(context.app, 'GET', '/api/v1/prescriptions/verify/ABCD-EFGH-JKMN', {
      remoteAddress: address,
    });
    statuses.push(response.statusCode);
  }
  return statuses;
}

describe("the security scan's exemption (SECURITY_SCAN_NO_RATE_LIMITS)", () => {
  let scanServer: TestContext;
  let ordinary: TestContext;

  beforeAll(async () => {
    scanServer = await createTestContext({ config: { securityScanNoRateLimits: true } });
    ordinary = await createTestContext();
  });

  afterAll(async () => {
    await scanServer?.close();
    await ordinary?.close();
  });

  it("lets requests from this machine past the limits of the scan's own server", async () => {
    const statuses = await verifyStatuses(scanServer, '127.0.0.1', 40);
    expect(statuses.filter((status) => status === 429)).toEqual([]);
    expect(new Set(statuses)).toEqual(new Set([404]));
  });

  it('still limits any other address on that server', async () => {
    const statuses = await verifyStatuses(scanServer, nextRemoteAddress(), 40);
    expect(statuses.slice(0, 30)).toEqual(Array.from({ length: 30 }, () => 404));
    expect(statuses.slice(30)).toEqual(Array.from({ length: 10 }, () => 429));
  });

  it('limits this machine too on a server without it', async () => {
    const statuses = await verifyStatuses(ordinary, '127.0.0.1', 40);
    expect(statuses.slice(30)).toEqual(Array.from({ length: 10 }, () => 429));
  });
});

// Opt-in, like TEST_DATABASE_URL: a Redis server to share limits through (e.g. redis://127.0.0.1:6379).
const testRedisUrl = process.env.TEST_REDIS_URL?.trim() || null;
if (testRedisUrl !== null) {
  describe('rate limits shared through Redis', () => {
    let first: TestContext;
    let second: TestContext;

    beforeAll(async () => {
      // The two instances share one prefix; other runs on the same Redis server count apart.
      const redisKeyPrefix = `telemedicina-test-${process.pid}-${Date.now()}`;
      first = await createTestContext({ config: { redisUrl: testRedisUrl, redisKeyPrefix } });
      second = await createTestContext({ config: { redisUrl: testRedisUrl, redisKeyPrefix } });
    });

    afterAll(async () => {
      await first?.close();
      await second?.close();
    });

    it('counts requests to two instances together', async () => {
      // Redis outlives the test run: a random address keeps earlier runs' counts out.
      const octet = (): number => Math.floor(Math.random() * 256);
      const address = `10.${octet()}.${octet()}.${octet()}`;
      // Wait for both connections, so no request slips through while connecting.
      await Promise.all(
        [first, second].map(async (context) => {
          for (let attempt = 0; attempt < 50; attempt += 1) {
            const response = await send(context.app, 'POST', '/api/v1/auth/password/forgot', {
              body: { email: 'warmup@example.test' },
              remoteAddress: `172.16.${Math.floor(Math.random() * 256)}.${Math.floor(Math.random() * 256)}`,
            });
            // A working store counts the request (4 left of 5); a store still connecting does not.
            if (response.headers['x-ratelimit-remaining'] === '4') {
              return;
            }
            await new Promise((resolve) => setTimeout(resolve, 20));
          }
        }),
      );
      const statuses = [
        ...(await forgotStatuses(first, address, 3)),
        ...(await forgotStatuses(second, address, 3)),
      ];
      expect(statuses).toEqual([202, 202, 202, 202, 202, 429]);
    });
  });
}
