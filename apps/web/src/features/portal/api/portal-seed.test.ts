import type { Appointment } from '@telemedicina/shared/appointment';
import { QueryClient } from '@tanstack/react-query';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { queryKeys } from '../../../lib/query-keys';
import { sampleMe, sendError, startFakeApi, type FakeApi } from '../../../test/fake-api';
import { sendJson } from '../../../test/http-server';
import { currentPortalBoot, portalWindowNow, resetPortalBoot, startPortalBoot } from './portal-boot';
import { seedPortalBoot } from './portal-seed';

const now = new Date();
const minute = 60_000;

function visit(id: string, inMinutes: number, status: Appointment['status'] = 'confirmed'): Appointment {
  const startsAt = new Date(now.getTime() + inMinutes * minute);
  return {
    id,
    doctor: { id: `doc-of-${id}`, name: 'Dra. Carmen Ruiz', timeZone: 'America/Mexico_City' },
    patient: { id: 'pat-1', name: 'Luis García' },
    startsAt: startsAt.toISOString(),
    endsAt: new Date(startsAt.getTime() + 30 * minute).toISOString(),
    status,
    reason: null,
    createdAt: '2026-11-01T00:00:00.000Z',
    cancelledAt: null,
    cancellationReason: null,
  };
}

const patient = sampleMe({
  permissions: ['doctors.read', 'appointments.book.self', 'appointments.read.own', 'records.read.own'],
  user: { id: 'pat-1', name: 'Luis García', timeZone: 'America/Mexico_City' },
});

describe("the patient's home asks for its answers as the page boots, and its first render has them", () => {
  let api: FakeApi;
  let upcoming: Appointment[];

  beforeAll(async () => {
    api = await startFakeApi();
    jsdom.reconfigure({ url: `${api.origin}/portal` });
  });
  afterAll(async () => {
    await api.close();
  });
  beforeEach(() => {
    api.reset();
    resetPortalBoot();
    // A cancelled visit sooner than the next open one: its doctor is not the one asked for.
    upcoming = [visit('gone', 30, 'cancelled'), visit('next', 3 * 24 * 60), visit('later', 6 * 24 * 60)];
    api.routes['GET /api/v1/appointments'] = (request, response) => {
      const query = new URL(request.url, 'http://x').searchParams;
      const data =
        query.get('status') === 'completed' ? [visit('done', -7 * 24 * 60, 'completed')] : upcoming;
      sendJson(response, 200, { data, page: 1, pageSize: 20, total: data.length });
    };
    api.routes['GET /api/v1/doctors/doc-of-next'] = (_request, response) =>
      sendJson(response, 200, {
        id: 'doc-of-next',
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
      sendJson(response, 200, { items: [] });
    api.routes['GET /api/v1/patients/pat-1/prescriptions'] = (_request, response) =>
      sendJson(response, 200, { items: [] });
  });
  afterEach(() => resetPortalBoot());

  it("fills the home's queries under the keys the page reads, with one request each", async () => {
    startPortalBoot(patient, now);
    const queryClient = new QueryClient();
    await seedPortalBoot(queryClient);
    const window = portalWindowNow();
    expect(window).toEqual(currentPortalBoot()!.window);
    expect(window.to).toBe(now.toISOString());
    const upcomingPage = queryClient.getQueryData<{ data: Appointment[] }>(
      queryKeys.appointments.portalUpcoming(window.from),
    );
    expect(upcomingPage?.data.map((item) => item.id)).toEqual(['gone', 'next', 'later']);
    const pastPage = queryClient.getQueryData<{ data: Appointment[] }>(
      queryKeys.appointments.portalPast(window.to, 5),
    );
    expect(pastPage?.data.map((item) => item.id)).toEqual(['done']);
    expect(queryClient.getQueryData(queryKeys.notes.ofPatient('pat-1'))).toEqual({ items: [] });
    expect(queryClient.getQueryData(queryKeys.prescriptions.ofPatient('pat-1'))).toEqual({ items: [] });
    // The next open visit's doctor, not the cancelled one's.
    expect(queryClient.getQueryData<{ id: string }>(queryKeys.doctors.profile('doc-of-next'))?.id).toBe(
      'doc-of-next',
    );
    expect(api.requestsTo('GET /api/v1/appointments')).toHaveLength(2);
    expect(api.requestsTo('GET /api/v1/doctors/doc-of-next')).toHaveLength(1);
    expect(api.requestsTo('GET /api/v1/doctors/doc-of-gone')).toHaveLength(0);
  });

  it('leaves out an answer that failed or does not match its schema (its query asks again)', async () => {
    api.routes['GET /api/v1/patients/pat-1/notes'] = (_request, response) =>
      sendError(response, 500, 'INTERNAL', 'boom');
    api.routes['GET /api/v1/patients/pat-1/prescriptions'] = (_request, response) =>
      sendJson(response, 200, { items: 'not a list' });
    startPortalBoot(patient, now);
    const queryClient = new QueryClient();
    await seedPortalBoot(queryClient);
    expect(queryClient.getQueryData(queryKeys.notes.ofPatient('pat-1'))).toBeUndefined();
    expect(queryClient.getQueryData(queryKeys.prescriptions.ofPatient('pat-1'))).toBeUndefined();
    expect(
      queryClient.getQueryData(queryKeys.appointments.portalUpcoming(currentPortalBoot()!.window.from)),
    ).toBeDefined();
  });

  it('asks for no doctor without an open visit, and nothing at all for staff', async () => {
    upcoming = [visit('gone', 30, 'cancelled')];
    startPortalBoot(patient, now);
    await seedPortalBoot(new QueryClient());
    expect(api.requestsTo('GET /api/v1/doctors/doc-of-gone')).toHaveLength(0);

    api.reset();
    resetPortalBoot();
    startPortalBoot(sampleMe({ permissions: ['appointments.read.any', 'users.read'] }), now);
    expect(currentPortalBoot()).toBeNull();
    await seedPortalBoot(new QueryClient());
    expect(api.requestsTo('GET /api/v1/appointments')).toHaveLength(0);
  });

  it('does not hold the first render longer than its limit when an answer is slow', async () => {
    api.routes['GET /api/v1/patients/pat-1/notes'] = (_request, response) =>
      new Promise<void>((resolve) =>
        setTimeout(() => {
          sendJson(response, 200, { items: [] });
          resolve();
        }, 1_500),
      );
    startPortalBoot(patient, now);
    const queryClient = new QueryClient();
    const started = Date.now();
    await seedPortalBoot(queryClient, 300);
    expect(Date.now() - started).toBeLessThan(3_000);
    // Nothing seeded: the page renders and its queries ask the usual way.
    expect(queryClient.getQueryData(queryKeys.prescriptions.ofPatient('pat-1'))).toBeUndefined();
  });

  it("stands only for the page's first moments: an old boot's window is not reused", () => {
    startPortalBoot(patient, now);
    expect(currentPortalBoot(Date.now())).not.toBeNull();
    expect(currentPortalBoot(Date.now() + 61_000)).toBeNull();
    const later = new Date(Date.now() + 61_000);
    expect(portalWindowNow(later).to).toBe(later.toISOString());
  });
});
