import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { VisitNote } from '@telemedicina/shared/notes';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { matchEmptyMediaQuery } from '../../../components/list-table/testing';
import { sampleMe, sendError, startFakeApi, type FakeApi } from '../../../test/fake-api';
import { sendJson } from '../../../test/http-server';
import { renderApp } from '../../../test/render-app';
import { appointmentId, doctorId, patientId, sampleNote } from '../test-notes';

const slow = { timeout: 20_000 };
const notePath = `/api/v1/appointments/${appointmentId}/note`;
const vitals = {
  temperatureC: 38.2,
  heartRateBpm: 96,
  systolicMmHg: 124,
  diastolicMmHg: 81,
  respiratoryRate: null,
  oxygenSaturation: 97,
  weightKg: null,
  heightCm: null,
  glucoseMgDl: null,
  reportedAt: '2026-11-21T09:40:00.000Z',
};

describe('the visit note page against a real HTTP server', { timeout: 60_000 }, () => {
  let api: FakeApi;
  let restoreMatchMedia: () => void;
  /** The note the fake server holds; PATCH merges into it and bumps the version. */
  let stored: VisitNote | null;

  beforeAll(async () => {
    restoreMatchMedia = matchEmptyMediaQuery();
    if (!('fonts' in document)) {
      Object.defineProperty(document, 'fonts', {
        configurable: true,
        value: { addEventListener: () => undefined, removeEventListener: () => undefined },
      });
    }
    api = await startFakeApi();
    jsdom.reconfigure({ url: `${api.origin}/` });
  });
  afterAll(async () => {
    restoreMatchMedia();
    await api.close();
  });
  beforeEach(() => {
    api.reset();
    stored = null;
    const me = sampleMe({ permissions: ['records.read', 'records.write'], user: { id: doctorId } });
    api.routes['GET /api/v1/me'] = (_request, response) => sendJson(response, 200, me);
    api.routes[`GET ${notePath}`] = (_request, response) => sendJson(response, 200, { note: stored, vitals });
    api.routes[`POST ${notePath}`] = (_request, response) => {
      stored ??= sampleNote();
      sendJson(response, 201, stored);
    };
    api.routes[`PATCH ${notePath}`] = (request, response) => {
      const body = request.json() as Record<string, unknown> & { baseVersion: number };
      if (!stored || body.baseVersion !== stored.version) {
        sendError(response, 409, 'NOTE_VERSION_CONFLICT', { note: stored });
        return;
      }
      const { baseVersion: _ignored, ...sections } = body;
      stored = { ...stored, version: stored.version + 1, sections: { ...stored.sections, ...sections } };
      sendJson(response, 200, stored);
    };
  });

  const patches = () =>
    api
      .requestsTo(`PATCH ${notePath}`)
      .map((request) => JSON.parse(request.body.toString()) as Record<string, unknown>);

  it('starts the draft on opening, shows the reported vitals and four labelled SOAP editors', async () => {
    renderApp(`/admin/appointments/${appointmentId}/note`);
    const editors = await screen.findAllByTestId('rich-text-editor-content', {}, slow);
    expect(api.requestsTo(`POST ${notePath}`)).toHaveLength(1);
    expect(editors).toHaveLength(4);
    expect(screen.getByRole('textbox', { name: 'Subjetivo' })).toBe(editors[0]);
    expect(screen.getByRole('textbox', { name: 'Plan' })).toBe(editors[3]);
    const card = screen.getByTestId('note-vitals');
    expect(within(card).getByTestId('note-vital-bloodPressure').textContent).toContain('124/81 mmHg');
    expect(within(card).getByTestId('note-vital-temperatureC').textContent).toContain('38,2 °C');
  });

  it('names the patient and the visit above the editor, in the doctor’s account zone, and lists what is missing to sign', async () => {
    const me = sampleMe({
      permissions: ['records.read', 'records.write'],
      user: { id: doctorId, timeZone: 'America/Mexico_City' },
    });
    api.routes['GET /api/v1/me'] = (_request, response) => sendJson(response, 200, me);
    api.routes[`GET /api/v1/appointments/${appointmentId}`] = (_request, response) =>
      sendJson(response, 200, {
        id: appointmentId,
        doctor: { id: doctorId, name: 'Dra. Carmen Ruiz', timeZone: 'America/Mexico_City' },
        patient: { id: patientId, name: 'Lucía Gómez' },
        // 16:00 UTC: 10:00 in Mexico City (the account), 17:00 in Madrid (not shown).
        startsAt: '2026-11-27T16:00:00.000Z',
        endsAt: '2026-11-27T16:30:00.000Z',
        status: 'completed',
        reason: 'Dolor de garganta y fiebre',
        isReasonWithheld: false,
        createdAt: '2026-11-20T10:00:00.000Z',
        cancelledAt: null,
        cancellationReason: null,
      });
    api.routes[`GET /api/v1/patients/${patientId}/chart`] = (_request, response) =>
      sendJson(response, 200, sampleChart());
    renderApp(`/admin/appointments/${appointmentId}/note`);
    const header = await screen.findByTestId('visit-context', {}, slow);
    expect(within(header).getByTestId('visit-context-patient').textContent).toBe('Lucía Gómez');
    expect(within(header).getByTestId('visit-context-facts').textContent).toMatch(/^\d+ años · Mujer$/);
    expect(
      within(header)
        .getAllByTestId('visit-context-allergy')
        .map((badge) => badge.textContent),
    ).toEqual(['Penicilina (grave)']);
    const when = within(header).getByTestId('visit-context-when').textContent ?? '';
    expect(when).toContain('27 de noviembre de 2026');
    expect(when).toContain('10:00');
    expect(when).not.toContain('17:00');
    expect(header.textContent).toContain('hora de Ciudad de México');
    expect(within(header).getByTestId('visit-context-reason').textContent).toBe(
      'Motivo: Dolor de garganta y fiebre',
    );

    // The empty draft says what signing needs; writing a plan makes it ready.
    const readiness = await screen.findByTestId('note-sign-readiness', {}, slow);
    expect(readiness.dataset.ready).toBe('false');
    expect(within(readiness).getByTestId('note-sign-missing').textContent).toBe(
      'Escriba la evaluación o el plan, o añada al menos un diagnóstico.',
    );
    expect(within(readiness).getByTestId('note-empty-sections').textContent).toBe(
      'Secciones aún vacías: Subjetivo, Objetivo, Evaluación, Plan.',
    );
    const plan = await screen.findByRole('textbox', { name: 'Plan' }, slow);
    plan.querySelector('p')!.textContent = 'Reposo';
    fireEvent.input(plan);
    await waitFor(() => expect(screen.getByTestId('note-sign-readiness').dataset.ready).toBe('true'));
    expect(screen.queryByTestId('note-sign-missing')).toBeNull();
    expect(screen.getByTestId('note-empty-sections').textContent).toBe(
      'Secciones aún vacías: Subjetivo, Objetivo, Evaluación.',
    );
    // The typed plan is saved before the test ends (nothing left to save into the next test).
    await waitFor(() => expect(patches()).toEqual([{ baseVersion: 1, plan: '<p>Reposo</p>' }]), slow);
  });

  it('fills only the empty sections with the SOAP template, after asking, never touching written text', async () => {
    stored = sampleNote({ sections: { ...sampleNote().sections, subjective: '<p>Dolor de garganta</p>' } });
    const user = userEvent.setup();
    renderApp(`/admin/appointments/${appointmentId}/note`);
    await screen.findAllByTestId('rich-text-editor-content', {}, slow);
    await user.click(screen.getByTestId('note-template'));
    const dialog = await screen.findByTestId('note-template-confirm');
    expect(dialog.textContent).toContain('Subjetivo');
    await user.click(within(dialog).getByRole('button', { name: 'Rellenar las secciones vacías' }));

    await waitFor(() => expect(patches()).toHaveLength(1));
    const sent = patches()[0] ?? {};
    expect(sent.baseVersion).toBe(1);
    expect(sent).not.toHaveProperty('subjective');
    expect(sent.objective).toContain('<h3>Exploración</h3>');
    expect(sent.assessment).toContain('<h3>Impresión diagnóstica</h3>');
    expect(sent.plan).toContain('<h3>Seguimiento</h3>');
    await waitFor(() =>
      expect(screen.getByRole('textbox', { name: 'Plan' }).textContent).toContain('Tratamiento'),
    );
    expect(screen.getByRole('textbox', { name: 'Subjetivo' }).textContent).toBe('Dolor de garganta');
    await waitFor(() => expect(screen.getByTestId('note-save-status').dataset.status).toBe('saved'));
  });

  it('on a version conflict stops saving, offers to reload and keeps the unsaved text copyable', async () => {
    stored = sampleNote({ version: 1 });
    const user = userEvent.setup();
    renderApp(`/admin/appointments/${appointmentId}/note`);
    await screen.findAllByTestId('rich-text-editor-content', {}, slow);
    // Another window saves meanwhile.
    stored = {
      ...stored,
      version: 2,
      sections: { ...stored.sections, plan: '<p>Plan de la otra ventana</p>' },
    };
    await user.click(screen.getByTestId('note-template'));

    const alert = await screen.findByTestId('note-conflict', {}, slow);
    expect(alert.textContent).toContain('La nota se modificó en otra ventana');
    expect(screen.getByTestId('note-save-status').dataset.status).toBe('conflict');
    await user.click(within(alert).getByTestId('note-conflict-reload'));

    await waitFor(() =>
      expect(screen.getByRole('textbox', { name: 'Plan' }).textContent).toBe('Plan de la otra ventana'),
    );
    const kept = screen.getByTestId('note-unsaved');
    expect(within(kept).getByTestId('note-unsaved-plan').textContent).toContain('Tratamiento');
    expect(within(kept).getByTestId('note-unsaved-objective').textContent).toContain('Exploración');
    expect(screen.queryByTestId('note-conflict')).toBeNull();
    expect(patches()).toHaveLength(1);
  });

  it('adds diagnoses from the debounced search, first one primary, then reorders and changes the primary', async () => {
    stored = sampleNote();
    api.routes['GET /api/v1/diagnoses'] = (_request, response) =>
      sendJson(response, 200, {
        items: [
          { code: 'J06.9', chapter: 'X', nameEs: 'Infección respiratoria aguda', nameEn: 'Acute URTI' },
          { code: 'J02.9', chapter: 'X', nameEs: 'Faringitis aguda', nameEn: 'Acute pharyngitis' },
        ],
      });
    const puts: { baseVersion: number; items: { code: string; primary: boolean }[] }[] = [];
    api.routes[`PUT ${notePath}/diagnoses`] = (request, response) => {
      const body = request.json() as (typeof puts)[number];
      puts.push(body);
      const names: Record<string, [string, string]> = {
        'J06.9': ['Infección respiratoria aguda', 'Acute URTI'],
        'J02.9': ['Faringitis aguda', 'Acute pharyngitis'],
      };
      stored = {
        ...stored!,
        version: stored!.version + 1,
        diagnoses: body.items.map((item) => ({
          code: item.code,
          chapter: 'X',
          nameEs: names[item.code]?.[0] ?? '',
          nameEn: names[item.code]?.[1] ?? '',
          primary: item.primary,
        })),
      };
      sendJson(response, 200, stored);
    };
    const user = userEvent.setup();
    renderApp(`/admin/appointments/${appointmentId}/note`);
    const search = await screen.findByTestId('note-diagnosis-search', {}, slow);
    await user.type(search, 'J0');
    await user.click(await screen.findByText('Infección respiratoria aguda', {}, slow));
    await waitFor(() => expect(puts).toHaveLength(1));
    await user.type(screen.getByTestId('note-diagnosis-search'), 'J0');
    await user.click(await screen.findByText('Faringitis aguda', {}, slow));
    await waitFor(() => expect(puts).toHaveLength(2));
    expect(puts[1]).toEqual({
      baseVersion: 2,
      items: [
        { code: 'J06.9', primary: true },
        { code: 'J02.9', primary: false },
      ],
    });

    const rows = () => screen.getAllByTestId('note-diagnosis');
    await user.click(within(rows()[1]!).getByTestId('note-diagnosis-primary'));
    await waitFor(() => expect(puts).toHaveLength(3));
    await user.click(within(rows()[1]!).getByTestId('note-diagnosis-up'));
    await waitFor(() => expect(puts).toHaveLength(4));
    expect(puts[3]).toEqual({
      baseVersion: 4,
      items: [
        { code: 'J02.9', primary: true },
        { code: 'J06.9', primary: false },
      ],
    });
    await waitFor(() => expect(rows().map((row) => row.dataset.code)).toEqual(['J02.9', 'J06.9']));
    expect(rows()[0]?.dataset.primary).toBe('true');
    await user.click(within(rows()[1]!).getByTestId('note-diagnosis-remove'));
    await waitFor(() => expect(puts.at(-1)?.items).toEqual([{ code: 'J02.9', primary: true }]));
  });

  it('signing saves the last keystrokes first, signs that version, then shows the note locked', async () => {
    stored = sampleNote({ version: 3, sections: { ...sampleNote().sections, plan: '<p>Reposo</p>' } });
    const signs: unknown[] = [];
    api.routes[`POST ${notePath}/sign`] = (request, response) => {
      signs.push(request.json());
      stored = {
        ...stored!,
        status: 'signed',
        canEdit: false,
        canAmend: true,
        signedAt: '2026-11-21T11:00:00.000Z',
      };
      sendJson(response, 200, stored);
    };
    const user = userEvent.setup();
    renderApp(`/admin/appointments/${appointmentId}/note`);
    const plan = await screen.findByRole('textbox', { name: 'Plan' }, slow);
    // Typed a moment ago: not yet autosaved.
    plan.querySelector('p')!.textContent = 'Reposo y control en 7 días';
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(patches()).toHaveLength(0);

    await user.click(screen.getByTestId('note-sign'));
    const dialog = await screen.findByTestId('note-sign-confirm');
    expect(dialog.textContent).toContain('la nota queda bloqueada');
    expect(dialog.textContent).toContain('en su idioma');
    await user.click(within(dialog).getByRole('button', { name: 'Firmar y bloquear' }));

    const view = await screen.findByTestId('note-signed-view', {}, slow);
    expect(patches()).toEqual([{ baseVersion: 3, plan: '<p>Reposo y control en 7 días</p>' }]);
    expect(signs).toEqual([{ baseVersion: 4 }]);
    expect(within(view).getByTestId('note-view-plan').textContent).toContain('Reposo y control en 7 días');
    expect(screen.queryAllByTestId('rich-text-editor-content')).toHaveLength(0);
  });

  it('shows a signed note read-only and sanitized, with its addenda, and lets the doctor add one', async () => {
    stored = sampleNote({
      status: 'signed',
      version: 5,
      canEdit: false,
      canAmend: true,
      signedAt: '2026-11-21T11:00:00.000Z',
      summaryDocumentId: '55555555-5555-4555-8555-555555555555',
      sections: {
        subjective: '<p>Tos <img src="x" onerror="alert(1)"></p>',
        objective: '<p>Faringe <a href="javascript:alert(1)">roja</a></p>',
        assessment: '<p>Faringitis</p>',
        plan: '',
      },
      addenda: [
        {
          id: 'a-1',
          author: { id: doctorId, name: 'Dra. Carmen Ruiz' },
          body: '<p>Resultado del cultivo negativo.</p>',
          signedAt: '2026-11-22T08:30:00.000Z',
        },
      ],
    });
    const user = userEvent.setup();
    renderApp(`/admin/appointments/${appointmentId}/note`);
    const view = await screen.findByTestId('note-signed-view', {}, slow);
    expect(within(view).getByTestId('note-status').textContent).toBe('Firmada');
    expect(view.querySelector('[contenteditable="true"]')).toBeNull();
    expect(screen.queryByTestId('note-sign')).toBeNull();
    expect(screen.queryByTestId('note-template')).toBeNull();
    expect(view.innerHTML).not.toContain('onerror');
    expect(view.innerHTML).not.toContain('javascript:');
    expect(within(view).getByTestId('note-view-plan').textContent).toContain('Sin contenido.');
    const addendum = within(view).getByTestId('note-addendum');
    // 08:30 UTC in the viewer's zone (Europe/Madrid).
    expect(addendum.textContent).toContain('Dra. Carmen Ruiz');
    expect(addendum.textContent).toContain('9:30');
    const pdf = within(view).getByTestId('note-summary-pdf');
    expect(pdf.getAttribute('href')).toBe(
      `/api/v1/patients/${patientId}/documents/55555555-5555-4555-8555-555555555555/file`,
    );

    await user.click(within(view).getByTestId('note-add-addendum'));
    expect(await screen.findByTestId('addendum-editor', {}, slow)).toBeTruthy();
    expect(await screen.findByRole('textbox', { name: 'Nueva adenda' }, slow)).toBeTruthy();
  });
});

/** A chart as a treating doctor reads it: demographics and one current allergy (one ended). */
function sampleChart() {
  const by = { id: doctorId, name: 'Dra. Carmen Ruiz' };
  const allergy = (id: string, substance: string, severity: string, removedAt: string | null) => ({
    id,
    substance,
    reaction: null,
    severity,
    recordedAt: '2026-01-10T10:00:00.000Z',
    recordedBy: by,
    removedAt,
    removedBy: removedAt === null ? null : by,
  });
  return {
    patientId,
    access: 'treating',
    emergencyExpiresAt: null,
    demographics: {
      name: 'Lucía Gómez',
      dateOfBirth: '1990-03-15',
      sex: 'female',
      phone: null,
      email: 'lucia@example.com',
      language: 'es',
      address: null,
    },
    identityDocument: { type: null, number: null },
    emergencyContact: { name: null, phone: null, relation: null },
    visits: [],
    clinical: {
      bloodType: null,
      allergies: [
        allergy('11111111-1111-4111-8111-111111111111', 'Penicilina', 'severe', null),
        allergy('22222222-2222-4222-8222-222222222222', 'Polen', 'mild', '2026-02-01T10:00:00.000Z'),
      ],
      conditions: [],
      medications: [],
      prescriptions: [],
      documents: [],
    },
  };
}
