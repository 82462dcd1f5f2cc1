import { screen } from '@testing-library/react';
import type { VisitParticipant, VisitState } from '@telemedicina/shared/visits';
import { MemoryRouter } from 'react-router';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeApi, type FakeApi } from '../../../test/fake-api';
import { sendJson } from '../../../test/http-server';
import { renderWithProviders } from '../../../test/render';
import { emptyChatLog } from '../chat-log';
import { VisitEnded } from './VisitEnded';

const people: Record<'doctor' | 'patient' | 'interpreter', VisitParticipant> = {
  doctor: { key: 'user:doctor-1', name: 'Dra. Lucía Ruiz', role: 'doctor' },
  patient: { key: 'user:patient-1', name: 'Pedro Gómez', role: 'patient' },
  interpreter: { key: 'guest:g-1', name: 'Marta Intérprete', role: 'interpreter' },
};

function endedVisit(self: VisitParticipant): VisitState {
  return {
    appointmentId: 'a-1',
    status: 'completed',
    phase: 'ended',
    startsAt: '2026-11-21T16:00:00.000Z',
    endsAt: '2026-11-21T16:30:00.000Z',
    checkInOpensAt: '2026-11-21T15:45:00.000Z',
    checkedInAt: '2026-11-21T15:50:00.000Z',
    admittedAt: '2026-11-21T16:00:00.000Z',
    startedAt: '2026-11-21T16:00:00.000Z',
    endedAt: '2026-11-21T16:20:00.000Z',
    doctor: { id: 'doctor-1', name: 'Dra. Lucía Ruiz', timeZone: 'America/Mexico_City' },
    patient: { id: 'patient-1', name: 'Pedro Gómez' },
    self,
    queuePosition: null,
    estimatedWaitMinutes: null,
    runningLateMinutes: null,
    deviceCheck: null,
    iceServers: [],
    canShareFiles: false,
    canInvite: false,
    canHost: self.role === 'doctor',
  };
}

function renderEnded(self: VisitParticipant, language: 'es' | 'en' = 'es', showLinks = true) {
  return renderWithProviders(
    <MemoryRouter>
      <VisitEnded state={endedVisit(self)} chat={emptyChatLog} showLinks={showLinks} />
    </MemoryRouter>,
    { language },
  );
}

describe('the end-of-call screen speaks to the person reading it', () => {
  let api: FakeApi;
  beforeAll(async () => {
    api = await startFakeApi();
    api.routes['GET /api/v1/visits/a-1/messages'] = (_request, response) =>
      sendJson(response, 200, { data: [], lastSeq: 0 });
    jsdom.reconfigure({ url: `${api.origin}/admin/visits/a-1` });
  });
  afterAll(async () => {
    await api.close();
  });

  it('tells the doctor which patient the visit was with and leads to the visit note', () => {
    renderEnded(people.doctor);
    const body = screen.getByTestId('visit-ended-body').textContent;
    expect(body).toBe('La consulta con Pedro Gómez ha finalizado. Complete la nota de la consulta.');
    expect(body).not.toContain('Su consulta');
    const note = screen.getByTestId('visit-ended-note');
    expect(note.textContent).toBe('Completar la nota');
    expect(note.getAttribute('href')).toBe('/admin/appointments/a-1/note');
  });

  it('the doctor reads it in English too', () => {
    renderEnded(people.doctor, 'en');
    expect(screen.getByTestId('visit-ended-body').textContent).toBe(
      'The visit with Pedro Gómez has ended. Complete the visit note.',
    );
    expect(screen.getByTestId('visit-ended-note').textContent).toBe('Complete the note');
  });

  it('the patient keeps their thanks, naming the doctor, and has no note to finish', () => {
    renderEnded(people.patient);
    expect(screen.getByTestId('visit-ended-body').textContent).toBe(
      'Gracias. Su consulta con Dra. Lucía Ruiz ha finalizado.',
    );
    expect(screen.queryByTestId('visit-ended-note')).toBeNull();
  });

  it('a guest (an interpreter) is not told it was their visit', () => {
    renderEnded(people.interpreter, 'es', false);
    expect(screen.getByTestId('visit-ended-body').textContent).toBe(
      'Gracias. La consulta de Pedro Gómez con Dra. Lucía Ruiz ha finalizado.',
    );
    expect(screen.queryByTestId('visit-ended-note')).toBeNull();
  });
});
