/// <reference lib="dom" />
/**
 * Time from the doctor's click on "Admit" to the first remote video frame on both pages, on the
 * path people take, on loopback with Chromium's fake camera and microphone (`npm run bench:visit`;
 * needs `npm run build`).
 *
 * App: the built server and two signed-in pages: the patient checked in and waiting (camera on),
 * the doctor on the waiting-room page (`/admin/waiting-room`) with the patient listed as connected,
 * the camera preview ready and the call prepared there (connection made, offer held). The clock
 * starts at the click on the entry's admit button (a real click; the time of its `click` event in
 * the doctor's page) and stops at the first decoded remote frame on each page
 * (`requestVideoFrameCallback`, or the decoded-frame counter). Between them: the call screen opens
 * with the preview's camera and the prepared connection, joins the call and admits; the server
 * moves the patient into the call and announces them; the held offer goes out; the patient answers;
 * ICE and DTLS connect. Each run also reports whether admitting asked for the camera again or made
 * a second offer (both should be 0).
 *
 * Baseline, same run, same browser: two pages with their camera on and a bare RTCPeerConnection
 * each, the offer and the answer handed over directly by `page.evaluate` (no server); from
 * `createOffer` to the first remote frame on each page.
 *
 * Prints median and p90 of each, the ratio app / baseline per page, the target (median ≤ 1.5×
 * the baseline's on both pages) and a BENCH_RESULT line.
 */
import type { BrowserContext, Page } from 'playwright-core';
import { ApiSession } from '../e2e/support/api.js';
import { launchBrowser, newContext } from '../e2e/support/browser.js';
import { callWatch, watchCalls } from '../e2e/support/call-watch.js';
import { startServer } from '../e2e/support/server.js';
import { signIn } from '../e2e/support/sign-in.js';
import { bookVisitNow, prepareDoctor, prepareVisitClinic } from '../e2e/support/visits.js';

const runs = Number(process.env.VISIT_BENCH_RUNS ?? 7);
/** The target: admit → first remote frame at most this many times the bare pair's, on both pages. */
const targetRatio = 1.5;
// Two doctors, each with four five-minute slots whose check-in (15 minutes before) is open at once.
if (!Number.isInteger(runs) || runs < 1 || runs > 8) {
  throw new Error(
    `VISIT_BENCH_RUNS must be 1 to 8 (two doctors × four slots open for check-in), not ${runs}`,
  );
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index] ?? Number.NaN;
}

/** Records, in the page, the wall-clock time of the first frame of any remote video tile. */
async function watchFirstRemoteFrame(page: Page, selector: string): Promise<void> {
  await page.evaluate((query) => {
    const scope = window as unknown as { __firstFrame: number | null; __watch?: number };
    scope.__firstFrame = null;
    if (scope.__watch) {
      clearInterval(scope.__watch);
    }
    const seen = new WeakSet<HTMLVideoElement>();
    scope.__watch = window.setInterval(() => {
      for (const video of document.querySelectorAll<HTMLVideoElement>(query)) {
        if (!seen.has(video)) {
          seen.add(video);
          video.requestVideoFrameCallback(() => {
            scope.__firstFrame ??= Date.now();
          });
        }
        if (video.getVideoPlaybackQuality().totalVideoFrames > 0 && video.videoWidth > 0) {
          scope.__firstFrame ??= Date.now();
        }
      }
      if (scope.__firstFrame !== null) {
        clearInterval(scope.__watch);
      }
    }, 2);
  }, selector);
}

async function firstFrameAt(page: Page, timeoutMs = 20_000): Promise<number> {
  const handle = await page.waitForFunction(
    () => (window as unknown as { __firstFrame: number | null }).__firstFrame,
    undefined,
    { timeout: timeoutMs, polling: 10 },
  );
  return (await handle.jsonValue()) as number;
}

async function main(): Promise<void> {
  const server = await startServer();
  const browser = await launchBrowser({ fakeMedia: true });
  const contexts: BrowserContext[] = [];
  try {
    await prepareVisitClinic(server.baseUrl);
    const pairs = await Promise.all(
      [
        ['medico1@example.com', 'paciente1@example.com'],
        ['medico2@example.com', 'paciente2@example.com'],
      ].map(async ([doctorEmail, patientEmail]) => {
        const doctor = await prepareDoctor(server.baseUrl, doctorEmail!);
        const patientApi = new ApiSession(server.baseUrl);
        await patientApi.signIn(patientEmail!);
        const doctorContext = await newContext(browser.browser, { viewport: 'desktop' });
        const patientContext = await newContext(browser.browser, { viewport: 'desktop' });
        contexts.push(doctorContext, patientContext);
        await watchCalls(doctorContext);
        const doctorPage = await doctorContext.newPage();
        doctorPage.on('console', (message) => {
          if (message.type() === 'error' || message.type() === 'warning') {
            console.log(`[doctor page ${message.type()}] ${message.text()}`);
          }
        });
        doctorPage.on('pageerror', (error) => console.log(`[doctor page error] ${error.message}`));
        const patientPage = await patientContext.newPage();
        await signIn(doctorPage, server.baseUrl, doctorEmail!);
        await signIn(patientPage, server.baseUrl, patientEmail!);
        return { doctor, patientApi, doctorPage, patientPage };
      }),
    );

    const app = { patient: [] as number[], doctor: [] as number[] };
    const reOffers: number[] = [];
    const cameraRequests: number[] = [];
    for (let run = 0; run < runs; run += 1) {
      const pair = pairs[run % pairs.length]!;
      const appointmentId = await bookVisitNow(pair.patientApi, pair.doctor.id, 'Benchmark');
      let checkedIn = await pair.patientApi.request<{ error?: { details?: { opensAt?: string } } }>(
        'POST',
        `/visits/${appointmentId}/check-in`,
        {},
      );
      const opensAt = Date.parse(checkedIn.body.error?.details?.opensAt ?? '');
      if (checkedIn.status === 409 && opensAt - Date.now() < 120_000) {
        // A later five-minute slot: its check-in opens within a minute or two.
        console.log(`waiting ${Math.ceil((opensAt - Date.now()) / 1000)} s for check-in to open`);
        await new Promise((resolve) => setTimeout(resolve, Math.max(0, opensAt - Date.now()) + 1_000));
        checkedIn = await pair.patientApi.request('POST', `/visits/${appointmentId}/check-in`, {});
      }
      if (checkedIn.status !== 200) {
        throw new Error(`check-in answered ${checkedIn.status}: ${JSON.stringify(checkedIn.body)}`);
      }
      // The device check was done (this page session): straight to the waiting room.
      await pair.patientPage.evaluate(
        (id) => sessionStorage.setItem(`telemedicina.visit.checked.${id}`, '1'),
        appointmentId,
      );
      await pair.patientPage.goto(`${server.baseUrl}/admin/visits/${appointmentId}`);
      await pair.patientPage.getByTestId('visit-waiting').waitFor({ timeout: 20_000 });
      await pair.patientPage.waitForFunction(
        () =>
          (document.querySelector<HTMLVideoElement>('[data-testid="visit-lobby-preview-video"]')
            ?.videoWidth ?? 0) > 0,
        undefined,
        { timeout: 20_000 },
      );
      // The doctor on the waiting room: the patient connected, the preview ready, the call prepared.
      const { doctorPage } = pair;
      await doctorPage.goto(`${server.baseUrl}/admin/waiting-room`);
      const entry = doctorPage.locator(
        `[data-testid="waiting-room-entry"][data-appointment="${appointmentId}"]`,
      );
      await entry.waitFor({ timeout: 20_000 });
      try {
        await doctorPage.waitForFunction(
          (id) => {
            const online = document.querySelector(
              `[data-testid="waiting-room-entry"][data-appointment="${id}"] [data-testid="waiting-room-online"]`,
            );
            const preview = document.querySelector<HTMLElement>('[data-testid="admission-preview"]');
            const video = document.querySelector<HTMLVideoElement>(
              '[data-testid="admission-preview-tile-video"]',
            );
            const watch = (window as unknown as { __callWatch?: { offers: number } }).__callWatch;
            const readiness = {
              online: online?.getAttribute('data-online') === 'true',
              preview: preview?.dataset.state ?? null,
              prepared: Number(preview?.dataset.prepared ?? 0),
              camera: (video?.videoWidth ?? 0) > 0,
              offers: watch?.offers ?? 0,
            };
            (window as unknown as { __readiness: unknown }).__readiness = readiness;
            return (
              readiness.online &&
              readiness.preview === 'ready' &&
              readiness.prepared >= 1 &&
              readiness.camera &&
              readiness.offers >= 1
            );
          },
          appointmentId,
          { timeout: 20_000, polling: 50 },
        );
      } catch (error) {
        const readiness = await doctorPage.evaluate(() => ({
          ...((window as unknown as { __readiness: object }).__readiness ?? {}),
          peerConnections: ((window as unknown as { __pcs?: RTCPeerConnection[] }).__pcs ?? []).map((pc) => ({
            signaling: pc.signalingState,
            transceivers: pc.getTransceivers().length,
            local: pc.localDescription?.type ?? null,
          })),
        }));
        throw new Error(`The waiting room was not ready to admit: ${JSON.stringify(readiness)}`, {
          cause: error,
        });
      }
      const before = await callWatch(doctorPage);
      const selector = '[data-testid="visit-remote"] video';
      await watchFirstRemoteFrame(pair.patientPage, selector);
      await watchFirstRemoteFrame(doctorPage, selector);
      await doctorPage.evaluate(() => {
        const scope = window as unknown as { __admitClickAt: number | null };
        scope.__admitClickAt = null;
        document.addEventListener(
          'click',
          (event) => {
            if ((event.target as Element | null)?.closest('[data-testid="waiting-room-admit"]')) {
              scope.__admitClickAt ??= Date.now();
            }
          },
          { capture: true },
        );
      });

      const marks: Record<string, number> = {};
      const onRequest = (request: { url: () => string; method: () => string }) => {
        if (request.method() === 'POST' && request.url().endsWith('/admit')) {
          marks.admitSent ??= Date.now();
        }
      };
      const onResponse = (response: { url: () => string; request: () => { method: () => string } }) => {
        if (response.request().method() === 'POST' && response.url().endsWith('/admit')) {
          marks.admitAnswered ??= Date.now();
        }
      };
      doctorPage.on('request', onRequest);
      doctorPage.on('response', onResponse);
      void doctorPage
        .getByTestId('visit-call')
        .waitFor({ timeout: 20_000 })
        .then(
          () => (marks.callShown ??= Date.now()),
          () => undefined,
        );
      void pair.patientPage
        .getByTestId('visit-call')
        .waitFor({ timeout: 20_000 })
        .then(
          () => (marks.patientCallShown ??= Date.now()),
          () => undefined,
        );
      // A real click on the admit button; the clock starts at its click event in the page.
      await entry.getByTestId('waiting-room-admit').click();
      const [patientFrame, doctorFrame] = await Promise.all([
        firstFrameAt(pair.patientPage),
        firstFrameAt(doctorPage),
      ]);
      const clickedAt = await doctorPage.evaluate(
        () => (window as unknown as { __admitClickAt: number | null }).__admitClickAt,
      );
      if (clickedAt === null) {
        throw new Error('The admit click was not seen by the page');
      }
      const after = await callWatch(doctorPage);
      doctorPage.off('request', onRequest);
      doctorPage.off('response', onResponse);
      const since = (at: number | null | undefined) =>
        at === null || at === undefined ? '?' : `${at - clickedAt}`;
      console.log(
        `  after the click (ms): call screen ${since(marks.callShown)}, admit sent ${since(marks.admitSent)}, ` +
          `answered ${since(marks.admitAnswered)}, patient's call screen ${since(marks.patientCallShown)}, ` +
          `doctor's connection up ${since(after.connectedAt)}`,
      );
      app.patient.push(patientFrame - clickedAt);
      app.doctor.push(doctorFrame - clickedAt);
      reOffers.push(after.offers - before.offers);
      cameraRequests.push(after.mediaRequests - before.mediaRequests);
      console.log(
        `run ${run + 1}/${runs}: patient ${patientFrame - clickedAt} ms, doctor ${doctorFrame - clickedAt} ms` +
          ` (offers after the click ${after.offers - before.offers}, camera requests ${after.mediaRequests - before.mediaRequests})`,
      );
      await pair.doctor.session.request('POST', `/visits/${appointmentId}/end`, {});
      await pair.patientPage.getByTestId('visit-ended').waitFor({ timeout: 20_000 });
    }

    // Baseline: bare peer connections, signalling handed over by the test itself.
    const baseline = { offerer: [] as number[], answerer: [] as number[] };
    const baselineContexts = await Promise.all([0, 1].map(() => newContext(browser.browser)));
    contexts.push(...baselineContexts);
    const [pageA, pageB] = await Promise.all(baselineContexts.map((context) => context.newPage()));
    for (const page of [pageA!, pageB!]) {
      await page.goto(`${server.baseUrl}/error-500`);
    }
    for (let run = 0; run < runs; run += 1) {
      for (const page of [pageA!, pageB!]) {
        await page.evaluate(async () => {
          const scope = window as unknown as { pc?: RTCPeerConnection; stream?: MediaStream };
          scope.pc?.close();
          document.querySelectorAll('video[data-bench]').forEach((video) => video.remove());
          scope.stream ??= await navigator.mediaDevices.getUserMedia({ audio: true, video: true });
          const pc = new RTCPeerConnection({ iceServers: [] });
          for (const track of scope.stream.getTracks()) {
            pc.addTrack(track, scope.stream);
          }
          pc.ontrack = ({ streams }) => {
            let video = document.querySelector<HTMLVideoElement>('video[data-bench]');
            if (!video) {
              video = document.createElement('video');
              video.dataset.bench = '1';
              video.dataset.testid = 'bench-remote';
              video.muted = true;
              video.autoplay = true;
              video.playsInline = true;
              document.body.append(video);
            }
            video.srcObject = streams[0] ?? null;
          };
          scope.pc = pc;
        });
        await watchFirstRemoteFrame(page, 'video[data-bench]');
      }
      const started = Date.now();
      const offer = await pageA!.evaluate(async () => {
        const pc = (window as unknown as { pc: RTCPeerConnection }).pc;
        await pc.setLocalDescription(await pc.createOffer());
        await waitForGathering(pc);
        return pc.localDescription!.toJSON();
        function waitForGathering(connection: RTCPeerConnection): Promise<void> {
          return connection.iceGatheringState === 'complete'
            ? Promise.resolve()
            : new Promise((resolve) =>
                connection.addEventListener('icegatheringstatechange', () => {
                  if (connection.iceGatheringState === 'complete') {
                    resolve();
                  }
                }),
              );
        }
      });
      const answer = await pageB!.evaluate(async (description) => {
        const pc = (window as unknown as { pc: RTCPeerConnection }).pc;
        await pc.setRemoteDescription(description);
        await pc.setLocalDescription(await pc.createAnswer());
        if (pc.iceGatheringState !== 'complete') {
          await new Promise<void>((resolve) =>
            pc.addEventListener('icegatheringstatechange', () => {
              if (pc.iceGatheringState === 'complete') {
                resolve();
              }
            }),
          );
        }
        return pc.localDescription!.toJSON();
      }, offer);
      await pageA!.evaluate(async (description) => {
        await (window as unknown as { pc: RTCPeerConnection }).pc.setRemoteDescription(description);
      }, answer);
      const [offererFrame, answererFrame] = await Promise.all([firstFrameAt(pageA!), firstFrameAt(pageB!)]);
      baseline.offerer.push(offererFrame - started);
      baseline.answerer.push(answererFrame - started);
      console.log(
        `baseline ${run + 1}/${runs}: offerer ${offererFrame - started} ms, answerer ${answererFrame - started} ms`,
      );
    }

    const summary = (values: number[]) => ({ median: percentile(values, 50), p90: percentile(values, 90) });
    const patient = summary(app.patient);
    const doctor = summary(app.doctor);
    const bare = summary([...baseline.offerer, ...baseline.answerer]);
    const ratio = (value: number, base: number) => Number((value / base).toFixed(2));
    const patientRatio = ratio(patient.median, bare.median);
    const doctorRatio = ratio(doctor.median, bare.median);
    const isMet = patientRatio <= targetRatio && doctorRatio <= targetRatio;
    console.log('');
    console.log(
      `doctor's click on Admit (waiting-room page) → first remote frame (${runs} runs, loopback, fake media)`,
    );
    console.log(`  patient page: median ${patient.median} ms, p90 ${patient.p90} ms`);
    console.log(`  doctor page:  median ${doctor.median} ms, p90 ${doctor.p90} ms`);
    console.log(
      `  baseline (bare RTCPeerConnection pair, no server): median ${bare.median} ms, p90 ${bare.p90} ms`,
    );
    console.log(`  ratio app / baseline (median): patient ${patientRatio}, doctor ${doctorRatio}`);
    console.log(
      `  offers made after the click: ${reOffers.join(', ')}; camera requests after the click: ${cameraRequests.join(', ')}`,
    );
    console.log(
      `  target: median ≤ ${targetRatio}× the baseline on both pages — ${isMet ? 'met' : 'NOT met'}`,
    );
    console.log(
      `BENCH_RESULT ${JSON.stringify({
        name: 'visit-first-frame',
        metrics: [
          {
            label: 'admit click → first remote frame, patient page (median)',
            value: patient.median,
            unit: 'ms',
            baseline: bare.median,
            ratio: patientRatio,
            target: `≤ ${targetRatio}× baseline`,
            met: patientRatio <= targetRatio,
          },
          {
            label: 'admit click → first remote frame, doctor page (median)',
            value: doctor.median,
            unit: 'ms',
            baseline: bare.median,
            ratio: doctorRatio,
            target: `≤ ${targetRatio}× baseline`,
            met: doctorRatio <= targetRatio,
          },
          {
            label: 'admit click → first remote frame, slower page (p90)',
            value: Math.max(patient.p90, doctor.p90),
            unit: 'ms',
            baseline: bare.p90,
            ratio: ratio(Math.max(patient.p90, doctor.p90), bare.p90),
            target: null,
          },
        ],
      })}`,
    );
  } finally {
    for (const context of contexts) {
      await context.close().catch(() => undefined);
    }
    await browser.close();
    await server.stop();
  }
}

await main();
