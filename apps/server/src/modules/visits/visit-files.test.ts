import type { ChatMessage } from '@telemedicina/shared/visits';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { visitMessages } from '../../db/schema.js';
import { createClock } from '../../test/booking-fixtures.js';
import { createUser, nextRemoteAddress, requestHeaders, send, signIn } from '../../test/factories.js';
import { createTestContext, parseSetCookie, type TestContext } from '../../test/test-context.js';
import {
  ask,
  closeVisitSockets,
  createVisit,
  nextEvent,
  openVisitSocket,
  sessionCookie,
  type TestVisit,
} from '../../test/visit-fixtures.js';
import { sanitizeFileName, sniffDocument } from '../../lib/document-sniff.js';

const clock = createClock('2026-06-15T10:00:00.000Z');
let context: TestContext;
let port: number;

beforeAll(async () => {
  context = await createTestContext({ now: clock.now });
  await context.app.listen({ port: 0, host: '127.0.0.1' });
  const address = context.app.server.address();
  port = typeof address === 'object' && address !== null ? address.port : 0;
});

afterEach(() => {
  closeVisitSockets();
});

afterAll(async () => {
  await context?.close();
});

const pngBytes = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGNgYGBgAAAABQABXvMqGgAAAABJRU5ErkJggg==',
  'base64',
);
const pdfBytes = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n', 'latin1');

/** A multipart body: optional text fields first, then the file. */
function multipart(
  fields: Record<string, string>,
  file: { name: string; type: string; bytes: Buffer } | null,
): { payload: Buffer; contentType: string } {
  const boundary = `----visit${Math.random().toString(16).slice(2)}`;
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    parts.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`),
    );
  }
  if (file !== null) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: ${file.type}\r\n\r\n`,
      ),
      file.bytes,
      Buffer.from('\r\n'),
    );
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}

function upload(
  appointmentId: string,
  session: string,
  file: { name: string; type: string; bytes: Buffer } | null,
  fields: Record<string, string> = {},
) {
  const body = multipart(fields, file);
  return context.app.inject({
    method: 'POST',
    url: `/api/v1/visits/${appointmentId}/files`,
    headers: { ...requestHeaders(session), 'content-type': body.contentType },
    remoteAddress: nextRemoteAddress(),
    payload: body.payload,
  });
}

describe('files in the visit chat', () => {
  it('shares a file as a numbered chat message and serves it to participants only', async () => {
    const visit = await createVisit(context.app, { startsAt: clock.now(), status: 'in_progress' });
    const doctor = await openVisitSocket(port, sessionCookie(visit.doctorSession));
    await ask(doctor, 'visit.join', { appointmentId: visit.appointmentId, lastSeq: 0 });
    const pushed = nextEvent(doctor, 'chat.message');
    const response = await upload(
      visit.appointmentId,
      visit.patientSession.token,
      { name: '../../etc/Análisis\u0007 de sangre.pdf', type: 'image/png', bytes: pdfBytes },
      { clientId: 'file-1' },
    );
    expect(response.statusCode).toBe(201);
    const message = response.json<ChatMessage>();
    expect(message).toMatchObject({
      seq: 1,
      kind: 'file',
      clientId: 'file-1',
      sender: { key: `user:${visit.patient.id}`, role: 'patient' },
      file: { name: 'Análisis de sangre.pdf', contentType: 'application/pdf', size: pdfBytes.length },
    });
    expect((await pushed).seq).toBe(1);
    // The same clientId again: the stored message, no new one.
    const resent = await upload(
      visit.appointmentId,
      visit.patientSession.token,
      { name: 'otra.pdf', type: 'application/pdf', bytes: pdfBytes },
      { clientId: 'file-1' },
    );
    expect(resent.json<ChatMessage>()).toMatchObject({ seq: 1, id: message.id });

    const url = message.file?.url ?? '';
    const download = await send(context.app, 'GET', url, { session: visit.doctorSession.token });
    expect(download.statusCode).toBe(200);
    expect(download.rawPayload.equals(pdfBytes)).toBe(true);
    expect(download.headers['content-type']).toBe('application/pdf');
    expect(download.headers['x-content-type-options']).toBe('nosniff');
    expect(String(download.headers['content-disposition'])).toMatch(
      /^attachment; filename="An_lisis de sangre\.pdf"/,
    );

    const stranger = await signIn(context.app, await createUser(context.app, { roles: ['patient'] }));
    expect((await send(context.app, 'GET', url, { session: stranger.token })).statusCode).toBe(404);
    expect((await send(context.app, 'GET', url)).statusCode).toBe(404);
    const staff = await signIn(context.app, await createUser(context.app, { roles: ['staff'] }));
    expect((await send(context.app, 'GET', url, { session: staff.token })).statusCode).toBe(404);
    // A file of another visit under this visit's path: 404.
    const other = await createVisit(context.app, { startsAt: clock.now(), status: 'in_progress' });
    const otherFile = (
      await upload(other.appointmentId, other.patientSession.token, {
        name: 'x.png',
        type: 'image/png',
        bytes: pngBytes,
      })
    ).json<ChatMessage>();
    expect(
      (
        await send(
          context.app,
          'GET',
          `/api/v1/visits/${visit.appointmentId}/files/${otherFile.file?.id ?? ''}`,
          {
            session: visit.patientSession.token,
          },
        )
      ).statusCode,
    ).toBe(404);

    // A guest of the visit downloads with the guest cookie.
    const invite = await send(context.app, 'POST', `/api/v1/visits/${visit.appointmentId}/guests`, {
      session: visit.doctorSession.token,
      body: { name: 'Guest Companion', role: 'companion', language: 'en' },
    });
    const token = invite.json<{ url: string }>().url.split('#')[1];
    const redeemed = await send(context.app, 'POST', '/api/v1/visit-guests/redeem', { body: { token } });
    const guestCookie = parseSetCookie(redeemed.headers['set-cookie']).get('tm_guest')?.value ?? '';
    const asGuest = () =>
      context.app.inject({ method: 'GET', url, headers: { cookie: `tm_guest=${guestCookie}` } });
    // Still in the waiting room: nothing (see 'guests and visit files').
    expect((await asGuest()).statusCode).toBe(404);
    const guestId = invite.json<{ id: string }>().id;
    const admitted = await send(context.app, 'POST', `/api/v1/visits/${visit.appointmentId}/admit`, {
      session: visit.doctorSession.token,
      body: { participantKey: `guest:${guestId}` },
    });
    expect(admitted.statusCode).toBe(200);
    expect((await asGuest()).statusCode).toBe(200);
  });

  it('refuses files over the clinic size limit (413) and kinds not allowed by content (415)', async () => {
    const visit = await createVisit(context.app, { startsAt: clock.now(), status: 'in_progress' });
    const admin = await signIn(context.app, await createUser(context.app, { roles: ['admin'] }));
    const settings = await send(context.app, 'PATCH', '/api/v1/settings', {
      session: admin.token,
      body: { uploads: { maxFileSizeMb: 1, allowedKinds: ['pdf', 'png'], maxFilesPerUpload: 5 } },
    });
    expect(settings.statusCode).toBe(200);
    try {
      const big = Buffer.concat([pdfBytes, Buffer.alloc(1024 * 1024 + 10, 0x20)]);
      const tooLarge = await upload(visit.appointmentId, visit.patientSession.token, {
        name: 'big.pdf',
        type: 'application/pdf',
        bytes: big,
      });
      expect(tooLarge.statusCode).toBe(413);
      expect(tooLarge.json()).toMatchObject({ error: { code: 'PAYLOAD_TOO_LARGE' } });
      // Named and declared a PDF, but the bytes are an executable.
      const fake = await upload(visit.appointmentId, visit.patientSession.token, {
        name: 'informe.pdf',
        type: 'application/pdf',
        bytes: Buffer.from('MZ\x90\x00\x03\x00\x00\x00\x04\x00\x00\x00\xff\xff', 'latin1'),
      });
      expect(fake.statusCode).toBe(415);
      expect(fake.json()).toMatchObject({ error: { code: 'UNSUPPORTED_MEDIA_TYPE' } });
      // A real kind the clinic does not allow (WebP) is refused too.
      const webp = Buffer.from('UklGRhoAAABXRUJQVlA4TA0AAAAvAAAAEAcQERGIiP4HAA==', 'base64');
      expect(
        (
          await upload(visit.appointmentId, visit.patientSession.token, {
            name: 'a.webp',
            type: 'image/webp',
            bytes: webp,
          })
        ).statusCode,
      ).toBe(415);
      expect((await upload(visit.appointmentId, visit.patientSession.token, null)).statusCode).toBe(400);
    } finally {
      await send(context.app, 'PATCH', '/api/v1/settings', {
        session: admin.token,
        body: {
          uploads: { maxFileSizeMb: 10, allowedKinds: ['pdf', 'png', 'jpeg', 'webp'], maxFilesPerUpload: 5 },
        },
      });
    }
  });

  it('names a shared file by its content: the sender’s ending never survives (.html, .exe, .svg)', async () => {
    const visit = await createVisit(context.app, { startsAt: clock.now(), status: 'in_progress' });
    // A real PNG with an HTML page after its last chunk: saved as `.html`, it would open as a page.
    const polyglot = Buffer.concat([pngBytes, Buffer.from('<html><script>alert(1)</script></html>')]);
    const cases: { name: string; bytes: Buffer; listed: string; contentType: string }[] = [
      { name: 'invoice.html', bytes: polyglot, listed: 'invoice.png', contentType: 'image/png' },
      { name: 'setup.exe', bytes: pngBytes, listed: 'setup.png', contentType: 'image/png' },
      { name: 'logo.svg', bytes: pngBytes, listed: 'logo.png', contentType: 'image/png' },
      { name: 'informe.PDF.htm', bytes: pdfBytes, listed: 'informe.PDF.pdf', contentType: 'application/pdf' },
      { name: 'scan.PNG', bytes: pngBytes, listed: 'scan.png', contentType: 'image/png' },
      { name: 'receta', bytes: pdfBytes, listed: 'receta.pdf', contentType: 'application/pdf' },
    ];
    for (const [index, sample] of cases.entries()) {
      const response = await upload(
        visit.appointmentId,
        visit.patientSession.token,
        { name: sample.name, type: 'text/html', bytes: sample.bytes },
        { clientId: `named-${index}` },
      );
      expect(response.statusCode).toBe(201);
      const message = response.json<ChatMessage>();
      expect(message.file).toMatchObject({ name: sample.listed, contentType: sample.contentType });
      const download = await send(context.app, 'GET', message.file?.url ?? '', {
        session: visit.doctorSession.token,
      });
      expect(download.statusCode).toBe(200);
      expect(download.headers['content-type']).toBe(sample.contentType);
      const disposition = String(download.headers['content-disposition']);
      expect(disposition).toBe(
        `attachment; filename="${sample.listed}"; filename*=UTF-8''${encodeURIComponent(sample.listed)}`,
      );
      expect(disposition).not.toMatch(/\.(html?|exe|svg)\b/i);
    }
    // A file stored before this rule, under the sender's name: read with the content's ending too.
    const old = (
      await upload(visit.appointmentId, visit.patientSession.token, {
        name: 'old.png',
        type: 'image/png',
        bytes: polyglot,
      })
    ).json<ChatMessage>();
    await context.db.update(visitMessages).set({ fileName: 'old.html' }).where(eq(visitMessages.id, old.id));
    const history = await send(context.app, 'GET', `/api/v1/visits/${visit.appointmentId}/messages`, {
      session: visit.doctorSession.token,
    });
    expect(history.json<{ data: ChatMessage[] }>().data.find((m) => m.id === old.id)?.file?.name).toBe(
      'old.png',
    );
    const oldDownload = await send(context.app, 'GET', old.file?.url ?? '', {
      session: visit.doctorSession.token,
    });
    expect(String(oldDownload.headers['content-disposition'])).toMatch(/^attachment; filename="old\.png"/);
  });

  it('accepts files only from the doctor and the patient while the call is on', async () => {
    const waiting = await createVisit(context.app, { startsAt: clock.now(), status: 'checked_in' });
    const early = await upload(waiting.appointmentId, waiting.patientSession.token, {
      name: 'x.png',
      type: 'image/png',
      bytes: pngBytes,
    });
    expect(early.statusCode).toBe(409);
    expect(early.json()).toMatchObject({ error: { code: 'VISIT_NOT_ADMITTED' } });
    const stranger = await signIn(context.app, await createUser(context.app, { roles: ['patient'] }));
    expect(
      (
        await upload(waiting.appointmentId, stranger.token, {
          name: 'x.png',
          type: 'image/png',
          bytes: pngBytes,
        })
      ).statusCode,
    ).toBe(404);
  });
});

/** Invites a guest to the visit as its doctor and redeems the link: the guest's cookie header and key. */
async function redeemGuest(visit: TestVisit): Promise<{ cookie: string; key: string }> {
  const invite = await send(context.app, 'POST', `/api/v1/visits/${visit.appointmentId}/guests`, {
    session: visit.doctorSession.token,
    body: { name: 'Guest Companion', role: 'companion', language: 'en' },
  });
  expect(invite.statusCode).toBe(201);
  const { id, url } = invite.json<{ id: string; url: string }>();
  const redeemed = await send(context.app, 'POST', '/api/v1/visit-guests/redeem', {
    body: { token: url.split('#')[1] },
  });
  expect(redeemed.statusCode).toBe(200);
  const value = parseSetCookie(redeemed.headers['set-cookie']).get('tm_guest')?.value ?? '';
  return { cookie: `tm_guest=${value}`, key: `guest:${id}` };
}

describe('guests and visit files', () => {
  it('keeps the files from a guest in the waiting room, REST as the socket; admitted, the guest reads them', async () => {
    const visit = await createVisit(context.app, { startsAt: clock.now(), status: 'in_progress' });
    // Shared before anyone was invited.
    const shared = (
      await upload(visit.appointmentId, visit.patientSession.token, {
        name: 'analítica.pdf',
        type: 'application/pdf',
        bytes: pdfBytes,
      })
    ).json<ChatMessage>();
    const fileUrl = shared.file?.url ?? '';
    const guest = await redeemGuest(visit);
    const download = () =>
      context.app.inject({ method: 'GET', url: fileUrl, headers: { cookie: guest.cookie } });
    const list = () =>
      context.app.inject({
        method: 'GET',
        url: `/api/v1/visits/${visit.appointmentId}/messages`,
        headers: { cookie: guest.cookie },
      });

    // Waiting: the download and the list answer nothing, and the socket's join replays no message.
    const early = await download();
    expect(early.statusCode).toBe(404);
    expect(early.rawPayload.equals(pdfBytes)).toBe(false);
    expect([401, 403, 404]).toContain((await list()).statusCode);
    const socket = await openVisitSocket(port, guest.cookie);
    expect(await ask(socket, 'visit.join', { appointmentId: visit.appointmentId, lastSeq: 0 })).toMatchObject(
      {
        ok: true,
        data: { inCall: false, messages: [] },
      },
    );

    // Admitted by the doctor: the same rule lets the download through.
    const admitted = await send(context.app, 'POST', `/api/v1/visits/${visit.appointmentId}/admit`, {
      session: visit.doctorSession.token,
      body: { participantKey: guest.key },
    });
    expect(admitted.statusCode).toBe(200);
    const late = await download();
    expect(late.statusCode).toBe(200);
    expect(late.rawPayload.equals(pdfBytes)).toBe(true);
    const rejoined = await ask(socket, 'visit.join', { appointmentId: visit.appointmentId, lastSeq: 0 });
    expect(rejoined).toMatchObject({ ok: true, data: { inCall: true } });
    expect(rejoined.ok ? rejoined.data.messages.map((m) => m.id) : []).toEqual([shared.id]);
    // The chat's REST history stays the doctor's and the patient's.
    expect([401, 403, 404]).toContain((await list()).statusCode);

    // Once the doctor ends the visit the guest's part is over: no more files (the socket refuses the join).
    const ended = await send(context.app, 'POST', `/api/v1/visits/${visit.appointmentId}/end`, {
      session: visit.doctorSession.token,
    });
    expect(ended.statusCode).toBe(200);
    expect((await download()).statusCode).toBe(404);
    expect(await ask(socket, 'visit.join', { appointmentId: visit.appointmentId, lastSeq: 0 })).toMatchObject(
      {
        ok: false,
        error: { code: 'VISIT_ENDED' },
      },
    );
    // The patient keeps the visit's record.
    const byPatient = await send(context.app, 'GET', fileUrl, { session: visit.patientSession.token });
    expect(byPatient.statusCode).toBe(200);
  });

  it('keeps an admitted guest of another visit away from this visit’s files', async () => {
    const visit = await createVisit(context.app, { startsAt: clock.now(), status: 'in_progress' });
    const shared = (
      await upload(visit.appointmentId, visit.doctorSession.token, {
        name: 'pauta.png',
        type: 'image/png',
        bytes: pngBytes,
      })
    ).json<ChatMessage>();
    const other = await createVisit(context.app, { startsAt: clock.now(), status: 'in_progress' });
    const otherGuest = await redeemGuest(other);
    const admitted = await send(context.app, 'POST', `/api/v1/visits/${other.appointmentId}/admit`, {
      session: other.doctorSession.token,
      body: { participantKey: otherGuest.key },
    });
    expect(admitted.statusCode).toBe(200);
    for (const url of [
      shared.file?.url ?? '',
      `/api/v1/visits/${other.appointmentId}/files/${shared.file?.id ?? ''}`,
    ]) {
      const response = await context.app.inject({
        method: 'GET',
        url,
        headers: { cookie: otherGuest.cookie },
      });
      expect(response.statusCode).toBe(404);
    }
  });
});

describe('document sniffing', () => {
  it('decides the kind by content and keeps the browser’s name only as a clean label', () => {
    expect(sniffDocument(pdfBytes)).toBe('pdf');
    expect(sniffDocument(pngBytes)).toBe('png');
    expect(sniffDocument(Buffer.from('GIF89a\x01\x00\x01\x00', 'latin1'))).toBe('gif');
    expect(sniffDocument(Buffer.from('Presión arterial 120/80\n', 'utf8'))).toBe('txt');
    expect(sniffDocument(Buffer.from([0x00, 0x01, 0x02, 0x03]))).toBeNull();
    expect(sniffDocument(Buffer.from([0xff, 0xfe, 0x41]))).toBeNull();
    expect(sanitizeFileName('C:\\fakepath\\informe final.pdf', 'pdf')).toBe('informe final.pdf');
    expect(sanitizeFileName('../../..', 'png')).toBe('file.png');
    expect(sanitizeFileName(undefined, 'jpeg')).toBe('file.jpg');
  });
});
