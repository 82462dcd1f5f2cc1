import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiSession, ok } from './support/api.js';
import { launchBrowser, type BrowserHandle } from './support/browser.js';
import { createNetworkNamespace, type NetworkNamespace } from './support/netns.js';
import { freePort, repoRoot, startServer, type RunningServer } from './support/server.js';
import { signIn, type Lang } from './support/sign-in.js';
import { settle } from './support/settle.js';
import { bookVisitNow, prepareDoctor, prepareVisitClinic, waitForRemoteVideos } from './support/visits.js';

/**
 * A call survives a dropped network: the patient's network is cut for a while in the middle of a
 * call and comes back. The patient's browser runs in its own network namespace (support/netns.ts)
 * and the cut takes its link down, so nothing passes either way — the call's media as well as the
 * page's link to the server — and nobody tells the browser, as when a phone loses its network. The
 * doctor's page says "Reconectando…" over the patient's picture instead of a frozen frame; once the
 * network is back, video decodes again on both pages within 10 s, and what the doctor wrote in the
 * chat meanwhile reaches the patient exactly once. Each side shows its connection (good / weak /
 * lost), the doctor the patient's too, and the visit keeps the readings.
 */

const deviceZone = 'Europe/Madrid';
const accountZone = 'America/Mexico_City';
const shots = join(repoRoot, 'test-results/screenshots');
/** How long the patient's network stays down: the scenario the issue describes (not a wait for a state). */
const outageMs = 5_000;

let server: RunningServer;
let network: NetworkNamespace;
/** The doctor's browser, on this machine's network (the app at 127.0.0.1). */
let hostBrowser: BrowserHandle;
/** The patient's browser, inside the namespace (the app at the namespace's gateway address). */
let patientBrowser: BrowserHandle;
let patientBaseUrl: string;
let admin: ApiSession;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  mkdirSync(shots, { recursive: true });
  network = createNetworkNamespace();
  const port = await freePort();
  patientBaseUrl = `http://${network.hostAddress}:${port}`;
  server = await startServer({
    port,
    // Reached from this machine and from the namespace: both addresses are the app's origins.
    env: { HOST: '0.0.0.0', APP_ORIGIN: `http://127.0.0.1:${port},${patientBaseUrl}` },
  });
  hostBrowser = await launchBrowser({ fakeMedia: true });
  patientBrowser = await launchBrowser({
    fakeMedia: true,
    executablePath: network.chromiumPath,
    // Plain http on an address other than loopback is no secure context: no camera without this.
    args: [`--unsafely-treat-insecure-origin-as-secure=${patientBaseUrl}`],
  });
  admin = await prepareVisitClinic(server.baseUrl);
});

afterAll(async () => {
  for (const context of contexts) {
    await context.close().catch(() => undefined);
  }
  await patientBrowser?.close();
  await hostBrowser?.close();
  await server?.stop();
  network?.remove();
});

/** A signed-in page in the device zone (not the account's), the visit's device check already done. */
async function openCallPage(
  browser: BrowserHandle,
  baseUrl: string,
  email: string,
  lang: Lang,
  appointmentId: string,
): Promise<Page> {
  const context = await browser.browser.newContext({
    locale: lang === 'en' ? 'en-US' : 'es-ES',
    timezoneId: deviceZone,
    viewport: { width: 1280, height: 800 },
  });
  contexts.push(context);
  await context.addInitScript(
    ({ language, id }) => {
      window.localStorage.setItem('telemedicina.language', language);
      window.sessionStorage.setItem('telemedicina.languageChosen', '1');
      // The device check is the visit journey's subject, not this one's.
      window.sessionStorage.setItem(`telemedicina.visit.checked.${id}`, '1');
    },
    { language: lang, id: appointmentId },
  );
  // The test counts the connections the page makes (a reconnection makes a new one).
  await context.addInitScript(() => {
    const Native = window.RTCPeerConnection;
    const opened: RTCPeerConnection[] = [];
    const restarts = new WeakMap<RTCPeerConnection, number>();
    const store = window as unknown as {
      __callRecoveryConnections: RTCPeerConnection[];
      __callRecoveryRestarts: WeakMap<RTCPeerConnection, number>;
    };
    store.__callRecoveryConnections = opened;
    store.__callRecoveryRestarts = restarts;
    const restartIce = Object.getOwnPropertyDescriptor(Native.prototype, 'restartIce')?.value as (
      this: RTCPeerConnection,
    ) => void;
    Object.defineProperty(Native.prototype, 'restartIce', {
      configurable: true,
      writable: true,
      value(this: RTCPeerConnection) {
        restarts.set(this, (restarts.get(this) ?? 0) + 1);
        restartIce.call(this);
      },
    });
    window.RTCPeerConnection = class extends Native {
      constructor(configuration?: RTCConfiguration) {
        super(configuration);
        opened.push(this);
      }
    };
  });
  const page = await context.newPage();
  await signIn(page, baseUrl, email);
  return page;
}

/**
 * The page's connections in a line each (state, candidates in each description, ICE restarts,
 * video frames decoded): what a failure needs to say where the call stopped.
 */
async function describeConnections(page: Page): Promise<string> {
  return page.evaluate(async () => {
    const store = window as unknown as {
      __callRecoveryConnections: RTCPeerConnection[];
      __callRecoveryRestarts: WeakMap<RTCPeerConnection, number>;
    };
    const lines: string[] = [];
    for (const pc of store.__callRecoveryConnections) {
      let frames: unknown = null;
      if (pc.connectionState !== 'closed') {
        (await pc.getStats()).forEach((entry: Record<string, unknown>) => {
          if (entry.type === 'inbound-rtp' && entry.kind === 'video') {
            frames = entry.framesDecoded;
          }
        });
      }
      const candidates = (description: RTCSessionDescription | null) =>
        (description?.sdp.match(/a=candidate/g) ?? []).length;
      lines.push(
        `${pc.connectionState} ice=${pc.iceConnectionState} gathering=${pc.iceGatheringState} ` +
          `signaling=${pc.signalingState} candidates local=${candidates(pc.localDescription)} ` +
          `remote=${candidates(pc.remoteDescription)} restarts=${store.__callRecoveryRestarts.get(pc) ?? 0} ` +
          `frames=${String(frames)}`,
      );
    }
    return lines.join('\n');
  });
}

/** Frames decoded so far by each remote picture of the page. */
async function framesDecoded(page: Page): Promise<number[]> {
  return page
    .getByTestId('visit-remote')
    .evaluateAll((tiles) =>
      tiles.map((tile) => tile.querySelector('video')?.getVideoPlaybackQuality().totalVideoFrames ?? 0),
    );
}

/** How many RTCPeerConnections the page has made so far (counted by the init script). */
async function connectionsMade(page: Page): Promise<number> {
  return page.evaluate(
    () =>
      (window as unknown as { __callRecoveryConnections: RTCPeerConnection[] }).__callRecoveryConnections
        .length,
  );
}

async function sendChat(page: Page, text: string): Promise<void> {
  if (await page.getByTestId('visit-chat-open').isVisible()) {
    await page.getByTestId('visit-chat-open').click();
  }
  await page.getByTestId('visit-chat-input').last().fill(text);
  await page.getByTestId('visit-chat-input').last().press('Enter');
}

async function countMessages(page: Page, needle: string): Promise<number> {
  const texts = await page
    .getByTestId('visit-chat-message')
    .evaluateAll((items) => items.map((item) => item.textContent ?? ''));
  return texts.filter((text) => text.includes(needle)).length;
}

/** Screenshots of the page at 1280 px and 390 px wide (then back to 1280). */
async function shoot(page: Page, name: string): Promise<void> {
  for (const [width, height] of [
    [1280, 800],
    [390, 844],
  ] as const) {
    await page.setViewportSize({ width, height });
    await settle(page);
    await page.screenshot({ path: join(shots, `${name}-${width}.png`) });
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}

describe('a call that loses the network', () => {
  it('shows "reconnecting", recovers video on both pages within 10 s, replays the chat once, and keeps the readings', async () => {
    const doctor = await prepareDoctor(server.baseUrl, 'medico2@example.com');
    const patientApi = new ApiSession(server.baseUrl);
    await patientApi.signIn('paciente2@example.com');
    for (const session of [doctor.session, patientApi]) {
      await ok(session.request('PATCH', '/me', { timeZone: accountZone }), 'PATCH /me');
    }
    const appointmentId = await bookVisitNow(patientApi, doctor.id, 'Control por video');

    const host = await openCallPage(hostBrowser, server.baseUrl, 'medico2@example.com', 'es', appointmentId);
    await host.goto(`${server.baseUrl}/admin/visits/${appointmentId}`);
    await host.getByTestId('visit-call').waitFor({ timeout: 20_000 });

    const patient = await openCallPage(
      patientBrowser,
      patientBaseUrl,
      'paciente2@example.com',
      'en',
      appointmentId,
    );
    await patient.goto(`${patientBaseUrl}/portal/visits/${appointmentId}`);
    await patient.getByTestId('visit-check-in').click({ timeout: 20_000 });
    await patient.getByTestId('visit-waiting').waitFor({ timeout: 20_000 });
    await host.getByTestId('visit-call-admit').click({ timeout: 20_000 });
    await patient.getByTestId('visit-call').waitFor({ timeout: 20_000 });
    await waitForRemoteVideos(host, 1);
    await waitForRemoteVideos(patient, 1);

    // Each side sees its own connection, and the doctor the patient's (reported over the socket).
    const remoteQuality = host.getByTestId('visit-remote-quality');
    await remoteQuality.waitFor({ timeout: 20_000 });
    expect(await remoteQuality.getAttribute('data-indicator')).toBe('good');
    expect(await remoteQuality.getAttribute('aria-label')).toMatch(/^Conexión de .+: buena$/);
    await expect
      .poll(() => host.getByTestId('visit-call-quality').getAttribute('data-indicator'))
      .toBe('good');
    await expect
      .poll(() => patient.getByTestId('visit-call-quality').getAttribute('data-indicator'))
      .toBe('good');
    await shoot(host, 'call-quality-doctor-es');

    // The patient's network is cut: nothing passes, and neither browser is told. It comes back after
    // the scenario's 5 s, whatever the checks below are doing then (its length is the input under
    // test; every check waits for a state).
    const madeBefore = { host: await connectionsMade(host), patient: await connectionsMade(patient) };
    const framesBeforeCut = { host: await framesDecoded(host), patient: await framesDecoded(patient) };
    const droppedAt = Date.now();
    network.setLink(false);
    const back = new Promise<number>((resolve) => {
      setTimeout(() => {
        try {
          network.setLink(true);
        } catch {
          // The test already failed and the namespace is gone.
        }
        resolve(Date.now());
      }, outageMs);
    });
    const isStillCut = () => Date.now() < droppedAt + outageMs;
    const outageLeft = () => Math.max(1, droppedAt + outageMs - Date.now());
    // The doctor writes while the patient is away.
    const whileAway = `Sigo aquí, ${Date.now()}`;
    await sendChat(host, whileAway);
    await expect.poll(() => countMessages(host, whileAway)).toBe(1);
    // The doctor's page says so over the patient's picture (not a frozen frame), and the patient's
    // over the doctor's, while the network is still down.
    const hostReconnecting = host.getByTestId('visit-remote-reconnecting');
    await hostReconnecting.waitFor({ timeout: outageLeft() });
    const hostSays = await hostReconnecting.innerText();
    const patientReconnecting = patient.getByTestId('visit-remote-reconnecting');
    await patientReconnecting.waitFor({ timeout: outageLeft() });
    const patientSays = await patientReconnecting.innerText();
    const reconnectingAfterMs = Date.now() - droppedAt;
    const framesInCut = { host: await framesDecoded(host), patient: await framesDecoded(patient) };
    const patientMessages = await countMessages(patient, whileAway);
    // All of that was seen during the cut (on a machine too slow for that, this says so).
    expect(isStillCut()).toBe(true);
    expect(hostSays).toContain('Reconectando…');
    expect(patientSays).toContain('Reconnecting…');
    // No picture arrived since the cut: at most those already on their way or waiting to be decoded
    // on a busy machine (seen: 7), against 10 a second (over 20 by now) if the picture still came.
    expect(framesInCut.host[0]! - framesBeforeCut.host[0]!).toBeLessThan(12);
    expect(framesInCut.patient[0]! - framesBeforeCut.patient[0]!).toBeLessThan(12);
    expect(patientMessages).toBe(0);
    await host.screenshot({ path: join(shots, 'call-reconnecting-doctor-es-1280.png') });
    await patient.screenshot({ path: join(shots, 'call-reconnecting-patient-en-1280.png') });

    // The network comes back: video decodes again on both pages within 10 s.
    const backAt = await back;
    const offlineMs = backAt - droppedAt;
    try {
      await Promise.all([waitForRemoteVideos(host, 1, 10_000), waitForRemoteVideos(patient, 1, 10_000)]);
    } catch (error) {
      const [onHost, onPatient] = await Promise.all([
        describeConnections(host),
        describeConnections(patient),
      ]);
      throw new Error(`Doctor's connections:\n${onHost}\nPatient's connections:\n${onPatient}`, {
        cause: error,
      });
    }
    const recoveredMs = Date.now() - backAt;
    const madeAfter = { host: await connectionsMade(host), patient: await connectionsMade(patient) };
    console.info(
      `call recovery: "reconnecting" on both pages ${reconnectingAfterMs} ms into the cut, cut ${offlineMs} ms, ` +
        `video back on both pages ${recoveredMs} ms after; new connections doctor ${madeAfter.host - madeBefore.host}, ` +
        `patient ${madeAfter.patient - madeBefore.patient}`,
    );
    expect(recoveredMs).toBeLessThanOrEqual(10_000);
    await hostReconnecting.waitFor({ state: 'detached', timeout: 20_000 });
    await patientReconnecting.waitFor({ state: 'detached', timeout: 20_000 });

    // What was written meanwhile arrives once, and stays once.
    await expect.poll(() => countMessages(patient, whileAway)).toBe(1);
    await sendChat(patient, 'Back again');
    await expect.poll(() => countMessages(host, 'Back again')).toBe(1);
    expect(await countMessages(patient, whileAway)).toBe(1);
    expect(await countMessages(host, whileAway)).toBe(1);

    // The doctor's view in English too (switched in place, the call goes on).
    await expect.poll(() => remoteQuality.getAttribute('data-indicator'), { timeout: 20_000 }).toBe('good');
    await host.getByTestId('language-option-en').first().click();
    await expect.poll(() => remoteQuality.getAttribute('aria-label')).toMatch(/connection: good$/);
    await shoot(host, 'call-quality-doctor-en');
    await shoot(patient, 'call-quality-patient-en');

    // The visit keeps the call's readings for support (staff see them; worst values, relayed or not).
    const stored = await ok(
      admin.request<{
        callReadings?: { key: string; role: string; relayed: boolean; worstRttMs: number | null }[];
      }>('GET', `/visits/${appointmentId}`),
      'GET /visits/:id',
    );
    expect(stored.callReadings?.map((entry) => entry.role).sort()).toEqual(['doctor', 'patient']);
    for (const entry of stored.callReadings ?? []) {
      expect(entry.relayed).toBe(false);
      expect(entry.worstRttMs).not.toBeNull();
    }
  });
});
