import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { VisitParticipant, VisitState } from '@telemedicina/shared/visits';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../../test/render';
import { emptyChatLog } from '../chat-log';
import type { LocalMedia } from '../hooks/use-local-media';
import type { PeerMeshHandle } from '../hooks/use-peer-mesh';
import type { VisitSession } from '../hooks/use-visit-session';
import { CallView, phoneCallQuery } from './CallView';

const people: Record<'doctor' | 'patient' | 'interpreter', VisitParticipant> = {
  doctor: { key: 'user:doctor-1', name: 'Dra. Lucía Ruiz', role: 'doctor' },
  patient: { key: 'user:patient-1', name: 'Pedro Gómez', role: 'patient' },
  interpreter: { key: 'guest:g-1', name: 'Marta Intérprete', role: 'interpreter' },
};

function callState(self: VisitParticipant): VisitState {
  return {
    appointmentId: 'a-1',
    status: 'in_progress',
    phase: 'in_call',
    startsAt: '2026-11-21T16:00:00.000Z',
    endsAt: '2026-11-21T16:30:00.000Z',
    checkInOpensAt: '2026-11-21T15:45:00.000Z',
    checkedInAt: '2026-11-21T15:50:00.000Z',
    admittedAt: '2026-11-21T16:00:00.000Z',
    startedAt: '2026-11-21T16:00:00.000Z',
    endedAt: null,
    doctor: { id: 'doctor-1', name: 'Dra. Lucía Ruiz', timeZone: 'America/Mexico_City' },
    patient: { id: 'patient-1', name: 'Pedro Gómez' },
    self,
    queuePosition: null,
    estimatedWaitMinutes: null,
    runningLateMinutes: null,
    deviceCheck: null,
    iceServers: [],
    canShareFiles: false,
    canInvite: self.role === 'doctor',
    canHost: self.role === 'doctor',
  };
}

const session = {
  inCall: true,
  joined: true,
  joinError: null,
  participants: new Map(),
  reconnecting: new Set<string>(),
  media: new Map(),
  chat: emptyChatLog,
  typing: [],
  waitingMessages: [],
  sendChat: () => undefined,
  setTyping: () => undefined,
  addMessages: () => undefined,
  sendMedia: () => undefined,
} satisfies VisitSession;

const media = {
  stream: null,
  cameraProblem: null,
  microphoneProblem: null,
  cameras: [],
  microphones: [],
  speakers: [],
  cameraId: null,
  microphoneId: null,
  isStarting: false,
  isMuted: false,
  isCameraOff: false,
  setMuted: () => undefined,
  setCameraOff: () => undefined,
  setCameraId: () => undefined,
  setMicrophoneId: () => undefined,
  switchCamera: () => undefined,
} satisfies LocalMedia;

const peers: PeerMeshHandle = {
  peers: [],
  mesh: null,
  connect: () => undefined,
  close: () => undefined,
  rebuild: () => undefined,
  handleSignal: () => undefined,
};

const originalMatchMedia = window.matchMedia.bind(window);

/** The phone layout's media query matches (as on a 390 px or 844×390 screen). */
function asPhone() {
  window.matchMedia = (query: string) => {
    const result = originalMatchMedia(query);
    return query === phoneCallQuery ? { ...result, matches: true } : result;
  };
}

beforeAll(() => {
  // Mantine's autosizing textarea (the chat beside the call) listens to font loading, which jsdom lacks.
  if (!('fonts' in document)) {
    Object.defineProperty(document, 'fonts', {
      value: { addEventListener: () => undefined, removeEventListener: () => undefined },
      configurable: true,
    });
  }
});

afterEach(() => {
  window.matchMedia = originalMatchMedia;
  vi.restoreAllMocks();
});

function renderCall(
  self: VisitParticipant,
  onLeave?: () => void,
  language: 'es' | 'en' = 'es',
  call: { session?: VisitSession; peers?: PeerMeshHandle } = {},
) {
  return renderWithProviders(
    <MemoryRouter>
      <CallView
        state={callState(self)}
        session={call.session ?? session}
        media={media}
        peers={call.peers ?? peers}
        waiting={[]}
        onLeave={onLeave}
      />
    </MemoryRouter>,
    { language },
  );
}

describe('CallView controls', () => {
  it('the patient has a visible hang-up that, once confirmed, leaves the call (and cannot end the visit)', async () => {
    const onLeave = vi.fn();
    renderCall(people.patient, onLeave);
    const hangUp = screen.getByTestId('visit-leave');
    expect(hangUp.textContent).toBe('Salir de la llamada');
    expect(screen.queryByTestId('visit-end')).toBeNull();
    await userEvent.click(hangUp);
    const dialog = await screen.findByRole('dialog');
    expect(dialog.textContent).toContain('puede volver a entrar');
    expect(onLeave).not.toHaveBeenCalled();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Salir de la llamada' }));
    expect(onLeave).toHaveBeenCalledTimes(1);
  });

  it('a guest has the same hang-up, in English', () => {
    renderCall(people.interpreter, () => undefined, 'en');
    expect(screen.getByTestId('visit-leave').textContent).toBe('Leave the call');
  });

  it('the doctor hangs up by ending the visit', () => {
    renderCall(people.doctor);
    expect(screen.getByTestId('visit-end').textContent).toBe('Finalizar consulta');
    expect(screen.queryByTestId('visit-leave')).toBeNull();
  });

  it('the timer is neutral (no red dot that reads as recording) and says what it counts', () => {
    renderCall(people.patient, () => undefined);
    const timer = screen.getByTestId('visit-call-timer');
    expect(timer.getAttribute('data-variant')).not.toBe('dot');
    expect(timer.textContent).toMatch(/^Tiempo de llamada [\d:]+$/);
  });

  it('on a phone: a round hang-up named for assistive tech, chat behind a button, no full-screen button', () => {
    asPhone();
    renderCall(people.patient, () => undefined);
    const hangUp = screen.getByTestId('visit-leave');
    expect(hangUp.getAttribute('aria-label')).toBe('Salir de la llamada');
    expect(screen.getByTestId('visit-chat-open')).toBeTruthy();
    expect(screen.queryByTestId('visit-fullscreen')).toBeNull();
    expect(screen.getByTestId('visit-call').className).toMatch(/callPhone/);
    // The hang-up comes last: at the thumb's end of the controls.
    const controls = screen.getByTestId('visit-controls');
    expect(controls.lastElementChild?.contains(hangUp) ?? false).toBe(true);
  });

  it('on a phone the doctor keeps chart, prescription and invite in one "more" menu, and the end button', async () => {
    asPhone();
    renderCall(people.doctor);
    expect(screen.getByTestId('visit-end').getAttribute('aria-label')).toBe('Finalizar consulta');
    expect(screen.queryByTestId('visit-open-chart')).toBeNull();
    await userEvent.click(screen.getByTestId('visit-more'));
    const chart = await screen.findByTestId('visit-open-chart');
    expect(chart.getAttribute('role')).toBe('menuitem');
    expect(chart.getAttribute('href')).toBe('/admin/patients/patient-1');
    expect(screen.getByTestId('visit-prescribe').getAttribute('href')).toBe(
      '/admin/patients/patient-1/prescriptions/new?appointmentId=a-1',
    );
    expect(screen.getByTestId('visit-invite').getAttribute('role')).toBe('menuitem');
  });
});

describe('CallView connection', () => {
  const withPatient = (connectionState: RTCPeerConnectionState): PeerMeshHandle => ({
    ...peers,
    peers: [{ key: people.patient.key, stream: null, connectionState }],
  });
  const patientMedia = (quality: 'high' | 'audio_only' | 'chat_only', indicator: 'good' | 'weak') =>
    new Map([
      [
        people.patient.key,
        {
          audio: true,
          video: quality === 'high',
          screen: false,
          quality,
          reading: { indicator, rttMs: indicator === 'good' ? 40 : 800, packetLoss: 0, relayed: false },
        },
      ],
    ]);

  it('the doctor sees the patient’s connection in words and is told when the call steps down', () => {
    renderCall(people.doctor, undefined, 'es', {
      peers: withPatient('connected'),
      session: {
        ...session,
        participants: new Map([[people.patient.key, people.patient]]),
        media: patientMedia('audio_only', 'weak'),
      },
    });
    const theirs = screen.getByTestId('visit-remote-quality');
    // Each badge says whose connection it is (on a phone both sit near each other).
    expect(theirs.textContent).toBe('Conexión del paciente: débil');
    expect(screen.getByTestId('visit-call-quality').textContent).toMatch(/^Su conexión: /);
    expect(theirs.getAttribute('aria-label')).toBe('Conexión de Pedro Gómez: débil');
    expect(screen.getByTestId('visit-call-step-down').textContent).toBe(
      'La conexión de Pedro Gómez es débil: seguimos solo con audio.',
    );
    expect(screen.queryByTestId('visit-remote-reconnecting')).toBeNull();
  });

  it('shows the level in words over the patient’s picture at audio only, not their last frozen frame', () => {
    const stream = {
      getVideoTracks: () => [{ kind: 'video' }],
      getAudioTracks: () => [],
      getTracks: () => [{ kind: 'video' }],
    } as unknown as MediaStream;
    // jsdom plays nothing: play() resolves as a browser's would.
    vi.spyOn(HTMLMediaElement.prototype, 'play').mockImplementation(() => Promise.resolve());
    const media = patientMedia('audio_only', 'weak');
    // Their camera is still on: it is the connection that stopped the video.
    media.set(people.patient.key, { ...media.get(people.patient.key)!, video: true });
    renderCall(people.doctor, undefined, 'es', {
      peers: { ...peers, peers: [{ key: people.patient.key, stream, connectionState: 'connected' }] },
      session: { ...session, media },
    });
    expect(screen.getByText('Solo audio: conexión débil')).toBeTruthy();
    expect(screen.getByTestId('visit-remote-video').style.visibility).toBe('hidden');
  });

  it('no notice while everyone has full video; the patient’s chat-only level is said in English too', () => {
    const { unmount } = renderCall(people.doctor, undefined, 'es', {
      peers: withPatient('connected'),
      session: { ...session, media: patientMedia('high', 'good') },
    });
    expect(screen.getByTestId('visit-remote-quality').getAttribute('aria-label')).toBe(
      'Conexión de Pedro Gómez: buena',
    );
    expect(screen.queryByTestId('visit-call-step-down')).toBeNull();
    unmount();
    renderCall(people.doctor, undefined, 'en', {
      peers: withPatient('connected'),
      session: {
        ...session,
        participants: new Map([[people.patient.key, people.patient]]),
        media: patientMedia('chat_only', 'weak'),
      },
    });
    expect(screen.getByTestId('visit-call-step-down').textContent).toBe(
      "Pedro Gómez's connection is very weak: continuing by chat only.",
    );
    expect(screen.getByTestId('visit-remote-quality').textContent).toBe("Patient's connection: weak");
    expect(screen.getByTestId('visit-call-quality').textContent).toMatch(/^Your connection: /);
  });

  it('covers the picture with "reconnecting" once a connected participant drops, not while first connecting', () => {
    const { unmount } = renderCall(people.doctor, undefined, 'es', { peers: withPatient('connecting') });
    expect(screen.queryByTestId('visit-remote-reconnecting')).toBeNull();
    unmount();
    renderCall(people.doctor, undefined, 'es', {
      peers: withPatient('connected'),
      session: {
        ...session,
        reconnecting: new Set([people.patient.key]),
        media: patientMedia('high', 'good'),
      },
    });
    const overlay = screen.getByTestId('visit-remote-reconnecting');
    expect(overlay.textContent).toContain('Reconectando…');
    expect(overlay.textContent).toContain('Se interrumpió la conexión de Pedro Gómez');
    // Their last reading ("good") is stale meanwhile: not shown.
    expect(screen.queryByTestId('visit-remote-quality')).toBeNull();
  });
});
