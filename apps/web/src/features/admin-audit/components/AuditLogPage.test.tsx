import type { AuditEvent } from '@telemedicina/shared/admin';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { matchEmptyMediaQuery } from '../../../components/list-table/testing';
import { sampleMe, startFakeApi, type FakeApi } from '../../../test/fake-api';
import { sendJson } from '../../../test/http-server';
import { currentPath, renderApp } from '../../../test/render-app';
import { auditExportUrl, auditQueryString } from '../api/get-audit-events';

const slow = { timeout: 10_000 };

const events: AuditEvent[] = [
  {
    id: 7,
    at: '2026-03-02T17:45:00.000Z',
    actorUserId: 'u-1',
    actor: { id: 'u-1', name: 'Ana Pérez', email: 'ana@clinica.example' },
    actorIp: '203.0.113.7',
    userAgent: 'Firefox',
    requestId: 'req-1',
    action: 'settings.updated',
    targetType: 'settings',
    targetId: 'clinic',
    outcome: 'success',
    details: { before: { name: 'Clínica Sol' }, after: { name: '<img src=x onerror=alert(1)>' } },
  },
  {
    id: 6,
    at: '2026-03-02T08:00:00.000Z',
    actorUserId: null,
    actor: null,
    actorIp: '198.51.100.4',
    userAgent: null,
    requestId: null,
    action: 'auth.login_failed',
    targetType: null,
    targetId: null,
    outcome: 'denied',
    details: {},
  },
];

describe('auditQueryString', () => {
  it('writes only the filters that are set, in a fixed order, with paging first', () => {
    expect(
      auditQueryString(
        { to: '2026-03-31', actor: 'ana', outcome: 'denied', q: '' },
        { page: 2, pageSize: 50 },
      ),
    ).toBe('page=2&pageSize=50&actor=ana&outcome=denied&to=2026-03-31');
    expect(auditQueryString({})).toBe('');
    expect(auditExportUrl({ action: 'user.*', targetId: 'a b' })).toBe(
      '/api/v1/audit-events/export.csv?action=user.*&targetId=a+b',
    );
    expect(auditExportUrl({})).toBe('/api/v1/audit-events/export.csv');
  });
});

describe('audit log against a real HTTP server', { timeout: 30_000 }, () => {
  let api: FakeApi;
  let restoreMatchMedia: () => void;

  beforeAll(async () => {
    api = await startFakeApi();
    jsdom.reconfigure({ url: `${api.origin}/` });
    restoreMatchMedia = matchEmptyMediaQuery();
  });
  afterAll(async () => {
    restoreMatchMedia();
    await api.close();
  });
  beforeEach(() => {
    api.reset();
    api.routes['GET /api/v1/me'] = (_request, response) =>
      sendJson(response, 200, sampleMe({ permissions: ['audit.read'] }));
    api.routes['GET /api/v1/audit-events'] = (request, response) => {
      const url = new URL(request.url, 'http://x');
      sendJson(response, 200, {
        data: events,
        page: Number(url.searchParams.get('page')),
        pageSize: Number(url.searchParams.get('pageSize')),
        total: 45,
      });
    };
    api.routes['GET /api/v1/audit-events/facets'] = (_request, response) =>
      sendJson(response, 200, {
        actions: ['auth.login_failed', 'settings.updated'],
        targetTypes: ['settings', 'user'],
      });
  });

  const listUrls = () => api.requestsTo('GET /api/v1/audit-events').map((request) => request.url);

  it('reads the filters from the address, writes new ones to it and asks the server with them', async () => {
    const user = userEvent.setup();
    const { router } = renderApp('/admin/audit?targetId=u-9');
    const rows = await screen.findAllByTestId('list-row', {}, slow);
    expect(listUrls()).toEqual(['/api/v1/audit-events?page=1&pageSize=20&targetId=u-9']);
    expect(rows.map((row) => row.getAttribute('data-id'))).toEqual(['7', '6']);
    expect(rows[0]!.textContent).toContain('ana@clinica.example');
    // The action and the record read as words (people do not read codes); the record's id is not in the list.
    expect(within(rows[0]!).getByTestId('audit-row-action').textContent).toBe(
      'Configuración de la clínica modificada',
    );
    expect(within(rows[0]!).getByTestId('audit-row-target').textContent).toBe('Configuración');
    expect(rows[0]!.textContent).not.toContain('settings.updated');
    expect(within(rows[0]!).getByTestId('audit-row-at').textContent).toMatch(/18:45/);
    expect(rows[1]!.textContent).toContain('Anónimo');
    expect(within(rows[1]!).getByTestId('audit-row-outcome').textContent).toBe('Denegado');
    // jsdom has the phone's width: the filters are folded behind a button that counts them.
    const toggle = screen.getByTestId('audit-filters-toggle');
    expect(toggle.textContent).toBe('Filtros (1)');
    await user.click(toggle);
    expect((await screen.findByTestId<HTMLInputElement>('audit-filter-target-id')).value).toBe('u-9');

    await user.selectOptions(screen.getByTestId('audit-filter-outcome'), 'denied');
    await waitFor(() => expect(currentPath(router)).toBe('/admin/audit?targetId=u-9&outcome=denied'));
    await waitFor(() =>
      expect(listUrls().at(-1)).toBe('/api/v1/audit-events?page=1&pageSize=20&targetId=u-9&outcome=denied'),
    );

    await user.type(screen.getByTestId('audit-filter-actor'), 'ana');
    await waitFor(() =>
      expect(currentPath(router)).toBe('/admin/audit?targetId=u-9&outcome=denied&actor=ana'),
    );
    await waitFor(() =>
      expect(listUrls().at(-1)).toBe(
        '/api/v1/audit-events?page=1&pageSize=20&actor=ana&targetId=u-9&outcome=denied',
      ),
    );
    expect(screen.getByTestId('audit-export').getAttribute('href')).toBe(
      '/api/v1/audit-events/export.csv?actor=ana&targetId=u-9&outcome=denied',
    );

    await user.click(screen.getByTestId('pagination-page-2'));
    await waitFor(() => expect(listUrls().at(-1)).toContain('page=2&pageSize=20&actor=ana'));
    await user.click(screen.getByTestId('audit-filters-clear'));
    await waitFor(() => expect(currentPath(router)).toBe('/admin/audit'));
    await waitFor(() => expect(listUrls().at(-1)).toBe('/api/v1/audit-events?page=1&pageSize=20'));
    expect(screen.getByTestId<HTMLInputElement>('audit-filter-actor').value).toBe('');
  });

  it('opens an event with its details as plain text, and closes it', async () => {
    const user = userEvent.setup();
    const { router } = renderApp('/admin/audit');
    const links = await screen.findAllByTestId('list-row-link', {}, slow);
    await user.click(links[0]!);
    await waitFor(() => expect(currentPath(router)).toBe('/admin/audit?event=7'));
    const drawer = await screen.findByTestId('audit-details');
    expect(within(drawer).getByTestId('audit-details-action').textContent).toBe(
      'Configuración de la clínica modificada',
    );
    // The detail view holds the record's id, whole and copyable.
    const targetId = within(drawer).getByTestId('audit-details-target-id');
    expect(targetId.textContent).toBe('clinic');
    expect(within(targetId).getByRole('button', { name: 'Copiar el identificador' })).toBeTruthy();
    expect(within(drawer).getByTestId('audit-details-actor').textContent).toContain(
      'Ana Pérez <ana@clinica.example>',
    );
    const json = within(drawer).getByTestId('audit-details-json');
    expect(json.textContent).toBe(JSON.stringify(events[0]!.details, null, 2));
    expect(json.querySelector('img')).toBeNull();
    expect(within(drawer).getByTestId('audit-details-record-link').getAttribute('href')).toBe(
      '/admin/audit?targetType=settings&targetId=clinic',
    );
    const requestsBefore = listUrls().length;
    await user.keyboard('{Escape}');
    await waitFor(() => expect(currentPath(router)).toBe('/admin/audit'));
    // Opening and closing an event is not a new view of the list.
    expect(listUrls()).toHaveLength(requestsBefore);
  });

  it('is not offered and not asked for without audit.read', async () => {
    api.routes['GET /api/v1/me'] = (_request, response) =>
      sendJson(response, 200, sampleMe({ permissions: [] }));
    renderApp('/admin/audit');
    expect(await screen.findByTestId('section-forbidden', {}, slow)).toBeTruthy();
    expect(screen.queryByTestId('admin-nav-audit')).toBeNull();
    expect(api.requestsTo('GET /api/v1/audit-events')).toHaveLength(0);
  });
});
