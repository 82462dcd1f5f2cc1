/// <reference lib="dom" />
/**
 * Time from admission to the first remote video frame, on loopback with Chromium's fake camera
 * and microphone (`npm run bench:visit`; needs `npm run build`).
 *
 * App: the built server and two signed-in pages (patient in the waiting room, doctor in the call
 * screen, both with their camera already on). The clock starts when the doctor's
 * `POST /visits/:id/admit` is sent (the call may connect before its answer arrives) and stops at
 * the first decoded remote frame on each page (`requestVideoFrameCallback`, or the decoded-frame
 * counter). Between them: the server moves the
 * patient into the call, `visit.state` and `visit.participantJoined` go out, both pages open an
 * RTCPeerConnection, negotiate through `visit.signal` and connect ICE.
 *
 * Baseline, same run, same browser: two pages with their camera on and a bare RTCPeerConnection
 * each, the offer and the answer handed over directly by `page.evaluate` (no server); from
 * `createOffer` to the first remote frame on each page.
 *
 * Prints median and p90 of each, the ratio app / baseline, the target (median ≤ 500 ms) and a
 * BENCH_RESULT line.
 */
import type { BrowserContext, Page } from 'playwright-core';
import { ApiSession } from '../e2e/support/api.js';
import { launchBrowser, newContext } from '../e2e/support/browser.js';
import { startServer } from '../e2e/support/server.js';
import { signIn } from '../e2e/support/sign-in.js';
import { bookVisitNow, prepareDoctor, prepareVisitClinic } from '../e2e/support/visits.js';

const runs = Number(process.env.VISIT_BENCH_RUNS ?? 7);
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
        const doctorPage = await doctorContext.newPage();
        const patientPage = await patientContext.newPage();
        await signIn(doctorPage, server.baseUrl, doctorEmail!);
        await signIn(patientPage, server.baseUrl, patientEmail!);
        return { doctor, patientApi, doctorPage, patientPage };
      }),
    );

    const app = { patient: [] as number[], doctor: [] as number[] };
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
      await pair.doctorPage.goto(`${server.baseUrl}/admin/visits/${appointmentId}`);
      await pair.patientPage.getByTestId('visit-waiting').waitFor({ timeout: 20_000 });
      await pair.doctorPage.getByTestId('visit-call').waitFor({ timeout: 20_000 });
      for (const page of [pair.patientPage, pair.doctorPage]) {
        await page.waitForFunction(
          () => {
            const video = document.querySelector<HTMLVideoElement>(
              '[data-testid="visit-lobby-preview-video"], [data-testid="visit-self-video"]',
            );
            return video !== null && video.videoWidth > 0;
          },
          undefined,
          { timeout: 20_000 },
        );
      }
      await pair.doctorPage.waitForTimeout(500);
      const selector = '[data-testid="visit-remote"] video';
      await watchFirstRemoteFrame(pair.patientPage, selector);
      await watchFirstRemoteFrame(pair.doctorPage, selector);

      // From the moment the admit request leaves: the call may connect before its answer arrives.
      const admittedAt = Date.now();
      const admitted = await pair.doctor.session.request('POST', `/visits/${appointmentId}/admit`, {});
      if (admitted.status !== 200) {
        throw new Error(`admit answered ${admitted.status}: ${JSON.stringify(admitted.body)}`);
      }
      const [patientFrame, doctorFrame] = await Promise.all([
        firstFrameAt(pair.patientPage),
        firstFrameAt(pair.doctorPage),
      ]);
      app.patient.push(patientFrame - admittedAt);
      app.doctor.push(doctorFrame - admittedAt);
      console.log(
        `run ${run + 1}/${runs}: patient ${patientFrame - admittedAt} ms, doctor ${doctorFrame - admittedAt} ms`,
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
    console.log('');
    console.log(`admit → first remote frame (${runs} runs, loopback, fake media)`);
    console.log(`  patient page: median ${patient.median} ms, p90 ${patient.p90} ms`);
    console.log(`  doctor page:  median ${doctor.median} ms, p90 ${doctor.p90} ms`);
    console.log(
      `  baseline (bare RTCPeerConnection pair, no server): median ${bare.median} ms, p90 ${bare.p90} ms`,
    );
    console.log(
      `  ratio app / baseline (median): patient ${ratio(patient.median, bare.median)}, doctor ${ratio(doctor.median, bare.median)}`,
    );
    console.log(
      `  target: median ≤ 500 ms — ${Math.max(patient.median, doctor.median) <= 500 ? 'met' : 'NOT met'}`,
    );
    console.log(
      `BENCH_RESULT ${JSON.stringify({
        name: 'visit-first-frame',
        metrics: [
          {
            label: 'admit → first remote frame, patient page (median)',
            value: patient.median,
            unit: 'ms',
            baseline: bare.median,
            ratio: ratio(patient.median, bare.median),
            target: '≤ 500 ms',
          },
          {
            label: 'admit → first remote frame, doctor page (median)',
            value: doctor.median,
            unit: 'ms',
            baseline: bare.median,
            ratio: ratio(doctor.median, bare.median),
            target: '≤ 500 ms',
          },
          {
            label: 'admit → first remote frame, slower page (p90)',
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
