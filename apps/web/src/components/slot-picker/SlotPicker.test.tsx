import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Slot } from '@telemedicina/shared/booking';
import type { DoctorProfile } from '@telemedicina/shared/doctors';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { matchEmptyMediaQuery } from '../list-table/testing';
import { sampleMe, startFakeApi, type FakeApi } from '../../test/fake-api';
import { sendJson } from '../../test/http-server';
import { renderApp } from '../../test/render-app';

const slow = { timeout: 20_000 };

const doctor: DoctorProfile = {
  id: 'd-1',
  name: 'Dra. Carmen Ruiz',
  photoUrl: null,
  specialties: [{ id: 's-1', name: { es: 'Cardiología', en: 'Cardiology' } }],
  licenseNumber: 'MAD-1234',
  languages: ['es'],
  bio: { es: 'Cardióloga.', en: 'Cardiologist.' },
  visitMinutes: 30,
  acceptsNewPatients: true,
  timeZone: 'America/Mexico_City',
};

function slotAt(from: string, days: number, hour: number): Slot {
  const iso = new Date(Date.parse(from) + days * 86_400_000 + hour * 3_600_000).toISOString();
  return { startsAt: iso, endsAt: iso, localStart: iso, doctorLocalStart: iso };
}

describe('slot picker while another week loads', { timeout: 60_000 }, () => {
  let api: FakeApi;
  let restoreMatchMedia: () => void;
  let heldWeek: { release: () => void } | null;

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
    api.reset();
    heldWeek = null;
    let firstFrom: string | null = null;
    api.routes['GET /api/v1/me'] = (_request, response) =>
      sendJson(
        response,
        200,
        sampleMe({
          permissions: ['doctors.read', 'appointments.book.self'],
          user: { timeZone: 'America/Mexico_City' },
        }),
      );
    api.routes['GET /api/v1/doctors/d-1'] = (_request, response) => sendJson(response, 200, doctor);
    api.routes['GET /api/v1/doctors/d-1/slots'] = (request, response) => {
      const url = new URL(request.url, 'http://x');
      const from = url.searchParams.get('from')!;
      firstFrom ??= from;
      const answer = () =>
        sendJson(response, 200, {
          doctorId: 'd-1',
          doctorTimeZone: doctor.timeZone,
          viewerTimeZone: url.searchParams.get('tz'),
          visitMinutes: 30,
          // Free times in the first week only; the next week is empty.
          slots: from === firstFrom ? [slotAt(from, 1, 16)] : [],
        });
      if (from === firstFrom) {
        answer();
      } else {
        // The next week's answer is held until the test has looked at the page meanwhile.
        heldWeek = { release: answer };
      }
    };
  });

  it('says nothing about free times until the week’s answer arrives, then says it has none', async () => {
    const user = userEvent.setup();
    renderApp('/admin/doctors/d-1');
    await screen.findAllByTestId('slot-picker-slot', {}, slow);
    expect(screen.getByTestId('slot-picker').getAttribute('aria-busy')).toBe('false');

    await user.click(screen.getByTestId('slot-picker-next'));
    await expect.poll(() => heldWeek !== null, slow).toBe(true);
    // The previous week's answer is kept while the next one loads: its times are not shown for
    // the new week, and the week does not read as "no free times" either.
    expect(screen.getByTestId('slot-picker').getAttribute('aria-busy')).toBe('true');
    expect(screen.queryByTestId('slot-picker-empty')).toBeNull();
    expect(screen.queryAllByTestId('slot-picker-slot')).toEqual([]);

    heldWeek!.release();
    expect(await screen.findByTestId('slot-picker-empty', {}, slow)).toBeTruthy();
    expect(screen.getByTestId('slot-picker').getAttribute('aria-busy')).toBe('false');
  });
});
