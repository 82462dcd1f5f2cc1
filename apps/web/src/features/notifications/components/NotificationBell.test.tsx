import type { Notification } from '@telemedicina/shared/notifications';
import type { ServerToClientEvents } from '@telemedicina/shared/realtime';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { sampleMe, startFakeApi, type FakeApi } from '../../../test/fake-api';
import { sendJson } from '../../../test/http-server';
import { currentPath, renderApp } from '../../../test/render-app';

/** The handler the bell registered for `notification.created`, and whether it is listening. */
const realtime = vi.hoisted(() => ({
  handler: null as ServerToClientEvents['notification.created'] | null,
  enabled: false,
}));

vi.mock('../../../lib/realtime', async (importOriginal) => ({
  ...(await importOriginal<Record<string, unknown>>()),
  useRealtimeEvent: (
    event: string,
    handler: ServerToClientEvents['notification.created'],
    enabled = true,
  ) => {
    if (event === 'notification.created') {
      realtime.handler = handler;
      realtime.enabled = enabled;
    }
  },
}));

const slow = { timeout: 10_000 };
const ids = {
  booked: '11111111-1111-4111-8111-111111111111',
  cancelled: '22222222-2222-4222-8222-222222222222',
  reminder: '33333333-3333-4333-8333-333333333333',
  live: '44444444-4444-4444-8444-444444444444',
};
const appointmentId = '0b7f3c1e-5a2d-4c8e-9f10-1234567890ab';

function notification(
  id: string,
  kind: Notification['kind'],
  extra: Partial<Notification> = {},
): Notification {
  return {
    id,
    kind,
    data: { appointmentId, startsAt: '2026-03-27T08:00:00.000Z' },
    readAt: null,
    createdAt: '2026-03-25T10:00:00.000Z',
    ...extra,
  };
}

describe('notification bell', { timeout: 30_000 }, () => {
  let api: FakeApi;
  let items: Notification[];

  beforeAll(async () => {
    api = await startFakeApi();
    jsdom.reconfigure({ url: `${api.origin}/` });
  });
  afterAll(async () => {
    await api.close();
  });
  beforeEach(() => {
    api.reset();
    realtime.handler = null;
    realtime.enabled = false;
    items = [
      notification(ids.booked, 'appointment.booked'),
      notification(ids.cancelled, 'appointment.cancelled', {
        data: { appointmentId, startsAt: '2026-03-28T16:30:00.000Z', by: 'doctor' },
      }),
      notification(ids.reminder, 'appointment.reminder', {
        data: { appointmentId, startsAt: '2026-03-27T08:00:00.000Z', reminder: '24h' },
        readAt: '2026-03-25T11:00:00.000Z',
      }),
    ];
    const unread = () => items.filter((item) => item.readAt === null).length;
    api.routes['GET /api/v1/me'] = (_request, response) =>
      sendJson(response, 200, sampleMe({ permissions: [] }));
    api.routes['GET /api/v1/notifications'] = (_request, response) =>
      sendJson(response, 200, {
        data: items,
        page: 1,
        pageSize: 20,
        total: items.length,
        unreadCount: unread(),
      });
    for (const item of Object.values(ids)) {
      api.routes[`POST /api/v1/notifications/${item}/read`] = (_request, response) => {
        const found = items.find((candidate) => candidate.id === item)!;
        found.readAt ??= '2026-03-25T12:00:00.000Z';
        sendJson(response, 200, found);
      };
    }
    api.routes['POST /api/v1/notifications/read-all'] = (_request, response) => {
      const updated = unread();
      for (const item of items) {
        item.readAt ??= '2026-03-25T12:00:00.000Z';
      }
      sendJson(response, 200, { updated, unreadCount: 0 });
    };
  });

  it('shows the unread count, lists the newest first worded by kind, and marks one and all read', async () => {
    const user = userEvent.setup();
    renderApp('/admin');
    const bell = await screen.findByTestId('notification-bell', {}, slow);
    await waitFor(() => expect(bell.getAttribute('aria-label')).toBe('Notificaciones: 2 sin leer'));
    expect(screen.getByTestId('notification-badge').textContent).toContain('2');

    await user.click(bell);
    const panel = await screen.findByTestId('notification-panel');
    const rows = await within(panel).findAllByTestId('notification-item');
    expect(rows.map((row) => row.getAttribute('data-kind'))).toEqual([
      'appointment.booked',
      'appointment.cancelled',
      'appointment.reminder',
    ]);
    // Times in the viewer's zone (Madrid): 08:00 UTC is 9:00, 16:30 UTC is 17:30.
    expect(rows[0]!.textContent).toContain('Cita confirmada');
    expect(rows[0]!.textContent).toMatch(/Cita reservada para el 27 mar 2026, 9:00/);
    expect(rows[1]!.textContent).toMatch(/El médico canceló la cita del 28 mar 2026, 17:30/);
    expect(rows[2]!.textContent).toMatch(/Su cita es mañana/);
    expect(rows[0]!.hasAttribute('data-unread')).toBe(true);
    expect(rows[2]!.hasAttribute('data-unread')).toBe(false);
    expect(within(rows[2]!).queryByTestId('notification-read')).toBeNull();

    await user.click(within(rows[0]!).getByTestId('notification-read'));
    await waitFor(() => expect(bell.getAttribute('aria-label')).toBe('Notificaciones: 1 sin leer'));
    expect(api.requestsTo(`POST /api/v1/notifications/${ids.booked}/read`)).toHaveLength(1);

    await user.click(within(panel).getByTestId('notification-read-all'));
    await waitFor(() => expect(bell.getAttribute('aria-label')).toBe('Notificaciones'));
    expect(api.requestsTo('POST /api/v1/notifications/read-all')).toHaveLength(1);
    expect(within(panel).queryByTestId('notification-read-all')).toBeNull();
    expect(
      within(panel)
        .getAllByTestId('notification-item')
        .every((row) => !row.hasAttribute('data-unread')),
    ).toBe(true);
  });

  it('adds a notification that arrives live to the top, counts it and shows a toast', async () => {
    const user = userEvent.setup();
    renderApp('/admin');
    const bell = await screen.findByTestId('notification-bell', {}, slow);
    await waitFor(() => expect(bell.getAttribute('aria-label')).toBe('Notificaciones: 2 sin leer'));
    await waitFor(() => expect(realtime.enabled).toBe(true));

    const live = notification(ids.live, 'appointment.rescheduled', {
      data: {
        appointmentId,
        startsAt: '2026-03-30T07:00:00.000Z',
        previousStartsAt: '2026-03-27T08:00:00.000Z',
      },
      createdAt: '2026-03-25T12:30:00.000Z',
    });
    act(() => realtime.handler!(live));
    await waitFor(() => expect(bell.getAttribute('aria-label')).toBe('Notificaciones: 3 sin leer'));
    // The same event twice (a reconnect) is counted once.
    act(() => realtime.handler!(live));
    expect(bell.getAttribute('aria-label')).toBe('Notificaciones: 3 sin leer');

    const toast = await screen.findByText('Cita cambiada de hora');
    expect(toast.closest('.mantine-Notification-root')?.textContent).toMatch(
      /La cita pasó del 27 mar 2026, 9:00 al 30 mar 2026, 9:00/,
    );

    await user.click(bell);
    const panel = await screen.findByTestId('notification-panel');
    const first = (await within(panel).findAllByTestId('notification-item'))[0]!;
    expect(first.getAttribute('data-kind')).toBe('appointment.rescheduled');
    expect(api.requestsTo('GET /api/v1/notifications')).toHaveLength(1);
  });

  it('opens the appointment a notification is about and marks it read', async () => {
    const user = userEvent.setup();
    const { router } = renderApp('/admin');
    const bell = await screen.findByTestId('notification-bell', {}, slow);
    await waitFor(() => expect(bell.getAttribute('aria-label')).toBe('Notificaciones: 2 sin leer'));
    await user.click(bell);
    const panel = await screen.findByTestId('notification-panel');
    await user.click(within(panel).getAllByTestId('notification-open')[1]!);
    await waitFor(() => expect(currentPath(router)).toBe(`/admin/appointments/${appointmentId}`));
    await waitFor(() =>
      expect(api.requestsTo(`POST /api/v1/notifications/${ids.cancelled}/read`)).toHaveLength(1),
    );
    await waitFor(() => expect(screen.queryByTestId('notification-panel')).toBeNull());
  });

  it('says when there is nothing, in English too, with a plain label', async () => {
    items = [];
    const user = userEvent.setup();
    renderApp('/admin', 'en');
    const bell = await screen.findByTestId('notification-bell', {}, slow);
    await waitFor(() => expect(realtime.enabled).toBe(true));
    expect(bell.getAttribute('aria-label')).toBe('Notifications');
    await user.click(bell);
    expect((await screen.findByTestId('notification-empty')).textContent).toBe('You have no notifications.');
  });

  it('does not listen or alert when the list cannot be loaded', async () => {
    api.routes['GET /api/v1/notifications'] = (_request, response) =>
      sendJson(response, 500, { error: { code: 'INTERNAL_ERROR', message: 'x' } });
    const user = userEvent.setup();
    renderApp('/admin');
    const bell = await screen.findByTestId('notification-bell', {}, slow);
    await user.click(bell);
    expect(await screen.findByText('No se pudieron cargar las notificaciones.')).toBeTruthy();
    expect(realtime.enabled).toBe(false);
    expect(screen.queryByTestId('message-dialog')).toBeNull();
  });
});
