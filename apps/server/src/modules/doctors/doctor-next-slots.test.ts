import { describe, expect, it } from 'vitest';
import { availabilityRules } from '../../db/schema.js';
import { createAppointment, createUser, type TestUser } from '../../test/factories.js';
import { findFreeSlotsOf } from '../availability/availability.service.js';
import type { ServiceContext } from '../context.js';
import { loadBookingRules } from '../settings/settings.service.js';
import { findNextFreeSlots } from './doctor-slots.js';
import { listDirectoryDoctors } from './doctors.repository.js';
import { context, createDoctor, directory, uniqueToken } from './doctors-test-support.js';

describe('next free slots in the directory', () => {
  const dayMs = 24 * 60 * 60 * 1000;

  /** Open all day every day (UTC), from a date on (always when not given). */
  async function openEveryDay(doctorId: string, validFrom: string | null = null): Promise<void> {
    await context.db.insert(availabilityRules).values(
      [1, 2, 3, 4, 5, 6, 7].map((weekday) => ({
        doctorUserId: doctorId,
        weekday,
        startTime: '00:00',
        endTime: '24:00',
        timeZone: 'UTC',
        validFrom,
      })),
    );
  }

  it('reads the slots of a whole page in a fixed number of queries, the same slots as one doctor at a time', async () => {
    const token = uniqueToken();
    const doctors: TestUser[] = [];
    for (const index of [0, 1, 2, 3, 4, 5]) {
      const doctor = await createDoctor({ name: `Lote ${index} ${token}` });
      doctors.push(doctor);
      if (index !== 5) {
        await openEveryDay(doctor.id, new Date(Date.now() + index * dayMs).toISOString().slice(0, 10));
      }
    }
    const patient = await createUser(context.app, { roles: ['patient'] });
    const [firstBefore] = await directory(`q=${encodeURIComponent(`Lote 0 ${token}`)}`);
    await createAppointment(context.app, {
      doctorId: doctors[0]!.id,
      patientId: patient.id,
      startsAt: new Date(firstBefore!.nextSlots[0]!),
    });

    let selects = 0;
    const counting = new Proxy(context.db, {
      get(target, property, receiver) {
        const value: unknown = Reflect.get(target, property, receiver);
        if (property === 'select' && typeof value === 'function') {
          return (...args: unknown[]) => {
            selects += 1;
            return (value as (...inner: unknown[]) => unknown).apply(target, args);
          };
        }
        return value;
      },
    });
    const ctx = { db: counting, now: () => new Date() } as unknown as ServiceContext;
    const { rows } = await listDirectoryDoctors(context.db, { q: token }, { order: 'asc', page: null });
    expect(rows).toHaveLength(6);
    const from = new Date();
    const window = { from, until: new Date(from.getTime() + 14 * dayMs), limit: 3 };

    selects = 0;
    const one = await findNextFreeSlots(ctx, rows.slice(0, 1), window);
    const queriesForOne = selects;
    selects = 0;
    const page = await findNextFreeSlots(ctx, rows, window);
    expect(selects, 'queries for six doctors').toBe(queriesForOne);
    expect(queriesForOne).toBeLessThanOrEqual(4);

    // The same slots as the availability module gives each doctor alone.
    const notice = (await loadBookingRules(context.db)).minimumNoticeMinutes;
    for (const row of rows) {
      const alone = await findFreeSlotsOf(
        context.db,
        { ...row, userId: row.id },
        { from, to: window.until, now: from, limit: 3, minimumNoticeMinutes: notice },
      );
      expect(page.get(row.id), row.name).toEqual(alone.map((slot) => slot.startsAt));
    }
    expect(one.get(rows[0]!.id)).toEqual(page.get(rows[0]!.id));
    expect(page.get(doctors[0]!.id)?.[0]?.getTime()).not.toBe(Date.parse(firstBefore!.nextSlots[0]!));
    expect(page.get(doctors[5]!.id)).toEqual([]);
  });

  it('shows up to 3 free slots in the next 14 days, after the minimum notice and around appointments', async () => {
    const token = uniqueToken();
    const open = await createDoctor({ name: `Abierta ${token}` });
    const later = await createDoctor({ name: `Aaron Tarde ${token}` });
    const closed = await createDoctor({ name: `Cerrado ${token}` });
    const beyond = await createDoctor({ name: `Lejano ${token}` });
    await openEveryDay(open.id);
    await openEveryDay(later.id, new Date(Date.now() + 3 * dayMs).toISOString().slice(0, 10));
    await openEveryDay(beyond.id, new Date(Date.now() + 16 * dayMs).toISOString().slice(0, 10));
    const started = Date.now();
    const items = await directory(`q=${token}`);
    const byId = new Map(items.map((item) => [item.id, item]));
    const slots = byId.get(open.id)!.nextSlots.map((slot) => new Date(slot).getTime());
    expect(slots).toHaveLength(3);
    // Minimum notice (120 minutes by default), 30-minute grid, earliest first.
    expect(slots[0]).toBeGreaterThanOrEqual(started + 119 * 60_000);
    expect(slots[0]).toBeLessThan(started + 151 * 60_000);
    expect(slots.map((slot) => (slot - slots[0]!) / 60_000)).toEqual([0, 30, 60]);
    expect(slots.every((slot) => slot % (30 * 60_000) === 0)).toBe(true);
    const laterSlots = byId.get(later.id)!.nextSlots.map((slot) => new Date(slot).getTime());
    expect(laterSlots).toHaveLength(3);
    expect(laterSlots[0]).toBeGreaterThanOrEqual(started + 2 * dayMs);
    expect(byId.get(closed.id)?.nextSlots).toEqual([]);
    expect(byId.get(beyond.id)?.nextSlots).toEqual([]);

    // A booked visit takes its slot out.
    const patient = await createUser(context.app, { roles: ['patient'] });
    await createAppointment(context.app, {
      doctorId: open.id,
      patientId: patient.id,
      startsAt: new Date(slots[0]!),
    });
    const [afterBooking] = await directory(`q=${encodeURIComponent(`Abierta ${token}`)}`);
    expect(afterBooking?.nextSlots.map((slot) => new Date(slot).getTime())).toEqual([
      slots[1],
      slots[2],
      slots[2]! + 30 * 60_000,
    ]);

    // By next availability: earliest first, doctors with no slot last (in name order); paging after sorting.
    const ids = async (query: string) => (await directory(`q=${token}&${query}`)).map((item) => item.id);
    expect(await ids('sort=name')).toEqual([later.id, open.id, closed.id, beyond.id]);
    expect(await ids('sort=nextAvailable')).toEqual([open.id, later.id, closed.id, beyond.id]);
    expect(await ids('sort=nextAvailable&order=desc')).toEqual([later.id, open.id, closed.id, beyond.id]);
    expect(await ids('sort=nextAvailable&page=2&pageSize=2')).toEqual([closed.id, beyond.id]);
  });
});
