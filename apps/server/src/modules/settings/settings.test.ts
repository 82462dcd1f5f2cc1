import { existsSync } from 'node:fs';
import path from 'node:path';
import type { UpdateClinicSettingsRequest } from '@telemedicina/shared/admin';
import { clientConfigResponseSchema, errorResponseSchema } from '@telemedicina/shared/api';
import { clinicSettingsSchema, type ClinicSettings } from '@telemedicina/shared/clinic-settings';
import { eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { files } from '../../db/schema.js';
import {
  auditEventsOf,
  createUser,
  nextRemoteAddress,
  requestHeaders,
  send,
  signIn,
  type SignedInClient,
} from '../../test/factories.js';
import { jpegHeader, pngHeader, webpVp8xHeader } from '../../test/images.js';
import { createTestContext, type TestContext } from '../../test/test-context.js';
import { writeSetting } from './settings.repository.js';
import { invalidateClinicSettingsCache } from './clinic-settings-cache.js';
import { loadIdentitySettings, loadUploadLimits, settingKeys } from './settings.service.js';

let context: TestContext;
let admin: SignedInClient;

beforeAll(async () => {
  context = await createTestContext();
  admin = await signIn(context.app, await createUser(context.app, { roles: ['admin'] }));
});

afterAll(async () => {
  await context?.close();
});

const defaults: ClinicSettings = {
  clinic: { name: 'Telemedicina', logoUrl: null, timeZone: 'UTC', language: 'es' },
  sessions: { idleMinutesStaff: 15, idleMinutesPatient: 30 },
  // The test context stores an empty list (like the demo); never set, it is ['admin', 'doctor'].
  security: { mfaRequiredRoles: [] },
  booking: {
    minimumNoticeMinutes: 120,
    cancellationWindowHours: 24,
    visitLengths: [15, 20, 30, 45, 60],
    defaultVisitMinutes: 30,
  },
  uploads: { maxFileSizeMb: 10, allowedKinds: ['pdf', 'png', 'jpeg', 'webp'], maxFilesPerUpload: 5 },
  video: { iceServers: [] },
  privacy: { canStaffReadVisitReasons: false },
};

function patch(body: unknown, session: string = admin.token): Promise<LightMyRequestResponse> {
  return send(context.app, 'PATCH', '/api/v1/settings', { session, body });
}

async function currentSettings(): Promise<ClinicSettings> {
  const response = await send(context.app, 'GET', '/api/v1/settings', { session: admin.token });
  expect(response.statusCode).toBe(200);
  return clinicSettingsSchema.parse(response.json());
}

function issuesOf(response: LightMyRequestResponse): { path: string; message: string }[] {
  const details = errorResponseSchema.parse(response.json()).error.details as {
    issues: { path: string; message: string }[];
  };
  return details.issues.map(({ path: issuePath, message }) => ({ path: issuePath, message }));
}

/** Puts the sections back as they were, so tests do not depend on each other's order. */
async function restore(sections: UpdateClinicSettingsRequest): Promise<void> {
  expect((await patch(sections)).statusCode).toBe(200);
}

describe('GET /settings', () => {
  it('answers every setting with its default when nothing was saved', async () => {
    expect(await currentSettings()).toEqual(defaults);
  });

  it('takes the ICE servers from ICE_SERVERS until one is saved', async () => {
    const iceServers = [{ urls: ['stun:stun.example.org:3478'] }];
    const withIce = await createTestContext({ config: { iceServers } });
    try {
      const client = await signIn(withIce.app, await createUser(withIce.app, { roles: ['admin'] }));
      const response = await send(withIce.app, 'GET', '/api/v1/settings', { session: client.token });
      expect(clinicSettingsSchema.parse(response.json()).video.iceServers).toEqual(iceServers);
    } finally {
      await withIce.close();
    }
  });

  it('answers 401 without a session and 403 without settings.manage', async () => {
    expect((await send(context.app, 'GET', '/api/v1/settings')).statusCode).toBe(401);
    for (const role of ['doctor', 'staff', 'patient']) {
      const client = await signIn(context.app, await createUser(context.app, { roles: [role] }));
      expect((await send(context.app, 'GET', '/api/v1/settings', { session: client.token })).statusCode).toBe(
        403,
      );
      expect(
        (await patch({ clinic: { ...defaults.clinic, logoUrl: undefined } }, client.token)).statusCode,
      ).toBe(403);
    }
  });
});

describe('PATCH /settings', () => {
  it('saves the sections sent, answers every setting and audits each changed key before and after', async () => {
    const before = (await auditEventsOf(context.app, 'settings.updated')).length;
    const response = await patch({
      clinic: { name: 'Clínica Central', timeZone: 'Europe/Madrid', language: 'en' },
      booking: {
        ...defaults.booking,
        minimumNoticeMinutes: 60,
        visitLengths: [20, 40],
        defaultVisitMinutes: 40,
      },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    const saved = clinicSettingsSchema.parse(response.json());
    expect(saved).toEqual({
      ...defaults,
      clinic: { name: 'Clínica Central', logoUrl: null, timeZone: 'Europe/Madrid', language: 'en' },
      booking: {
        ...defaults.booking,
        minimumNoticeMinutes: 60,
        visitLengths: [20, 40],
        defaultVisitMinutes: 40,
      },
    });
    expect(await currentSettings()).toEqual(saved);

    const events = await auditEventsOf(context.app, 'settings.updated');
    expect(events).toHaveLength(before + 1);
    expect(events.at(-1)).toMatchObject({
      actorUserId: admin.me.user.id,
      targetType: 'settings',
      outcome: 'success',
      details: {
        changes: {
          'clinic.name': { before: 'Telemedicina', after: 'Clínica Central' },
          'clinic.timeZone': { before: 'UTC', after: 'Europe/Madrid' },
          'clinic.language': { before: 'es', after: 'en' },
          'booking.minimumNoticeMinutes': { before: 120, after: 60 },
          'booking.visitLengths': { before: [15, 20, 30, 45, 60], after: [20, 40] },
          'booking.defaultVisitMinutes': { before: 30, after: 40 },
        },
      },
    });
    // Unchanged keys of a sent section are not listed.
    expect(Object.keys(events.at(-1)!.details.changes as object)).not.toContain(
      'booking.cancellationWindowHours',
    );

    await restore({
      clinic: { name: 'Telemedicina', timeZone: 'UTC', language: 'es' },
      booking: defaults.booking,
    });
  });

  it('writes nothing and audits nothing when no value changes', async () => {
    const before = (await auditEventsOf(context.app, 'settings.updated')).length;
    const response = await patch({ sessions: defaults.sessions, uploads: defaults.uploads });
    expect(response.statusCode).toBe(200);
    expect((await auditEventsOf(context.app, 'settings.updated')).length).toBe(before);
  });

  it('masks ICE credentials in the audit trail, not in the settings', async () => {
    const iceServers = [
      { urls: ['stun:stun.example.org:3478'] },
      { urls: ['turn:turn.example.org:3478'], username: 'clinic', credential: 's3cret-turn' },
    ];
    const response = await patch({ video: { iceServers } });
    expect(clinicSettingsSchema.parse(response.json()).video.iceServers).toEqual(iceServers);
    const event = (await auditEventsOf(context.app, 'settings.updated')).at(-1)!;
    expect(JSON.stringify(event.details)).not.toContain('s3cret-turn');
    expect(event.details).toEqual({
      changes: {
        'video.iceServers': {
          before: [],
          after: [iceServers[0], { ...iceServers[1], credential: '***' }],
        },
      },
    });
    await restore({ video: { iceServers: [] } });
  });

  it.each([
    [
      'a default length that is not offered',
      { booking: { ...defaults.booking, defaultVisitMinutes: 25 } },
      [{ path: 'booking.defaultVisitMinutes', message: 'validation.defaultVisitLength' }],
    ],
    [
      'lengths out of order',
      { booking: { ...defaults.booking, visitLengths: [30, 15, 45] } },
      [{ path: 'booking.visitLengths', message: 'validation.visitLengthsAscending' }],
    ],
    [
      'repeated lengths',
      { booking: { ...defaults.booking, visitLengths: [15, 30, 30] } },
      [{ path: 'booking.visitLengths', message: 'validation.visitLengthsAscending' }],
    ],
    [
      'a role that does not exist',
      { security: { mfaRequiredRoles: ['admin', 'wizard'] } },
      [{ path: 'security.mfaRequiredRoles', message: 'validation.unknownRole' }],
    ],
    [
      'an unknown time zone',
      { clinic: { name: 'Clínica', timeZone: 'Mars/Olympus', language: 'es' } },
      [{ path: 'clinic.timeZone', message: 'validation.timeZone' }],
    ],
    [
      'a visit length of 0',
      { booking: { ...defaults.booking, visitLengths: [0, 30] } },
      [{ path: 'booking.visitLengths.0', message: 'validation.range' }],
    ],
    [
      'an ICE URL that is not stun/turn',
      { video: { iceServers: [{ urls: ['https://turn.example.org'] }] } },
      [{ path: 'video.iceServers.0.urls.0', message: 'validation.iceUrl' }],
    ],
  ])('refuses %s with 400 on the field, changing nothing', async (_name, body, expected) => {
    const before = await currentSettings();
    const audited = (await auditEventsOf(context.app, 'settings.updated')).length;
    const response = await patch({
      clinic: { name: 'No debe guardarse', timeZone: 'UTC', language: 'es' },
      ...body,
    });
    expect(response.statusCode).toBe(400);
    expect(errorResponseSchema.parse(response.json()).error.code).toBe('VALIDATION_FAILED');
    expect(issuesOf(response)).toEqual(expect.arrayContaining(expected));
    expect(await currentSettings()).toEqual(before);
    expect((await auditEventsOf(context.app, 'settings.updated')).length).toBe(audited);
  });

  it('refuses an incomplete section, an unknown section and the logo URL with 400', async () => {
    for (const body of [
      { booking: { minimumNoticeMinutes: 10 } },
      { colours: { primary: 'red' } },
      { clinic: { ...defaults.clinic } },
    ]) {
      const response = await patch(body);
      expect(response.statusCode).toBe(400);
      expect(errorResponseSchema.parse(response.json()).error.code).toBe('VALIDATION_FAILED');
    }
  });

  it('applies a new idle time and second-factor rule to the next sessions (the identity loader reads the same keys)', async () => {
    const patient = await createUser(context.app, { roles: ['patient'] });
    const response = await patch({
      sessions: { idleMinutesStaff: 20, idleMinutesPatient: 45 },
      security: { mfaRequiredRoles: ['patient', 'patient'] },
    });
    expect(clinicSettingsSchema.parse(response.json()).security.mfaRequiredRoles).toEqual(['patient']);
    const identity = await loadIdentitySettings(context.db, context.config);
    expect(identity).toMatchObject({
      idleMinutesStaff: 20,
      idleMinutesPatient: 45,
      mfaRequiredRoles: ['patient'],
    });
    const session = (await signIn(context.app, patient)).me.session;
    expect(session).toMatchObject({ idleTimeoutSeconds: 45 * 60, mfaEnrollmentRequired: true });
    await restore({ sessions: defaults.sessions, security: defaults.security });
    expect((await signIn(context.app, patient)).me.session).toMatchObject({
      idleTimeoutSeconds: 30 * 60,
      mfaEnrollmentRequired: false,
    });
  });
});

describe('GET /config clinic settings', () => {
  async function publicClinic() {
    const response = await context.app.inject({ method: 'GET', url: '/api/v1/config' });
    expect(response.statusCode).toBe(200);
    return clientConfigResponseSchema.parse(response.json()).clinic;
  }

  it('shows the public part only, and a saved change at once', async () => {
    expect(await publicClinic()).toEqual({
      name: 'Telemedicina',
      logoUrl: null,
      timeZone: 'UTC',
      language: 'es',
      uploads: defaults.uploads,
      visitLengths: defaults.booking.visitLengths,
    });
    await patch({ uploads: { maxFileSizeMb: 4, allowedKinds: ['pdf', 'pdf', 'txt'], maxFilesPerUpload: 2 } });
    expect((await publicClinic()).uploads).toEqual({
      maxFileSizeMb: 4,
      allowedKinds: ['pdf', 'txt'],
      maxFilesPerUpload: 2,
    });
    await restore({ uploads: defaults.uploads });
    expect((await publicClinic()).uploads).toEqual(defaults.uploads);
  });

  it('serves from a short cache: a row written behind the app shows after invalidation', async () => {
    await publicClinic();
    await writeSetting(context.db, settingKeys.clinicName, 'Escrita Directamente', { now: new Date() });
    expect((await publicClinic()).name).toBe('Telemedicina');
    invalidateClinicSettingsCache(context.db);
    expect((await publicClinic()).name).toBe('Escrita Directamente');
    await restore({ clinic: { name: 'Telemedicina', timeZone: 'UTC', language: 'es' } });
    expect((await publicClinic()).name).toBe('Telemedicina');
  });
});

/** A multipart body with one file part. */
function multipart(field: string, bytes: Buffer): { payload: Buffer; contentType: string } {
  const boundary = `----telemedicina${Math.random().toString(16).slice(2)}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="logo.png"\r\nContent-Type: image/png\r\n\r\n`,
  );
  return {
    payload: Buffer.concat([head, bytes, Buffer.from(`\r\n--${boundary}--\r\n`)]),
    contentType: `multipart/form-data; boundary=${boundary}`,
  };
}

function upload(url: string, token: string, bytes: Buffer, field = 'file'): Promise<LightMyRequestResponse> {
  const body = multipart(field, bytes);
  return context.app.inject({
    method: 'PUT',
    url,
    headers: { ...requestHeaders(token), 'content-type': body.contentType },
    remoteAddress: nextRemoteAddress(),
    payload: body.payload,
  });
}

describe('clinic logo', () => {
  it('stores a logo, serves it publicly with nosniff and ETag, replaces and removes it, audited', async () => {
    const png = pngHeader(400, 120);
    const response = await upload('/api/v1/settings/logo', admin.token, png);
    expect(response.statusCode).toBe(200);
    const settings = clinicSettingsSchema.parse(response.json());
    const match = /^\/api\/v1\/clinic\/logo\?v=([0-9a-f-]{36})$/.exec(settings.clinic.logoUrl ?? '');
    expect(match).not.toBeNull();
    const fileId = match![1]!;
    const [file] = await context.db.select().from(files).where(eq(files.id, fileId));
    expect(file).toMatchObject({
      contentType: 'image/png',
      width: 400,
      height: 120,
      ownerUserId: admin.me.user.id,
    });
    expect(file!.storagePath).toMatch(/^logos\/[0-9a-f-]{36}\.png$/);

    // Public: no session, no cookie.
    const served = await context.app.inject({ method: 'GET', url: settings.clinic.logoUrl! });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.headers['x-content-type-options']).toBe('nosniff');
    expect(served.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(served.rawPayload.equals(png)).toBe(true);
    const etag = served.headers.etag as string;
    const revalidated = await context.app.inject({
      method: 'GET',
      url: '/api/v1/clinic/logo',
      headers: { 'if-none-match': etag },
    });
    expect(revalidated.statusCode).toBe(304);
    expect(revalidated.headers['cache-control']).toBe('public, no-cache');
    const [config] = [
      clientConfigResponseSchema.parse((await context.app.inject({ url: '/api/v1/config' })).json()),
    ];
    expect(config.clinic.logoUrl).toBe(settings.clinic.logoUrl);

    const replaced = await upload('/api/v1/settings/logo', admin.token, webpVp8xHeader(256, 256));
    expect(replaced.statusCode).toBe(200);
    const newUrl = clinicSettingsSchema.parse(replaced.json()).clinic.logoUrl;
    expect(newUrl).not.toBe(settings.clinic.logoUrl);
    expect(existsSync(path.join(context.config.uploadsDir, file!.storagePath))).toBe(false);
    expect(await context.db.select().from(files).where(eq(files.id, fileId))).toEqual([]);
    expect((await context.app.inject({ url: newUrl! })).headers['content-type']).toBe('image/webp');
    expect((await auditEventsOf(context.app, 'settings.updated')).at(-1)?.details).toEqual({
      changes: { 'clinic.logoFileId': { before: fileId, after: newUrl!.split('v=')[1] } },
    });

    const removed = await send(context.app, 'DELETE', '/api/v1/settings/logo', { session: admin.token });
    expect(removed.statusCode).toBe(200);
    expect(clinicSettingsSchema.parse(removed.json()).clinic.logoUrl).toBeNull();
    const gone = await context.app.inject({ url: '/api/v1/clinic/logo' });
    expect(gone.statusCode).toBe(404);
    expect(errorResponseSchema.parse(gone.json()).error.code).toBe('NOT_FOUND');
    expect((await auditEventsOf(context.app, 'settings.updated')).at(-1)?.details).toMatchObject({
      changes: { 'clinic.logoFileId': { after: null } },
    });
  });

  it('refuses what is not a PNG, JPEG or WebP (415), a huge canvas (422) and more than 2 MB (413)', async () => {
    const text = await upload('/api/v1/settings/logo', admin.token, Buffer.from('<svg onload="alert(1)"/>'));
    expect(text.statusCode).toBe(415);
    const bomb = await upload('/api/v1/settings/logo', admin.token, jpegHeader(5000, 100));
    expect(bomb.statusCode).toBe(422);
    const big = await upload(
      '/api/v1/settings/logo',
      admin.token,
      Buffer.concat([pngHeader(10, 10), Buffer.alloc(2 * 1024 * 1024)]),
    );
    expect(big.statusCode).toBe(413);
    expect(errorResponseSchema.parse(big.json()).error.code).toBe('PAYLOAD_TOO_LARGE');
    const wrongField = await upload('/api/v1/settings/logo', admin.token, pngHeader(10, 10), 'image');
    expect(wrongField.statusCode).toBe(400);
    const json = await send(context.app, 'PUT', '/api/v1/settings/logo', {
      session: admin.token,
      body: { file: 'x' },
    });
    expect(json.statusCode).toBe(415);
  });

  it('is managed only with settings.manage', async () => {
    const staff = await signIn(context.app, await createUser(context.app, { roles: ['staff'] }));
    expect((await upload('/api/v1/settings/logo', staff.token, pngHeader(10, 10))).statusCode).toBe(403);
    expect(
      (await send(context.app, 'DELETE', '/api/v1/settings/logo', { session: staff.token })).statusCode,
    ).toBe(403);
    expect((await upload('/api/v1/settings/logo', '', pngHeader(10, 10))).statusCode).toBe(401);
  });
});

describe('upload limits', () => {
  it('are obeyed by the logo and the profile photo (PUT /me/photo) as well as the 2 and 5 MB caps', async () => {
    await patch({ uploads: { ...defaults.uploads, maxFileSizeMb: 1 } });
    expect(await loadUploadLimits(context.db)).toMatchObject({
      maxFileSizeMb: 1,
      maxFileSizeBytes: 1024 * 1024,
    });
    const overOneMb = Buffer.concat([pngHeader(10, 10), Buffer.alloc(1024 * 1024)]);
    const logo = await upload('/api/v1/settings/logo', admin.token, overOneMb);
    expect(logo.statusCode).toBe(413);
    expect(errorResponseSchema.parse(logo.json()).error).toMatchObject({
      code: 'PAYLOAD_TOO_LARGE',
      details: { maxBytes: 1024 * 1024 },
    });
    const patient = await signIn(context.app, await createUser(context.app, { roles: ['patient'] }));
    const photo = await upload('/api/v1/me/photo', patient.token, overOneMb);
    expect(photo.statusCode).toBe(413);
    const small = await upload('/api/v1/me/photo', patient.token, pngHeader(10, 10));
    expect(small.statusCode).toBe(200);

    await restore({ uploads: defaults.uploads });
    expect((await upload('/api/v1/me/photo', patient.token, overOneMb)).statusCode).toBe(200);
  });
});
