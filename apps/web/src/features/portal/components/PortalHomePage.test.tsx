import { act, screen, waitFor, within } from '@testing-library/react';
import type { Appointment } from '@telemedicina/shared/appointment';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { matchEmptyMediaQuery } from '../../../components/list-table/testing';
import { sampleMe, startFakeApi, type FakeApi } from '../../../test/fake-api';
import { sendJson } from '../../../test/http-server';
import { renderApp } from '../../../test/render-app';

const slow = { timeout: 20_000 };
const minute = 60_000;
/** Tuesday 1 December 2026, 10:00 in Mexico City (the account's zone); 17:00 in Madrid (the device's, in the browser journeys). */
const now = new Date('2026-12-01T16:00:00.000Z');

function visit(overrides: Partial<Appointment> & { inMinutes: number }): Appointment {
  const { inMinutes, ...rest } = overrides;
  const startsAt = new Date(now.getTime() + inMinutes * minute);
  return {
    id: 'a-1',
    doctor: { id: 'doc-1', name: 'Dra. Carmen Ruiz', timeZone: 'America/Mexico_City' },
    patient: { id: 'pat-1', name: 'Luis García' },
    startsAt: startsAt.toISOString(),
    endsAt: new Date(startsAt.getTime() + 30 * minute).toISOString(),
    status: 'confirmed',
    reason: null,
    createdAt: '2026-11-01T00:00:00.000Z',
    cancelledAt: null,
    cancellationReason: null,
    ...rest,
  };
}

describe(
  'the patient portal home (/portal): the next visit and its one right action',
  { timeout: 60_000 },
  () => {
    let api: FakeApi;
    let restoreMatchMedia: () => void;
    let upcoming: Appointment[];
    let past: Appointment[];

    beforeAll(async () => {
      restoreMatchMedia = matchEmptyMediaQuery();
      api = await startFakeApi();
      jsdom.reconfigure({ url: `${api.origin}/` });
    });
    afterAll(async () => {
      restoreMatchMedia();
      await api.close();
    });
    beforeEach(() => {
      // Only the clock the page reads (Date) and its half-minute tick are faked: the fake API's
      // sockets keep real timers.
      vi.useFakeTimers({ now, toFake: ['Date', 'setInterval', 'clearInterval'] });
      api.reset();
      upcoming = [];
      past = [];
      const me = sampleMe({
        permissions: ['doctors.read', 'appointments.book.self', 'appointments.read.own', 'records.read.own'],
        user: { id: 'pat-1', name: 'Luis García', timeZone: 'America/Mexico_City' },
      });
      api.routes['GET /api/v1/me'] = (_request, response) => sendJson(response, 200, me);
      api.routes['GET /api/v1/appointments'] = (request, response) => {
        const query = new URL(request.url ?? '', 'http://x').searchParams;
        const data = query.get('status') === 'completed' ? past : upcoming;
        sendJson(response, 200, { data, page: 1, pageSize: 20, total: data.length });
      };
      api.routes['GET /api/v1/doctors/doc-1'] = (_request, response) =>
        sendJson(response, 200, {
          id: 'doc-1',
          name: 'Dra. Carmen Ruiz',
          photoUrl: null,
          specialties: [{ id: 's-1', name: { es: 'Cardiología', en: 'Cardiology' } }],
          licenseNumber: 'MX-1',
          languages: ['es'],
          bio: { es: '', en: '' },
          visitMinutes: 30,
          acceptsNewPatients: true,
          timeZone: 'America/Mexico_City',
        });
      api.routes['GET /api/v1/patients/pat-1/notes'] = (_request, response) =>
        sendJson(response, 200, {
          items: [
            {
              id: 'n-1',
              appointmentId: 'done-1',
              visitStartsAt: '2026-11-20T17:00:00.000Z',
              doctor: { id: 'doc-1', name: 'Dra. Carmen Ruiz' },
              status: 'signed',
              signedAt: '2026-11-20T18:00:00.000Z',
              diagnoses: [],
              addendaCount: 0,
            },
          ],
        });
      api.routes['GET /api/v1/patients/pat-1/prescriptions'] = (_request, response) =>
        sendJson(response, 200, {
          items: [
            {
              id: 'rx-1',
              verificationCode: 'ABCD-EFGH-JKMN',
              status: 'active',
              doctor: { id: 'doc-1', name: 'Dra. Carmen Ruiz' },
              issuedAt: '2026-11-20T17:00:00.000Z',
              itemsCount: 1,
              medications: ['Ibuprofeno 400 mg'],
              appointmentId: 'done-1',
            },
          ],
        });
    });
    afterEach(() => {
      vi.useRealTimers();
    });

    it('days before: prepare (device check), add to calendar, change or cancel — and no join button', async () => {
      upcoming = [visit({ id: 'v-3d', inMinutes: 3 * 24 * 60 + 6 * 60 })];
      renderApp('/portal');
      const card = await screen.findByTestId('portal-next-visit', {}, slow);
      expect(card.getAttribute('data-moment')).toBe('ahead');
      // 4 December 16:00 in Mexico City (the account's zone), named in words.
      expect(within(card).getByTestId('portal-next-when').textContent).toMatch(/4 de diciembre.*16:00/);
      expect(within(card).getByTestId('portal-next-zone').textContent).toBe('hora de Ciudad de México');
      expect(within(card).getByTestId('portal-next-countdown').textContent).toBe('dentro de 3 días');
      expect(within(card).getByTestId('portal-next-doctor').textContent).toBe('Dra. Carmen Ruiz');
      expect(await within(card).findByText('Cardiología')).toBeTruthy();
      expect(within(card).getByTestId('portal-next-prepare').getAttribute('href')).toBe(
        '/portal/visits/v-3d/check',
      );
      expect(within(card).getByTestId('portal-next-prepare').textContent).toBe('Preparar la consulta');
      expect(within(card).getByTestId('portal-next-calendar').getAttribute('href')).toBe(
        '/api/v1/appointments/v-3d/calendar.ics',
      );
      expect(within(card).getByTestId('portal-next-change').getAttribute('href')).toBe(
        '/portal/appointments/v-3d',
      );
      expect(within(card).queryByTestId('portal-next-join')).toBeNull();
      expect(within(card).getByTestId('portal-next-hint').textContent).toContain('abre a las 15:45');
    });

    it('25 minutes before: still preparing; once check-in opens (15 minutes before) the main button is joining, without a reload', async () => {
      upcoming = [visit({ id: 'v-soon', inMinutes: 25 })];
      renderApp('/portal');
      const card = await screen.findByTestId('portal-next-visit', {}, slow);
      expect(within(card).getByTestId('portal-next-countdown').textContent).toBe('dentro de 25 minutos');
      expect(within(card).getByTestId('portal-next-prepare')).toBeTruthy();
      expect(within(card).queryByTestId('portal-next-join')).toBeNull();

      act(() => {
        vi.advanceTimersByTime(10 * minute);
      });
      const join = await screen.findByTestId('portal-next-join');
      expect(join.textContent).toBe('Entrar a la videoconsulta');
      expect(join.getAttribute('href')).toBe('/portal/visits/v-soon');
      expect(screen.getByTestId('portal-next-visit').getAttribute('data-moment')).toBe('checkInOpen');
      expect(screen.getByTestId('portal-next-countdown').textContent).toBe('dentro de 15 minutos');
      expect(screen.queryByTestId('portal-next-prepare')).toBeNull();
    });

    it('under way: "En curso" and joining; a later visit that is days away lists no join button', async () => {
      upcoming = [
        visit({ id: 'v-now', inMinutes: -5, status: 'in_progress' }),
        visit({ id: 'v-later', inMinutes: 5 * 24 * 60 }),
      ];
      renderApp('/portal');
      const card = await screen.findByTestId('portal-next-visit', {}, slow);
      expect(card.getAttribute('data-moment')).toBe('underWay');
      expect(within(card).getByTestId('portal-next-countdown').textContent).toBe('En curso');
      expect(within(card).getByTestId('portal-next-join').getAttribute('href')).toBe('/portal/visits/v-now');
      const later = screen.getAllByTestId('portal-later-item');
      expect(later).toHaveLength(1);
      expect(within(later[0]!).queryByTestId('portal-later-join')).toBeNull();
    });

    it('without visits: a clear start (find a doctor); past visits with their summary, prescription and book again', async () => {
      past = [
        visit({ id: 'done-1', inMinutes: -11 * 24 * 60, status: 'completed' }),
        visit({ id: 'done-0', inMinutes: -30 * 24 * 60, status: 'completed' }),
      ];
      renderApp('/portal', 'en');
      const start = await screen.findByTestId('portal-start', {}, slow);
      expect(within(start).getByTestId('portal-find-doctor').getAttribute('href')).toBe('/portal/doctors');
      expect(within(start).getByTestId('portal-find-doctor').textContent).toBe('Find a doctor');
      const [item, older] = await screen.findAllByTestId('portal-past-item');
      // The signed note makes a summary; a visit without one leads to its page, not to a "summary".
      await waitFor(() =>
        expect(within(item!).getByTestId('portal-past-summary').textContent).toBe('Summary'),
      );
      expect(within(item!).getByTestId('portal-past-summary').getAttribute('href')).toBe(
        '/portal/appointments/done-1',
      );
      expect(within(older!).getByTestId('portal-past-summary').textContent).toBe('View the visit');
      const prescription = await within(item!).findByTestId('portal-past-prescription');
      expect(prescription.textContent).toBe('Prescription: Ibuprofeno 400 mg');
      expect(prescription.getAttribute('href')).toBe('/portal/prescriptions/rx-1');
      expect(within(item!).getByTestId('portal-past-book-again').getAttribute('href')).toBe(
        '/portal/doctors/doc-1',
      );
      expect(screen.queryByTestId('portal-next-visit')).toBeNull();
    });
  },
);
