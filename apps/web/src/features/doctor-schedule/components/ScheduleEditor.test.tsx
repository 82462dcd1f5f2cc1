import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { AvailabilityRulesResponse } from '@telemedicina/shared/booking';
import type { DoctorProfile } from '@telemedicina/shared/doctors';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sampleMe, sendError, startFakeApi, type FakeApi } from '../../../test/fake-api';
import { sendJson } from '../../../test/http-server';
import { renderApp } from '../../../test/render-app';

const slow = { timeout: 20_000 };
const doctorId = '7c1d2f4e-2a7b-4f7e-9a0b-3d2c1b0a9f8e';

const profile: DoctorProfile = {
  id: doctorId,
  name: 'Dra. Carmen Ruiz',
  photoUrl: null,
  specialties: [],
  licenseNumber: 'MG-1',
  languages: ['es'],
  bio: { es: '', en: '' },
  visitMinutes: 30,
  acceptsNewPatients: true,
  timeZone: 'America/Mexico_City',
};

const rule = (weekday: number, start: string, end: string) => ({
  id: `${weekday}-${start}`,
  weekday,
  start,
  end,
  timeZone: 'America/Mexico_City',
  validFrom: null,
  validUntil: null,
});

describe('weekly hours editor against a real HTTP server', { timeout: 60_000 }, () => {
  let api: FakeApi;
  let rules: AvailabilityRulesResponse;

  beforeAll(async () => {
    api = await startFakeApi();
    jsdom.reconfigure({ url: `${api.origin}/` });
  });
  afterAll(async () => {
    await api.close();
  });
  beforeEach(() => {
    api.reset();
    rules = {
      doctorId,
      timeZone: 'America/Mexico_City',
      rules: [rule(1, '09:00:00', '13:00:00'), rule(3, '10:00:00', '14:00:00')],
    };
    const me = sampleMe({
      permissions: ['availability.manage.own', 'doctors.profile.own', 'visits.host'],
      user: { id: doctorId, timeZone: 'America/Mexico_City' },
    });
    api.routes['GET /api/v1/me'] = (_request, response) => sendJson(response, 200, me);
    api.routes[`GET /api/v1/doctors/${doctorId}`] = (_request, response) => sendJson(response, 200, profile);
    api.routes[`GET /api/v1/doctors/${doctorId}/availability/rules`] = (_request, response) =>
      sendJson(response, 200, rules);
  });

  it("shows the doctor's zone, copies Monday to the weekdays and saves the whole week", async () => {
    const user = userEvent.setup();
    api.routes[`PUT /api/v1/doctors/${doctorId}/availability/rules`] = (request, response) => {
      const body = request.json() as { rules: { weekday: number; start: string; end: string }[] };
      rules = { ...rules, rules: body.rules.map((r) => rule(r.weekday, r.start, r.end)) };
      sendJson(response, 200, rules);
    };
    renderApp('/admin/schedule');
    await screen.findByTestId('schedule-hours', {}, slow);
    expect(screen.getByTestId('schedule-zone').textContent).toContain('hora de Ciudad de México');
    const days = screen.getAllByTestId('schedule-day');
    expect(within(days[0]!).getAllByTestId('schedule-range')).toHaveLength(1);

    await user.click(screen.getByTestId('schedule-copy-monday'));
    for (const index of [1, 2, 3, 4]) {
      const ranges = within(screen.getAllByTestId('schedule-day')[index]!).getAllByTestId('schedule-range');
      expect(ranges).toHaveLength(1);
      expect(within(ranges[0]!).getByTestId<HTMLSelectElement>('schedule-range-start').value).toBe('09:00');
    }
    await user.click(screen.getByTestId('schedule-hours-save'));
    await screen.findByTestId('schedule-hours-saved', {}, slow);
    const sent = api.requestsTo(`PUT /api/v1/doctors/${doctorId}/availability/rules`)[0]!;
    const body = JSON.parse(sent.body.toString('utf8')) as { rules: { weekday: number; start: string }[] };
    expect(body.rules.map((r) => [r.weekday, r.start])).toEqual([
      [1, '09:00'],
      [2, '09:00'],
      [3, '09:00'],
      [4, '09:00'],
      [5, '09:00'],
    ]);
  });

  it('refuses overlapping ranges before sending, and shows the server’s rules.<i> issues on their row', async () => {
    const user = userEvent.setup();
    api.routes[`PUT /api/v1/doctors/${doctorId}/availability/rules`] = (_request, response) =>
      sendError(response, 400, 'VALIDATION_FAILED', {
        issues: [
          { location: 'body', path: 'rules.2.start', code: 'custom', message: 'validation.rulesOverlap' },
        ],
      });
    renderApp('/admin/schedule');
    await screen.findByTestId('schedule-hours', {}, slow);

    // Monday 09:00–13:00 plus a second range moved to start at 12:00: overlap, nothing sent.
    const monday = () => screen.getAllByTestId('schedule-day')[0]!;
    await user.click(within(monday()).getByTestId('schedule-add-range'));
    const second = within(monday()).getAllByTestId('schedule-range')[1]!;
    await user.selectOptions(within(second).getByTestId('schedule-range-start'), '12:00');
    await user.click(screen.getByTestId('schedule-hours-save'));
    const errors = within(monday()).getAllByTestId('schedule-range-error');
    expect(errors.map((error) => error.textContent)).toEqual([
      'Este horario se superpone con otro del mismo día.',
      'Este horario se superpone con otro del mismo día.',
    ]);
    expect(api.requestsTo(`PUT /api/v1/doctors/${doctorId}/availability/rules`)).toHaveLength(0);

    // Fixed locally; the server still refuses rule 2 — Wednesday's, after Monday's two — on that row.
    await user.selectOptions(within(second).getByTestId('schedule-range-start'), '14:00');
    await waitFor(() => expect(within(monday()).queryAllByTestId('schedule-range-error')).toHaveLength(0));
    await user.click(screen.getByTestId('schedule-hours-save'));
    const wednesday = () => screen.getAllByTestId('schedule-day')[2]!;
    await waitFor(
      () =>
        expect(within(wednesday()).getByTestId('schedule-range-error').textContent).toBe(
          'Este horario se superpone con otro del mismo día.',
        ),
      slow,
    );
    expect(within(monday()).queryAllByTestId('schedule-range-error')).toHaveLength(0);
    const sent = api.requestsTo(`PUT /api/v1/doctors/${doctorId}/availability/rules`)[0]!;
    const body = JSON.parse(sent.body.toString('utf8')) as { rules: { weekday: number; start: string }[] };
    expect(body.rules.map((r) => [r.weekday, r.start])).toEqual([
      [1, '09:00'],
      [1, '14:00'],
      [3, '10:00'],
    ]);
  });

  it('offers a usual week when there are no hours yet', async () => {
    const user = userEvent.setup();
    rules = { ...rules, rules: [] };
    renderApp('/admin/schedule');
    await screen.findByTestId('schedule-hours-empty', {}, slow);
    await user.click(screen.getByTestId('schedule-typical-week'));
    expect(screen.queryByTestId('schedule-hours-empty')).toBeNull();
    expect(screen.getAllByTestId('schedule-range')).toHaveLength(10);
  });
});
