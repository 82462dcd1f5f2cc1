import {
  auditEventPageSchema,
  auditFacetsResponseSchema,
  type AuditEventPage,
} from '@telemedicina/shared/admin';
import { errorResponseSchema } from '@telemedicina/shared/api';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contextFor } from '../../http/service-context.js';
import {
  auditEventsOf,
  createUser,
  send,
  signIn,
  type SignedInClient,
  type TestUser,
} from '../../test/factories.js';
import { createTestContext, type TestContext } from '../../test/test-context.js';
import { writeSetting } from '../settings/settings.repository.js';
import { invalidateClinicSettingsCache } from '../settings/clinic-settings-cache.js';
import { settingKeys } from '../settings/settings.service.js';
import { csvCell } from '../../lib/csv.js';
import { exportAuditLog } from './audit-log.service.js';
import type { AuditTargetType } from '@telemedicina/shared/audit-actions';
import { recordAuditEvent, type AuditAction } from '../audit/audit.service.js';

let context: TestContext;
let admin: SignedInClient;
let englishAdmin: SignedInClient;
let ana: TestUser;
let bruno: TestUser;

/**
 * Every seeded event has this record type, so filters can ignore the events tests cause. No server
 * code writes it (hence the cast past the shared list of record types).
 */
const seededType = 'test-record' as AuditTargetType;

async function seed(
  at: string,
  action: AuditAction,
  options: {
    actor?: TestUser | null;
    targetId?: string;
    outcome?: 'success' | 'failure' | 'denied';
    userAgent?: string;
    details?: Record<string, unknown>;
  } = {},
): Promise<void> {
  await recordAuditEvent(
    context.db,
    {
      now: () => new Date(at),
      actorUserId: options.actor === undefined || options.actor === null ? null : options.actor.id,
      request: { ip: '203.0.113.9', userAgent: options.userAgent ?? 'Vitest', requestId: 'req-seed' },
    },
    {
      action,
      targetType: seededType,
      targetId: options.targetId ?? 'r-1',
      outcome: options.outcome ?? 'success',
      details: options.details ?? {},
    },
  );
}

beforeAll(async () => {
  context = await createTestContext();
  // Dates in filters are the clinic's calendar days: Madrid is UTC+1 in winter, UTC+2 in summer.
  await writeSetting(context.db, settingKeys.clinicTimeZone, 'Europe/Madrid', { now: new Date() });
  invalidateClinicSettingsCache(context.db);
  admin = await signIn(context.app, await createUser(context.app, { roles: ['admin'], language: 'es' }));
  englishAdmin = await signIn(
    context.app,
    await createUser(context.app, { roles: ['admin'], language: 'en' }),
  );
  ana = await createUser(context.app, { name: 'Ana Auditada', email: 'ana.auditada@example.test' });
  bruno = await createUser(context.app, { name: 'Bruno 100%_Raro', email: 'bruno@example.test' });
  await seed('2026-03-09T22:59:59.000Z', 'auth.login', { actor: ana }); // 23:59:59 on the 9th in Madrid
  await seed('2026-03-09T23:00:00.000Z', 'auth.login_failed', { actor: ana, outcome: 'failure' }); // 00:00 on the 10th
  await seed('2026-03-10T12:00:00.000Z', 'user.unlocked', { actor: bruno, targetId: 'r-2' });
  await seed('2026-03-11T21:59:59.000Z', 'user.roles_changed', { actor: bruno, targetId: 'r-2' });
  await seed('2026-03-11T23:30:00.000Z', 'user.invited', { actor: null, outcome: 'denied' }); // the 12th
  await seed('2026-03-12T08:00:00.000Z', 'profile.updated', {
    actor: ana,
    targetId: '=HYPERLINK("http://evil.example","x")',
    userAgent: '+cmd|calc',
    details: { note: 'line one\nline "two", with comma', at: '@SUM(A1)' },
  });
});

afterAll(async () => {
  await context?.close();
});

function list(query: string, client: SignedInClient = admin): Promise<LightMyRequestResponse> {
  return send(context.app, 'GET', `/api/v1/audit-events?targetType=${seededType}&${query}`, {
    session: client.token,
  });
}

async function page(query: string): Promise<AuditEventPage> {
  const response = await list(query);
  expect(response.statusCode, response.body).toBe(200);
  return auditEventPageSchema.parse(response.json());
}

async function actionsOf(query: string): Promise<string[]> {
  return (await page(query)).data.map((event) => event.action);
}

describe('GET /audit-events', () => {
  it('lists events newest first with the actor joined from users, paged', async () => {
    const first = await page('pageSize=2');
    expect(first.total).toBe(6);
    expect(first.data.map((event) => event.action)).toEqual(['profile.updated', 'user.invited']);
    expect(first.data[0]).toMatchObject({
      at: '2026-03-12T08:00:00.000Z',
      actorUserId: ana.id,
      actor: { id: ana.id, name: 'Ana Auditada', email: 'ana.auditada@example.test' },
      actorIp: '203.0.113.9',
      requestId: 'req-seed',
      targetType: seededType,
      outcome: 'success',
    });
    expect(first.data[1]).toMatchObject({ actorUserId: null, actor: null, outcome: 'denied' });
    const third = await page('pageSize=2&page=3');
    expect(third.data.map((event) => event.action)).toEqual(['auth.login_failed', 'auth.login']);
    expect(await actionsOf('order=asc&pageSize=2')).toEqual(['auth.login', 'auth.login_failed']);
  });

  it('filters by actor id exactly, or by text in the actor name or email (wildcards literal)', async () => {
    expect((await page(`actor=${ana.id}`)).total).toBe(3);
    expect((await page(`actor=${ana.id.toUpperCase()}`)).total).toBe(3);
    expect((await page('actor=auditada')).total).toBe(3);
    expect((await page('actor=BRUNO%40EXAMPLE')).total).toBe(2);
    expect((await page(`actor=${encodeURIComponent('100%_')}`)).total).toBe(2);
    expect((await page(`actor=${encodeURIComponent('%')}`)).total).toBe(2);
    expect((await page('actor=nadie')).total).toBe(0);
  });

  it('filters by exact action, or by a prefix ending in "." or "*"', async () => {
    expect(await actionsOf('action=auth.login')).toEqual(['auth.login']);
    expect(await actionsOf('action=auth.*')).toEqual(['auth.login_failed', 'auth.login']);
    expect(await actionsOf('action=user.')).toEqual(['user.invited', 'user.roles_changed', 'user.unlocked']);
    expect(await actionsOf('action=auth.login_*')).toEqual(['auth.login_failed']);
    expect(await actionsOf('action=user')).toEqual([]);
  });

  it('filters by record, outcome and free text', async () => {
    expect(await actionsOf('targetId=r-2')).toEqual(['user.roles_changed', 'user.unlocked']);
    expect(await actionsOf('outcome=failure')).toEqual(['auth.login_failed']);
    expect(await actionsOf('q=INVITED')).toEqual(['user.invited']);
    expect(await actionsOf('q=bruno')).toEqual(['user.roles_changed', 'user.unlocked']);
  });

  it('reads from and to as inclusive calendar days in the clinic time zone', async () => {
    expect(await actionsOf('from=2026-03-10&to=2026-03-10')).toEqual(['user.unlocked', 'auth.login_failed']);
    expect(await actionsOf('to=2026-03-09')).toEqual(['auth.login']);
    expect(await actionsOf('from=2026-03-12')).toEqual(['profile.updated', 'user.invited']);
    expect(await actionsOf('from=2026-03-11&to=2026-03-11')).toEqual(['user.roles_changed']);
  });

  it('refuses from after to, or more than 366 days, with 400 validation.dateRange on from', async () => {
    for (const query of ['from=2026-03-11&to=2026-03-10', 'from=2025-01-01&to=2026-01-02']) {
      const response = await list(query);
      expect(response.statusCode).toBe(400);
      expect(errorResponseSchema.parse(response.json()).error).toMatchObject({
        code: 'VALIDATION_FAILED',
        details: { issues: [{ location: 'querystring', path: 'from', message: 'validation.dateRange' }] },
      });
    }
    expect((await list('from=2025-01-01&to=2026-01-01')).statusCode).toBe(200);
  });

  it.each([
    ['pageSize=500', 'pageSize'],
    ['page=0', 'page'],
    ['order=sideways', 'order'],
    ['outcome=maybe', 'outcome'],
    ['from=2026-02-30', 'from'],
    ['to=yesterday', 'to'],
  ])('refuses %s with 400 on %s', async (query, field) => {
    const response = await list(query);
    expect(response.statusCode).toBe(400);
    expect(errorResponseSchema.parse(response.json()).error).toMatchObject({
      code: 'VALIDATION_FAILED',
      details: { issues: [{ location: 'querystring', path: field }] },
    });
  });

  it('audits every view with its filters', async () => {
    const before = (await auditEventsOf(context.app, 'audit.viewed')).length;
    await page('action=user.*&from=2026-03-01&pageSize=5');
    await page('page=2&pageSize=1');
    const viewed = await auditEventsOf(context.app, 'audit.viewed');
    expect(viewed).toHaveLength(before + 2);
    expect(viewed.at(-2)).toMatchObject({
      actorUserId: admin.me.user.id,
      targetType: 'audit_log',
      details: {
        filters: { targetType: seededType, action: 'user.*', from: '2026-03-01', order: 'desc' },
        page: 1,
        pageSize: 5,
      },
    });
    expect(viewed.at(-1)?.details).toMatchObject({ page: 2, pageSize: 1 });
  });

  it('answers 401 without a session and 403 to roles without audit.read', async () => {
    expect((await send(context.app, 'GET', '/api/v1/audit-events')).statusCode).toBe(401);
    for (const role of ['doctor', 'staff', 'patient']) {
      const client = await signIn(context.app, await createUser(context.app, { roles: [role] }));
      for (const url of [
        '/api/v1/audit-events',
        '/api/v1/audit-events/export.csv',
        '/api/v1/audit-events/facets',
      ]) {
        expect((await send(context.app, 'GET', url, { session: client.token })).statusCode).toBe(403);
      }
    }
  });
});

describe('GET /audit-events/facets', () => {
  it('lists the distinct actions and record types, sorted', async () => {
    const response = await send(context.app, 'GET', '/api/v1/audit-events/facets', { session: admin.token });
    expect(response.statusCode).toBe(200);
    const facets = auditFacetsResponseSchema.parse(response.json());
    expect(facets.actions).toEqual(
      expect.arrayContaining(['auth.login', 'auth.login_failed', 'user.invited']),
    );
    expect(facets.actions).toEqual([...new Set(facets.actions)].sort());
    expect(facets.targetTypes).toEqual(expect.arrayContaining([seededType]));
    expect(facets.targetTypes).toEqual([...new Set(facets.targetTypes)].sort());
  });
});

/** A small RFC 4180 reader (quoted cells with commas, quotes and line breaks). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let index = 0; index < text.length; index += 1) {
    const char = text[index]!;
    if (quoted) {
      if (char === '"' && text[index + 1] === '"') {
        cell += '"';
        index += 1;
      } else if (char === '"') {
        quoted = false;
      } else {
        cell += char;
      }
    } else if (char === '"') {
      quoted = true;
    } else if (char === ',') {
      row.push(cell);
      cell = '';
    } else if (char === '\r' && text[index + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      index += 1;
    } else {
      cell += char;
    }
  }
  return rows;
}

describe('GET /audit-events/export.csv', () => {
  it('writes the filtered log as CSV with a BOM, a Spanish or English header, safe cells, audited', async () => {
    const before = (await auditEventsOf(context.app, 'audit.exported')).length;
    const response = await send(
      context.app,
      'GET',
      `/api/v1/audit-events/export.csv?targetType=${seededType}&page=7&pageSize=1`,
      { session: admin.token },
    );
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toMatch(
      /^attachment; filename="audit-log-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    expect(response.body.startsWith('\uFEFF')).toBe(true);
    const rows = parseCsv(response.body.slice(1));
    expect(rows[0]).toEqual([
      'Fecha (UTC)',
      'Acción',
      'Resultado',
      'Usuario',
      'Correo del usuario',
      'Id del usuario',
      'Tipo de registro',
      'Id del registro',
      'Dirección IP',
      'Navegador',
      'Id de la solicitud',
      'Detalles',
    ]);
    // Paging is ignored: every matching event, newest first.
    expect(rows).toHaveLength(7);
    const [, profile] = rows;
    expect(JSON.parse(profile!.at(-1)!)).toEqual({
      note: 'line one\nline "two", with comma',
      at: '@SUM(A1)',
    });
    expect(profile!.slice(0, -1)).toEqual([
      '2026-03-12T08:00:00.000Z',
      'profile.updated',
      'success',
      'Ana Auditada',
      'ana.auditada@example.test',
      ana.id,
      seededType,
      `'=HYPERLINK("http://evil.example","x")`,
      '203.0.113.9',
      `'+cmd|calc`,
      'req-seed',
    ]);
    expect(rows[2]?.slice(3, 6)).toEqual(['', '', '']);

    const exported = await auditEventsOf(context.app, 'audit.exported');
    expect(exported).toHaveLength(before + 1);
    expect(exported.at(-1)).toMatchObject({
      actorUserId: admin.me.user.id,
      details: { filters: { targetType: seededType }, format: 'csv', maxRows: 100_000 },
    });

    const english = await send(
      context.app,
      'GET',
      `/api/v1/audit-events/export.csv?targetType=${seededType}&action=auth.*&order=asc`,
      { session: englishAdmin.token },
    );
    const englishRows = parseCsv(english.body.slice(1));
    expect(englishRows[0]?.slice(0, 3)).toEqual(['Date (UTC)', 'Action', 'Outcome']);
    expect(englishRows.slice(1).map((row) => row[1])).toEqual(['auth.login', 'auth.login_failed']);
  });

  it('applies the same validation as the list', async () => {
    const response = await send(
      context.app,
      'GET',
      '/api/v1/audit-events/export.csv?from=2026-03-02&to=2026-03-01',
      {
        session: admin.token,
      },
    );
    expect(response.statusCode).toBe(400);
  });

  it('stops at the row cap in batches and says so in a trailing comment line', async () => {
    const request = { headers: {}, ip: '127.0.0.1', id: 'req-export', actor: actorOf(admin) } as never;
    const ctx = contextFor(context.app.services, request);
    const read = async (maxRows: number): Promise<string> => {
      const { lines } = await exportAuditLog(
        ctx,
        { targetType: seededType, order: 'desc' },
        { maxRows, batchSize: 2 },
      );
      let text = '';
      for await (const line of lines) {
        text += line;
      }
      return text;
    };
    const capped = parseCsv((await read(5)).slice(1));
    expect(capped).toHaveLength(1 + 5 + 1);
    expect(capped.at(-1)?.[0]).toMatch(/^# Exportación limitada a 5 filas/);
    const exact = parseCsv((await read(6)).slice(1));
    expect(exact).toHaveLength(1 + 6);
    expect(exact.at(-1)?.[1]).toBe('auth.login');
  });
});

function actorOf(client: SignedInClient) {
  return {
    userId: client.me.user.id,
    sessionId: 'test',
    permissions: new Set(client.me.permissions),
    roleKeys: client.me.roles.map((role) => role.key),
    mfaEnrollmentRequired: false,
    session: { createdAt: new Date(), idleTimeoutSeconds: 900, expiresAt: new Date() },
  } as never;
}

describe('csvCell', () => {
  it.each([
    ['=1+1', "'=1+1"],
    ['+1', "'+1"],
    ['-1', "'-1"],
    ['@A1', "'@A1"],
    ['\tx', "'\tx"],
    ['\rx', `"'\rx"`],
    ['a,b', '"a,b"'],
    ['say "hi"', '"say ""hi"""'],
    ['plain', 'plain'],
    [null, ''],
  ])('writes %j as %j', (value, expected) => {
    expect(csvCell(value)).toBe(expected);
  });
});
