/// <reference lib="dom" />
import type { Page } from 'playwright-core';
import { ApiSession, ok } from './api.js';

/**
 * Helpers for video-visit journeys: a clinic where a visit can start now (no booking notice,
 * five-minute visits, no STUN/TURN on the closed network), a visit booked in the next free
 * five-minute slot of an "extra hours" exception starting now, and frame checks on a page.
 */

export interface VisitActors {
  admin: ApiSession;
  doctor: ApiSession;
  doctorId: string;
  patient: ApiSession;
}

interface SettingsBody {
  booking: { minimumNoticeMinutes: number; visitLengths: number[]; [key: string]: unknown };
  video: { iceServers: unknown[] };
}

/** Clinic settings for visits that start now: no notice, 5-minute visits allowed, no ICE servers. */
export async function prepareVisitClinic(baseUrl: string): Promise<ApiSession> {
  const admin = new ApiSession(baseUrl);
  await admin.signIn('admin@example.com');
  const settings = await ok(admin.request<SettingsBody>('GET', '/settings'), 'GET /settings');
  const lengths = [...new Set([5, ...settings.booking.visitLengths])].sort((a, b) => a - b);
  await ok(
    admin.request('PATCH', '/settings', {
      booking: { ...settings.booking, minimumNoticeMinutes: 0, visitLengths: lengths },
      video: { ...settings.video, iceServers: [] },
    }),
    'PATCH /settings',
  );
  return admin;
}

/**
 * A doctor whose visits last five minutes with extra hours from the next minute for two hours,
 * so the first free slots all open for check-in right away.
 */
export function prepareDoctor(baseUrl: string, email: string): Promise<{ session: ApiSession; id: string }> {
  const key = `${baseUrl} ${email}`;
  let prepared = preparedDoctors.get(key);
  if (!prepared) {
    prepared = prepareDoctorOnce(baseUrl, email);
    preparedDoctors.set(key, prepared);
  }
  return prepared;
}

const preparedDoctors = new Map<string, Promise<{ session: ApiSession; id: string }>>();

async function prepareDoctorOnce(
  baseUrl: string,
  email: string,
): Promise<{ session: ApiSession; id: string }> {
  const session = new ApiSession(baseUrl);
  await session.signIn(email);
  const me = await ok(session.request<{ user: { id: string } }>('GET', '/me'), 'GET /me');
  const id = me.user.id;
  await ok(session.request('PATCH', `/doctors/${id}`, { visitMinutes: 5 }), 'PATCH /doctors/:id');
  const start = new Date(Math.ceil((Date.now() + 30_000) / 60_000) * 60_000);
  await ok(
    session.request('POST', `/doctors/${id}/availability/exceptions`, {
      kind: 'extra',
      startsAt: start.toISOString(),
      endsAt: new Date(start.getTime() + 2 * 3_600_000).toISOString(),
      reason: 'Videoconsultas de prueba',
    }),
    'POST exception',
  );
  return { session, id };
}

/** The patient books the doctor's first free slot (starting within the next minutes); returns the appointment id. */
export async function bookVisitNow(
  patient: ApiSession,
  doctorId: string,
  reason = 'Videoconsulta',
): Promise<string> {
  const from = new Date(Date.now() - 60_000).toISOString();
  const to = new Date(Date.now() + 3_600_000).toISOString();
  const slots = await ok(
    patient.request<{ slots: { startsAt: string }[] }>(
      'GET',
      `/doctors/${doctorId}/slots?from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`,
    ),
    'GET slots',
  );
  const first = slots.slots.find((slot) => Date.parse(slot.startsAt) >= Date.now() - 1_000);
  if (!first) {
    throw new Error(`No free slot for ${doctorId}: ${JSON.stringify(slots)}`);
  }
  const appointment = await ok(
    patient.request<{ id: string }>('POST', '/appointments', { doctorId, startsAt: first.startsAt, reason }),
    'POST /appointments',
  );
  return appointment.id;
}

/** Decoded frames and size of every remote video on the page (by participant key). */
export async function remoteVideoFrames(
  page: Page,
): Promise<{ key: string; frames: number; width: number }[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>('[data-testid="visit-remote"]')].map((tile) => {
      const video = tile.querySelector('video');
      return {
        key: tile.dataset.key ?? '',
        frames: video?.getVideoPlaybackQuality().totalVideoFrames ?? 0,
        width: video?.videoWidth ?? 0,
      };
    }),
  );
}

/**
 * Waits until `count` remote videos are decoding: each has a size and has decoded more frames than
 * when the wait began (a frozen last frame does not count). The page itself is polled, so a slow
 * machine only makes the wait longer.
 */
export async function waitForRemoteVideos(page: Page, count: number, timeoutMs = 30_000): Promise<void> {
  const token = `${Date.now()}-${Math.random()}`;
  try {
    await page.waitForFunction(
      ({ wanted, key }) => {
        const store = window as unknown as { __remoteFramesAtStart?: Record<string, Record<string, number>> };
        const atStart = ((store.__remoteFramesAtStart ??= {})[key] ??= {});
        let decoding = 0;
        for (const tile of document.querySelectorAll<HTMLElement>('[data-testid="visit-remote"]')) {
          const video = tile.querySelector('video');
          const participant = tile.dataset.key ?? '';
          const frames = video?.getVideoPlaybackQuality().totalVideoFrames ?? 0;
          // A picture that starts over (a new connection after a reconnection) counts from its own start.
          if (!(participant in atStart) || frames < atStart[participant]!) {
            atStart[participant] = frames;
          } else if ((video?.videoWidth ?? 0) > 0 && frames > atStart[participant]!) {
            decoding += 1;
          }
        }
        return decoding >= wanted;
      },
      { wanted: count, key: token },
      { timeout: timeoutMs, polling: 100 },
    );
  } catch (error) {
    throw new Error(
      `Expected ${count} decoding remote videos, got ${JSON.stringify(await remoteVideoFrames(page))}`,
      { cause: error },
    );
  }
}
