import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { errorResponseSchema } from '@telemedicina/shared/api';
import { activeSessionsResponseSchema, meResponseSchema } from '@telemedicina/shared/auth';
import { eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { files, users } from '../../db/schema.js';
import {
  auditEventsOf,
  createUser,
  latestEmail,
  nextRemoteAddress,
  requestHeaders,
  send,
  sessionTokenFrom,
  signIn,
} from '../../test/factories.js';
import { createTestContext, type TestContext } from '../../test/test-context.js';
import { jpegHeader, pngHeader, webpVp8xHeader } from '../../test/images.js';

let context: TestContext;

beforeAll(async () => {
  context = await createTestContext();
});

afterAll(async () => {
  await context?.close();
});

function codeOf(response: { json: () => unknown }): string {
  return errorResponseSchema.parse(response.json()).error.code;
}

describe('GET /me and PATCH /me', () => {
  it('answers the user, roles, permissions and session, uncached', async () => {
    const user = await createUser(context.app, { roles: ['doctor'] });
    const client = await signIn(context.app, user);
    const response = await send(context.app, 'GET', '/api/v1/me', { session: client.token });
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    const me = meResponseSchema.parse(response.json());
    expect(me.user.id).toBe(user.id);
    expect(me.roles.map((role) => role.key)).toEqual(['doctor']);
    expect(me.permissions).toEqual(expect.arrayContaining(['records.write', 'visits.host']));
    expect(me.permissions).toEqual([...me.permissions].sort());
    expect(me.session.idleTimeoutSeconds).toBe(900);
  });

  it('changes name, phone, language and time zone and records which fields changed', async () => {
    const user = await createUser(context.app, { language: 'es' });
    const client = await signIn(context.app, user);
    const response = await send(context.app, 'PATCH', '/api/v1/me', {
      session: client.token,
      body: { name: 'Nombre Nuevo', phone: '+34 600 000 000', language: 'en', timeZone: 'Europe/Madrid' },
    });
    expect(response.statusCode).toBe(200);
    expect(meResponseSchema.parse(response.json()).user).toMatchObject({
      name: 'Nombre Nuevo',
      phone: '+34 600 000 000',
      language: 'en',
      timeZone: 'Europe/Madrid',
    });
    const event = (await auditEventsOf(context.app, 'profile.updated')).at(-1);
    expect(event).toMatchObject({ actorUserId: user.id, targetId: user.id });
    expect((event?.details as { fields: string[] }).fields.sort()).toEqual([
      'language',
      'name',
      'phone',
      'timeZone',
    ]);

    const cleared = await send(context.app, 'PATCH', '/api/v1/me', {
      session: client.token,
      body: { phone: null },
    });
    expect(meResponseSchema.parse(cleared.json()).user.phone).toBeNull();
  });

  it('refuses an unknown time zone or language with 400 and the field', async () => {
    const client = await signIn(context.app, await createUser(context.app));
    const response = await send(context.app, 'PATCH', '/api/v1/me', {
      session: client.token,
      body: { timeZone: 'Mars/Olympus' },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      error: { code: 'VALIDATION_FAILED', details: { issues: [{ path: 'timeZone' }] } },
    });
  });
});

describe('POST /me/password', () => {
  it('changes the password, ends every other session and replaces this one', async () => {
    const user = await createUser(context.app, { language: 'es' });
    const current = await signIn(context.app, user);
    const other = await signIn(context.app, user);
    const newPassword = 'Nueva-Clave-Larga-42';
    const response = await send(context.app, 'POST', '/api/v1/me/password', {
      session: current.token,
      body: { currentPassword: user.password, newPassword },
    });
    expect(response.statusCode).toBe(204);
    const replacement = sessionTokenFrom(response);
    expect(replacement).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(replacement).not.toBe(current.token);
    expect(codeOf(await send(context.app, 'GET', '/api/v1/me', { session: current.token }))).toBe(
      'SESSION_EXPIRED',
    );
    expect(codeOf(await send(context.app, 'GET', '/api/v1/me', { session: other.token }))).toBe(
      'SESSION_EXPIRED',
    );
    expect((await send(context.app, 'GET', '/api/v1/me', { session: replacement })).statusCode).toBe(200);
    expect((await signIn(context.app, { ...user, password: newPassword })).me.user.id).toBe(user.id);
    expect((await auditEventsOf(context.app, 'auth.password_changed')).at(-1)?.targetId).toBe(user.id);
    expect((await latestEmail(context.app, user.email, 'password-changed'))?.subject).toMatch(
      /^Su contraseña/,
    );
  });

  it('answers 400 PASSWORD_INCORRECT for a wrong current password and 422 for a weak new one', async () => {
    const user = await createUser(context.app);
    const client = await signIn(context.app, user);
    const wrong = await send(context.app, 'POST', '/api/v1/me/password', {
      session: client.token,
      body: { currentPassword: 'Not-The-Password-1', newPassword: 'Nueva-Clave-Larga-42' },
    });
    expect(wrong.statusCode).toBe(400);
    expect(codeOf(wrong)).toBe('PASSWORD_INCORRECT');
    const weak = await send(context.app, 'POST', '/api/v1/me/password', {
      session: client.token,
      body: { currentPassword: user.password, newPassword: 'password123' },
    });
    expect(weak.statusCode).toBe(422);
    expect(errorResponseSchema.parse(weak.json()).error.details).toMatchObject({
      problems: expect.arrayContaining(['tooCommon']),
    });
    expect((await send(context.app, 'GET', '/api/v1/me', { session: client.token })).statusCode).toBe(200);
  });
});

describe('sessions', () => {
  it('lists live sessions with the current one marked, and ends one of them', async () => {
    const user = await createUser(context.app);
    const phone = await signIn(context.app, user, { userAgent: 'Phone Browser' });
    const laptop = await signIn(context.app, user, { userAgent: 'Laptop Browser' });
    const list = await send(context.app, 'GET', '/api/v1/me/sessions', { session: laptop.token });
    expect(list.statusCode).toBe(200);
    const { data } = activeSessionsResponseSchema.parse(list.json());
    expect(data).toHaveLength(2);
    expect(data.find((session) => session.isCurrent)?.userAgent).toBe('Laptop Browser');
    const phoneSession = data.find((session) => !session.isCurrent);
    expect(phoneSession).toMatchObject({
      userAgent: 'Phone Browser',
      ipAddress: expect.stringMatching(/^10\./),
    });

    const revoked = await send(context.app, 'DELETE', `/api/v1/me/sessions/${phoneSession!.id}`, {
      session: laptop.token,
    });
    expect(revoked.statusCode).toBe(204);
    expect(codeOf(await send(context.app, 'GET', '/api/v1/me', { session: phone.token }))).toBe(
      'SESSION_EXPIRED',
    );
    expect((await send(context.app, 'GET', '/api/v1/me', { session: laptop.token })).statusCode).toBe(200);
    expect((await auditEventsOf(context.app, 'auth.session_revoked')).at(-1)?.actorUserId).toBe(user.id);
    const again = await send(context.app, 'DELETE', `/api/v1/me/sessions/${phoneSession!.id}`, {
      session: laptop.token,
    });
    expect(again.statusCode).toBe(404);
  });

  it("answers 404 for another user's session and leaves it alone", async () => {
    const owner = await createUser(context.app);
    const intruder = await createUser(context.app);
    const ownerClient = await signIn(context.app, owner);
    const intruderClient = await signIn(context.app, intruder);
    const ownerSessions = activeSessionsResponseSchema.parse(
      (await send(context.app, 'GET', '/api/v1/me/sessions', { session: ownerClient.token })).json(),
    ).data;
    const response = await send(context.app, 'DELETE', `/api/v1/me/sessions/${ownerSessions[0]!.id}`, {
      session: intruderClient.token,
    });
    expect(response.statusCode).toBe(404);
    expect(codeOf(response)).toBe('NOT_FOUND');
    expect((await send(context.app, 'GET', '/api/v1/me', { session: ownerClient.token })).statusCode).toBe(
      200,
    );
    const malformed = await send(context.app, 'DELETE', '/api/v1/me/sessions/not-a-session', {
      session: intruderClient.token,
    });
    expect(malformed.statusCode).toBe(404);
  });

  it('ends the current session (clearing the cookie) when it revokes itself', async () => {
    const client = await signIn(context.app, await createUser(context.app));
    const [current] = activeSessionsResponseSchema.parse(
      (await send(context.app, 'GET', '/api/v1/me/sessions', { session: client.token })).json(),
    ).data;
    const response = await send(context.app, 'DELETE', `/api/v1/me/sessions/${current!.id}`, {
      session: client.token,
    });
    expect(response.statusCode).toBe(204);
    expect(sessionTokenFrom(response)).toBe('');
  });

  it('signs out every other session', async () => {
    const user = await createUser(context.app);
    const keep = await signIn(context.app, user);
    const others = await Promise.all([signIn(context.app, user), signIn(context.app, user)]);
    const response = await send(context.app, 'POST', '/api/v1/me/sessions/revoke-others', {
      session: keep.token,
    });
    expect(response.statusCode).toBe(204);
    for (const other of others) {
      expect(codeOf(await send(context.app, 'GET', '/api/v1/me', { session: other.token }))).toBe(
        'SESSION_EXPIRED',
      );
    }
    const remaining = activeSessionsResponseSchema.parse(
      (await send(context.app, 'GET', '/api/v1/me/sessions', { session: keep.token })).json(),
    ).data;
    expect(remaining.map((session) => session.isCurrent)).toEqual([true]);
    expect((await auditEventsOf(context.app, 'auth.session_revoked')).at(-1)?.details).toMatchObject({
      count: 2,
      others: true,
    });
  });
});

/** A multipart body with one file part. */
function multipart(
  field: string,
  filename: string,
  contentType: string,
  bytes: Buffer,
): { payload: Buffer; boundary: string } {
  const boundary = `----telemedicina${Math.random().toString(16).slice(2)}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\nContent-Type: ${contentType}\r\n\r\n`,
  );
  return { payload: Buffer.concat([head, bytes, Buffer.from(`\r\n--${boundary}--\r\n`)]), boundary };
}

async function uploadPhoto(
  token: string,
  bytes: Buffer,
  options: { filename?: string; contentType?: string; field?: string } = {},
): Promise<LightMyRequestResponse> {
  const body = multipart(
    options.field ?? 'file',
    options.filename ?? 'photo.png',
    options.contentType ?? 'image/png',
    bytes,
  );
  return context.app.inject({
    method: 'PUT',
    url: '/api/v1/me/photo',
    headers: { ...requestHeaders(token), 'content-type': `multipart/form-data; boundary=${body.boundary}` },
    remoteAddress: nextRemoteAddress(),
    payload: body.payload,
  });
}

async function storedFiles(): Promise<string[]> {
  const folder = path.join(context.config.uploadsDir, 'photos');
  return existsSync(folder) ? readdir(folder) : [];
}

describe('profile photo', () => {
  it('stores a PNG under a generated name, serves it to its owner and replaces it', async () => {
    const user = await createUser(context.app, { roles: ['patient'] });
    const client = await signIn(context.app, user);
    const png = pngHeader(320, 240);
    const response = await uploadPhoto(client.token, png, { filename: '../../etc/passwd.png' });
    expect(response.statusCode).toBe(200);
    const me = meResponseSchema.parse(response.json());
    expect(me.user.photoUrl).toMatch(new RegExp(`^/api/v1/users/${user.id}/photo\\?v=[0-9a-f-]{36}$`));

    const [row] = await context.db.select().from(users).where(eq(users.id, user.id));
    const [file] = await context.db.select().from(files).where(eq(files.id, row!.photoFileId!));
    expect(file).toMatchObject({
      contentType: 'image/png',
      width: 320,
      height: 240,
      size: png.length,
      ownerUserId: user.id,
    });
    expect(file?.storagePath).toMatch(/^photos\/[0-9a-f-]{36}\.png$/);
    expect(file?.storagePath).not.toContain('passwd');
    expect(existsSync(path.join(context.config.uploadsDir, file!.storagePath))).toBe(true);

    const served = await send(context.app, 'GET', me.user.photoUrl!, { session: client.token });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.headers['x-content-type-options']).toBe('nosniff');
    expect(served.rawPayload.equals(png)).toBe(true);

    const replaced = await uploadPhoto(client.token, jpegHeader(800, 600), {
      filename: 'new.jpg',
      contentType: 'image/jpeg',
    });
    expect(replaced.statusCode).toBe(200);
    expect(existsSync(path.join(context.config.uploadsDir, file!.storagePath))).toBe(false);
    expect(await context.db.select().from(files).where(eq(files.id, file!.id))).toEqual([]);
    expect((await auditEventsOf(context.app, 'profile.updated')).at(-1)?.details).toMatchObject({
      fields: ['photo'],
    });

    const removed = await send(context.app, 'DELETE', '/api/v1/me/photo', { session: client.token });
    expect(removed.statusCode).toBe(200);
    expect(meResponseSchema.parse(removed.json()).user.photoUrl).toBeNull();
  });

  it('accepts WebP', async () => {
    const client = await signIn(context.app, await createUser(context.app));
    const response = await uploadPhoto(client.token, webpVp8xHeader(1024, 768), {
      filename: 'a.webp',
      contentType: 'image/webp',
    });
    expect(response.statusCode).toBe(200);
  });

  it('refuses text named .png and declared image/png with 415, by content', async () => {
    const client = await signIn(context.app, await createUser(context.app));
    const before = await storedFiles();
    const response = await uploadPhoto(
      client.token,
      Buffer.from('<svg onload="alert(1)">not an image</svg>'),
      {
        filename: 'innocent.png',
        contentType: 'image/png',
      },
    );
    expect(response.statusCode).toBe(415);
    expect(codeOf(response)).toBe('UNSUPPORTED_MEDIA_TYPE');
    expect(await storedFiles()).toEqual(before);
  });

  it('refuses a GIF (a real image of a type not accepted) with 415', async () => {
    const client = await signIn(context.app, await createUser(context.app));
    const gif = Buffer.from('474946383961010001000000002c00000000010001000002024401003b', 'hex');
    const response = await uploadPhoto(client.token, gif, {
      filename: 'photo.png',
      contentType: 'image/png',
    });
    expect(response.statusCode).toBe(415);
  });

  it('refuses more than 5 MB with 413', async () => {
    const client = await signIn(context.app, await createUser(context.app));
    const big = Buffer.concat([pngHeader(100, 100), Buffer.alloc(5 * 1024 * 1024)]);
    const response = await uploadPhoto(client.token, big);
    expect(response.statusCode).toBe(413);
    expect(codeOf(response)).toBe('PAYLOAD_TOO_LARGE');
  });

  it('refuses a header declaring a huge canvas (image bomb) with 422 before decoding anything', async () => {
    const client = await signIn(context.app, await createUser(context.app));
    for (const bomb of [pngHeader(50_000, 50_000), jpegHeader(4097, 100), webpVp8xHeader(100, 16_000)]) {
      const response = await uploadPhoto(client.token, bomb);
      expect(response.statusCode).toBe(422);
      expect(errorResponseSchema.parse(response.json()).error).toMatchObject({
        code: 'UNPROCESSABLE',
        details: { maxWidth: 4096, maxHeight: 4096 },
      });
    }
  });

  it('refuses a request that is not multipart with 415, and a missing file field with 400', async () => {
    const client = await signIn(context.app, await createUser(context.app));
    const json = await send(context.app, 'PUT', '/api/v1/me/photo', {
      session: client.token,
      body: { file: 'x' },
    });
    expect(json.statusCode).toBe(415);
    const wrongField = await uploadPhoto(client.token, pngHeader(10, 10), { field: 'avatar' });
    expect(wrongField.statusCode).toBe(400);
  });

  it("shows a patient's photo to the patient and to staff, not to another patient (404)", async () => {
    const patient = await createUser(context.app, { roles: ['patient'] });
    const patientClient = await signIn(context.app, patient);
    await uploadPhoto(patientClient.token, pngHeader(64, 64));
    const url = `/api/v1/users/${patient.id}/photo`;
    const staff = await signIn(context.app, await createUser(context.app, { roles: ['staff'] }));
    const stranger = await signIn(context.app, await createUser(context.app, { roles: ['patient'] }));
    expect((await send(context.app, 'GET', url, { session: staff.token })).statusCode).toBe(200);
    const hidden = await send(context.app, 'GET', url, { session: stranger.token });
    expect(hidden.statusCode).toBe(404);
    expect(codeOf(hidden)).toBe('NOT_FOUND');
    expect((await send(context.app, 'GET', url)).statusCode).toBe(401);
  });

  it("shows a doctor's photo to any signed-in user", async () => {
    const doctor = await createUser(context.app, { roles: ['doctor'] });
    await uploadPhoto((await signIn(context.app, doctor)).token, pngHeader(64, 64));
    const patient = await signIn(context.app, await createUser(context.app, { roles: ['patient'] }));
    expect(
      (await send(context.app, 'GET', `/api/v1/users/${doctor.id}/photo`, { session: patient.token }))
        .statusCode,
    ).toBe(200);
    expect(
      (await send(context.app, 'GET', '/api/v1/users/not-a-uuid/photo', { session: patient.token }))
        .statusCode,
    ).toBe(404);
  });
});
