/// <reference lib="dom" />
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiSession, ok } from './support/api.js';
import { launchBrowser, type BrowserHandle } from './support/browser.js';
import { ensureCoturn, requestAllocation, startCoturn, type RunningCoturn } from './support/coturn.js';
import { startServer, type RunningServer } from './support/server.js';
import { openSignedIn } from './support/sign-in.js';
import { bookVisitNow, prepareDoctor, prepareVisitClinic, waitForRemoteVideos } from './support/visits.js';

/**
 * TURN, proven: coturn on loopback with the TURN REST API shared secret, the app server issuing
 * each participant short-lived credentials in the visit state (TURN_SECRET, TURN_URLS), a call
 * forced through the relay that decodes video both ways, and credentials that stop working.
 */

let coturn: RunningCoturn;
let server: RunningServer;
let browser: BrowserHandle;

beforeAll(async () => {
  coturn = await startCoturn(await ensureCoturn());
  [server, browser] = await Promise.all([
    startServer({ env: { TURN_SECRET: coturn.secret, TURN_URLS: coturn.url } }),
    launchBrowser({ fakeMedia: true }),
  ]);
  await prepareVisitClinic(server.baseUrl);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await coturn?.stop();
});

interface IceServerEntry {
  urls: string[];
  username?: string;
  credential?: string;
}

interface StateWithIce {
  self: { key: string };
  iceServers: IceServerEntry[];
  iceServersTtlSeconds?: number | null;
}

function turnEntryOf(state: StateWithIce): { username: string; credential: string } {
  const entry = state.iceServers.find((server) => server.urls.some((url) => url.startsWith('turn:')));
  if (!entry?.username || !entry.credential) {
    throw new Error(`No issued TURN entry in ${JSON.stringify(state.iceServers)}`);
  }
  return { username: entry.username, credential: entry.credential };
}

/**
 * Every RTCPeerConnection of the page is made relay-only (`iceTransportPolicy: 'relay'`, also on
 * setConfiguration) and kept for the test to read its statistics. Injected by the test, so the
 * product's code stays as it is: it only proves the path through the relay works.
 */
async function forceRelay(context: BrowserContext): Promise<void> {
  await context.addInitScript(() => {
    const Native = window.RTCPeerConnection;
    const made: RTCPeerConnection[] = [];
    class RelayOnly extends Native {
      constructor(configuration: RTCConfiguration = {}) {
        super({ ...configuration, iceTransportPolicy: 'relay' });
        made.push(this);
      }
      override setConfiguration(configuration: RTCConfiguration = {}): void {
        super.setConfiguration({ ...configuration, iceTransportPolicy: 'relay' });
      }
    }
    window.RTCPeerConnection = RelayOnly;
    (window as unknown as { __relayPeers: RTCPeerConnection[] }).__relayPeers = made;
  });
}

interface PairReading {
  policy: string;
  turnUsernames: string[];
  local: string | null;
  remote: string | null;
  framesDecoded: number;
}

/** The connected call connection of the page: its policy, TURN user, selected pair's candidate types, frames. */
async function callReading(page: Page): Promise<PairReading | null> {
  return page.evaluate(async () => {
    const peers = (window as unknown as { __relayPeers: RTCPeerConnection[] }).__relayPeers;
    for (const pc of peers) {
      if (pc.connectionState !== 'connected') {
        continue;
      }
      const stats: (Record<string, unknown> & { type: string; id: string })[] = [];
      (await pc.getStats()).forEach((entry: Record<string, unknown> & { type: string; id: string }) => {
        stats.push(entry);
      });
      const byId = new Map(stats.map((entry) => [entry.id, entry]));
      const transport = stats.find((entry) => entry.type === 'transport');
      const pair =
        byId.get(String(transport?.selectedCandidatePairId)) ??
        stats.find(
          (entry) => entry.type === 'candidate-pair' && entry.nominated && entry.state === 'succeeded',
        );
      const inbound = stats.filter((entry) => entry.type === 'inbound-rtp' && entry.kind === 'video');
      if (!pair || inbound.length === 0) {
        continue;
      }
      const typeOf = (id: unknown) => {
        const candidateType = byId.get(String(id))?.candidateType;
        return typeof candidateType === 'string' ? candidateType : null;
      };
      const configuration = pc.getConfiguration();
      return {
        policy: String(configuration.iceTransportPolicy),
        turnUsernames: (configuration.iceServers ?? []).flatMap((server) =>
          server.username === undefined ? [] : [server.username],
        ),
        local: typeOf(pair.localCandidateId),
        remote: typeOf(pair.remoteCandidateId),
        framesDecoded: inbound.reduce((sum, entry) => sum + Number(entry.framesDecoded ?? 0), 0),
      };
    }
    return null;
  });
}

/** Waits for a relay-only connection on the page whose decoded frames keep increasing. */
async function expectRelayedVideo(page: Page, participantKey: string): Promise<void> {
  await expect.poll(() => callReading(page), { timeout: 30_000 }).not.toBeNull();
  const first = (await callReading(page))!;
  expect(first).toMatchObject({ policy: 'relay', local: 'relay', remote: 'relay' });
  // The credentials the server issued to this participant, never a static password.
  expect(first.turnUsernames).toEqual([
    expect.stringMatching(new RegExp(`^\\d+:${participantKey.replace(':', '-')}$`)),
  ]);
  await expect
    .poll(async () => (await callReading(page))?.framesDecoded ?? 0, { timeout: 20_000 })
    .toBeGreaterThan(first.framesDecoded);
}

describe('TURN relay (coturn on loopback, server-issued credentials)', () => {
  it('makes a relay-only call that decodes video both ways', async () => {
    const doctor = await prepareDoctor(server.baseUrl, 'medico1@example.com');
    const patientApi = new ApiSession(server.baseUrl);
    await patientApi.signIn('paciente1@example.com');
    const appointmentId = await bookVisitNow(patientApi, doctor.id, 'Videoconsulta por relé');
    const checkedIn = await ok(
      patientApi.request<StateWithIce>('POST', `/visits/${appointmentId}/check-in`, {}),
      'POST check-in',
    );
    expect(checkedIn.iceServersTtlSeconds).toBe(3600);
    const patientKey = checkedIn.self.key;

    const patient = await openSignedIn(browser.browser, server.baseUrl, 'paciente1@example.com', {
      lang: 'es',
    });
    await forceRelay(patient.context());
    // The device check is the app's own once-per-session step (tested in visit.e2e.ts): marked done.
    await patient
      .context()
      .addInitScript((id) => sessionStorage.setItem(`telemedicina.visit.checked.${id}`, '1'), appointmentId);
    await patient.goto(`${server.baseUrl}/portal/visits/${appointmentId}`);
    await patient.getByTestId('visit-waiting').waitFor({ timeout: 20_000 });

    const host = await openSignedIn(browser.browser, server.baseUrl, 'medico1@example.com', { lang: 'en' });
    await forceRelay(host.context());
    await host.goto(`${server.baseUrl}/admin/visits/${appointmentId}`);
    await host.getByTestId('visit-call').waitFor({ timeout: 20_000 });
    await ok(doctor.session.request('POST', `/visits/${appointmentId}/admit`, {}), 'POST admit');

    await patient.getByTestId('visit-call').waitFor({ timeout: 20_000 });
    await waitForRemoteVideos(host, 1, 60_000);
    await waitForRemoteVideos(patient, 1, 60_000);
    await expectRelayedVideo(host, `user:${doctor.id}`);
    await expectRelayedVideo(patient, patientKey);
    await Promise.all([patient.context().close(), host.context().close()]);
  });

  it('issues credentials coturn refuses once they expire, while fresh ones work', async () => {
    // A second app server on the same relay with five-second credentials.
    const shortLived = await startServer({
      env: { TURN_SECRET: coturn.secret, TURN_URLS: coturn.url, TURN_TTL_SECONDS: '5' },
    });
    try {
      await prepareVisitClinic(shortLived.baseUrl);
      const doctor = await prepareDoctor(shortLived.baseUrl, 'medico2@example.com');
      const patientApi = new ApiSession(shortLived.baseUrl);
      await patientApi.signIn('paciente2@example.com');
      const appointmentId = await bookVisitNow(patientApi, doctor.id);
      const state = await ok(
        patientApi.request<StateWithIce>('GET', `/visits/${appointmentId}`),
        'GET visit state',
      );
      expect(state.iceServersTtlSeconds).toBe(5);
      const stale = turnEntryOf(state);
      // Someone outside the visit gets no state, so no credentials.
      const outsider = new ApiSession(shortLived.baseUrl);
      await outsider.signIn('paciente1@example.com');
      const refused = await outsider.request('GET', `/visits/${appointmentId}`);
      expect(refused.status).toBe(404);
      expect(JSON.stringify(refused.body)).not.toContain('turn:');
      const expiresAtMs = Number(stale.username.split(':')[0]) * 1000;

      expect(await requestAllocation(coturn.port, stale)).toEqual({ allocated: true });
      // Signed with another secret: refused whatever the time (coturn really checks).
      expect(
        await requestAllocation(coturn.port, { ...stale, credential: 'bm90LXRoZS1yaWdodC1vbmU=' }),
      ).toEqual({
        allocated: false,
        code: 401,
      });

      // The same credentials, asked again until coturn refuses them: that happens after the expiry.
      await expect
        .poll(() => requestAllocation(coturn.port, stale), { timeout: 20_000, interval: 500 })
        .toEqual({ allocated: false, code: 401 });
      expect(Date.now()).toBeGreaterThanOrEqual(expiresAtMs);

      // The page's renewal: the state asked again carries fresh credentials that work.
      const renewed = turnEntryOf(
        await ok(patientApi.request<StateWithIce>('GET', `/visits/${appointmentId}`), 'GET visit state'),
      );
      expect(renewed.username).not.toBe(stale.username);
      expect(await requestAllocation(coturn.port, renewed)).toEqual({ allocated: true });
    } finally {
      await shortLived.stop();
    }
  });
});
