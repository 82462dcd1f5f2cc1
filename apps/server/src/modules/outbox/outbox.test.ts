import { errorResponseSchema } from '@telemedicina/shared/api';
import { outboxItemSchema, outboxMessageSchema } from '@telemedicina/shared/auth';
import { pageOf } from '@telemedicina/shared/common';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { updateOutboxStatus } from '../email/email.repository.js';
import { createUser, send, signIn, type SignedInClient } from '../../test/factories.js';
import { createTestContext, type TestContext } from '../../test/test-context.js';

let context: TestContext;
let admin: SignedInClient;
const pageSchema = pageOf(outboxItemSchema);
let clock = new Date('2026-06-01T10:00:00.000Z');

beforeAll(async () => {
  context = await createTestContext({ now: () => clock });
  // 25 messages a minute apart, so the order is known.
  for (let index = 0; index < 25; index += 1) {
    clock = new Date(Date.parse('2026-06-01T10:00:00.000Z') + index * 60_000);
    await context.app.services.mailer.send({
      to: index % 5 === 0 ? `especial${index}@example.test` : `persona${index}@example.test`,
      language: index % 2 === 0 ? 'es' : 'en',
      template: 'verify-email',
      subject: index === 7 ? 'Asunto con 100% _raro_' : `Mensaje número ${index}`,
      html: `<p>HTML ${index}</p>`,
      text: `Texto ${index}`,
    });
  }
  clock = new Date('2026-06-01T12:00:00.000Z');
  admin = await signIn(context.app, await createUser(context.app, { roles: ['admin'] }));
});

afterAll(async () => {
  await context?.close();
});

describe('GET /outbox', () => {
  it('lists stored messages newest first, paged', async () => {
    const first = await send(context.app, 'GET', '/api/v1/outbox?page=1&pageSize=10', {
      session: admin.token,
    });
    expect(first.statusCode).toBe(200);
    const page = pageSchema.parse(first.json());
    expect(page.page).toBe(1);
    expect(page.pageSize).toBe(10);
    expect(page.total).toBe(25);
    expect(page.data).toHaveLength(10);
    expect(page.data[0]).toMatchObject({
      subject: 'Mensaje número 24',
      status: 'stored',
      template: 'verify-email',
      sentAt: null,
    });
    const last = pageSchema.parse(
      (await send(context.app, 'GET', '/api/v1/outbox?page=3&pageSize=10', { session: admin.token })).json(),
    );
    expect(last.data.map((item) => item.subject)).toEqual([
      'Mensaje número 4',
      'Mensaje número 3',
      'Mensaje número 2',
      'Mensaje número 1',
      'Mensaje número 0',
    ]);
  });

  it('defaults to page 1 of 20', async () => {
    const page = pageSchema.parse(
      (await send(context.app, 'GET', '/api/v1/outbox', { session: admin.token })).json(),
    );
    expect([page.page, page.pageSize, page.data.length]).toEqual([1, 20, 20]);
  });

  it('searches recipient and subject, case-insensitively, with LIKE wildcards taken literally', async () => {
    const byRecipient = pageSchema.parse(
      (await send(context.app, 'GET', '/api/v1/outbox?q=ESPECIAL', { session: admin.token })).json(),
    );
    expect(byRecipient.total).toBe(5);
    expect(byRecipient.data.every((item) => item.to.startsWith('especial'))).toBe(true);
    const bySubject = pageSchema.parse(
      (
        await send(context.app, 'GET', `/api/v1/outbox?q=${encodeURIComponent('número 1')}`, {
          session: admin.token,
        })
      ).json(),
    );
    expect(bySubject.total).toBe(11);
    const literal = pageSchema.parse(
      (
        await send(context.app, 'GET', `/api/v1/outbox?q=${encodeURIComponent('100%')}`, {
          session: admin.token,
        })
      ).json(),
    );
    expect(literal.data.map((item) => item.subject)).toEqual(['Asunto con 100% _raro_']);
    const underscore = pageSchema.parse(
      (await send(context.app, 'GET', '/api/v1/outbox?q=_', { session: admin.token })).json(),
    );
    expect(underscore.total).toBe(1);
  });

  it('filters by delivery status, with the search', async () => {
    // Two messages marked as delivered and one as failed, straight in the table.
    const all = pageSchema.parse(
      (await send(context.app, 'GET', '/api/v1/outbox?pageSize=100', { session: admin.token })).json(),
    ).data;
    const byId = (subject: string) => all.find((item) => item.subject === subject)!.id;
    const mark = (id: string, status: 'sent' | 'failed') =>
      updateOutboxStatus(context.db, id, {
        status,
        error: status === 'failed' ? 'boom' : null,
        sentAt: clock,
      });
    await mark(byId('Mensaje número 3'), 'sent');
    await mark(byId('Mensaje número 10'), 'sent');
    await mark(byId('Mensaje número 11'), 'failed');
    const list = async (query: string) =>
      pageSchema.parse(
        (await send(context.app, 'GET', `/api/v1/outbox?${query}`, { session: admin.token })).json(),
      );
    const sent = await list('status=sent');
    expect(sent.total).toBe(2);
    expect(sent.data.map((item) => item.subject)).toEqual(['Mensaje número 10', 'Mensaje número 3']);
    expect((await list('status=failed')).data.map((item) => [item.subject, item.error])).toEqual([
      ['Mensaje número 11', 'boom'],
    ]);
    expect((await list('status=stored')).total).toBe(all.length - 3);
    expect((await list('status=queued')).total).toBe(0);
    expect((await list(`status=sent&q=${encodeURIComponent('número 1')}`)).total).toBe(1);
    const invalid = await send(context.app, 'GET', '/api/v1/outbox?status=lost', { session: admin.token });
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json()).toMatchObject({
      error: {
        code: 'VALIDATION_FAILED',
        details: { issues: [{ path: 'status', message: 'validation.status' }] },
      },
    });
  });

  it('refuses a page size over 100 with 400', async () => {
    const response = await send(context.app, 'GET', '/api/v1/outbox?pageSize=500', { session: admin.token });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      error: {
        code: 'VALIDATION_FAILED',
        details: { issues: [{ location: 'querystring', path: 'pageSize' }] },
      },
    });
  });
});

describe('GET /outbox/:id', () => {
  it('answers one message with its HTML and text', async () => {
    const [item] = pageSchema.parse(
      (await send(context.app, 'GET', '/api/v1/outbox?pageSize=1', { session: admin.token })).json(),
    ).data;
    const response = await send(context.app, 'GET', `/api/v1/outbox/${item!.id}`, { session: admin.token });
    expect(response.statusCode).toBe(200);
    expect(outboxMessageSchema.parse(response.json())).toMatchObject({
      id: item!.id,
      html: '<p>HTML 24</p>',
      text: 'Texto 24',
    });
  });

  it('answers 404 for an unknown or malformed id', async () => {
    for (const id of ['00000000-0000-4000-8000-000000000000', 'nope']) {
      const response = await send(context.app, 'GET', `/api/v1/outbox/${id}`, { session: admin.token });
      expect(response.statusCode).toBe(404);
      expect(errorResponseSchema.parse(response.json()).error.code).toBe('NOT_FOUND');
    }
  });
});
