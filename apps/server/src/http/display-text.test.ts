import type { ChatMessage } from '@telemedicina/shared/visits';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClock } from '../test/booking-fixtures.js';
import {
  createUser,
  nextRemoteAddress,
  requestHeaders,
  send,
  signIn,
  testPassword,
  type SignedInClient,
} from '../test/factories.js';
import { createTestContext, type TestContext } from '../test/test-context.js';
import { createVisit, type TestVisit } from '../test/visit-fixtures.js';

/**
 * Names and labels people type and others read refuse the bidirectional controls that make text
 * read differently from what it is (a file name or a person's name that spoofs another): U+202E RIGHT-TO-LEFT OVERRIDE and the
 * rest. Every route that takes such a name answers 400 VALIDATION_FAILED on the field with
 * `validation.bidiControls`; uploaded file names, which the server turns into labels itself, lose them.
 */

const clock = createClock('2026-06-15T10:00:00.000Z');
let context: TestContext;
let admin: SignedInClient;
let visit: TestVisit;

beforeAll(async () => {
  context = await createTestContext({ now: clock.now });
  admin = await signIn(context.app, await createUser(context.app, { roles: ['admin'] }));
  visit = await createVisit(context.app, { startsAt: clock.now(), status: 'in_progress' });
}, 30_000);

afterAll(async () => {
  await context?.close();
});

/** Every bidirectional control character the rule covers. */
const controls = [
  '\u061C',
  '\u200E',
  '\u200F',
  '\u202A',
  '\u202B',
  '\u202C',
  '\u202D',
  '\u202E',
  '\u2066',
  '\u2067',
  '\u2068',
  '\u2069',
];

interface ValidationIssue {
  path: string;
  message: string;
}

function expectRefused(response: LightMyRequestResponse, path: string): void {
  expect(response.statusCode, response.body).toBe(400);
  const body = response.json<{ error: { code: string; details?: { issues?: ValidationIssue[] } } }>();
  expect(body.error.code).toBe('VALIDATION_FAILED');
  expect(body.error.details?.issues).toContainEqual(
    expect.objectContaining({ path, message: 'validation.bidiControls' }),
  );
}

/** A name that reads "Ana Ruiz" plus reversed text after the override. */
const spoofed = (control = '\u202E') => `Ana Ruiz ${control}zeréP`;

/** A valid registration for `name` and `email`: only the name decides whether it is refused. */
function registration(name: string, email: string) {
  return {
    name,
    email,
    password: testPassword,
    phone: '+52 55 1234 5678',
    dateOfBirth: '1990-04-02',
    language: 'es',
    timeZone: 'America/Mexico_City',
    acceptTerms: true,
    acceptTelemedicineConsent: true,
  };
}
describe('names and labels refuse bidirectional controls', () => {
  it.each(controls.map((control) => [`U+${control.codePointAt(0)!.toString(16).toUpperCase()}`, control]))(
    'registration refuses %s in the name',
    async (_label, control) => {
      const response = await send(context.app, 'POST', '/api/v1/auth/register', {
        body: registration(spoofed(control), `bidi${control.codePointAt(0)}@example.test`),
      });
      expectRefused(response, 'name');
    },
  );

  it('registration still takes a name in a right-to-left script, and accents', async () => {
    const response = await send(context.app, 'POST', '/api/v1/auth/register', {
      body: registration('ليلى حداد Muñoz', 'rtl-name@example.test'),
    });
    expect(response.statusCode, response.body).toBeLessThan(300);
  });

  it('the own profile refuses it', async () => {
    const response = await send(context.app, 'PATCH', '/api/v1/me', {
      session: visit.patientSession.token,
      body: { name: spoofed() },
    });
    expectRefused(response, 'name');
  });

  it('an administrator editing someone refuses it', async () => {
    const response = await send(context.app, 'PATCH', `/api/v1/users/${visit.patient.id}`, {
      session: admin.token,
      body: { name: spoofed() },
    });
    expectRefused(response, 'name');
  });

  it('an invitation refuses it', async () => {
    const response = await send(context.app, 'POST', '/api/v1/invitations', {
      session: admin.token,
      body: { email: 'invited-bidi@example.test', name: spoofed(), roleKeys: ['staff'], language: 'es' },
    });
    expectRefused(response, 'name');
  });

  it('a role refuses it in either language', async () => {
    const response = await send(context.app, 'POST', '/api/v1/roles', {
      session: admin.token,
      body: { key: 'bidi_role', name: { es: 'Recepción', en: 'Front\u202Eksed' }, permissions: [] },
    });
    expectRefused(response, 'name.en');
  });

  it('a specialty refuses it', async () => {
    const response = await send(context.app, 'POST', '/api/v1/specialties', {
      session: admin.token,
      body: { name: { es: 'Cardio\u2067logía', en: 'Cardiology' } },
    });
    expectRefused(response, 'name.es');
  });

  it("the clinic's name refuses it", async () => {
    const current = await send(context.app, 'GET', '/api/v1/settings', { session: admin.token });
    expect(current.statusCode).toBe(200);
    const settings = current.json<{ clinic: Record<string, unknown> } & Record<string, unknown>>();
    const { logoUrl: _logoUrl, ...clinic } = settings.clinic;
    const response = await send(context.app, 'PATCH', '/api/v1/settings', {
      session: admin.token,
      body: { ...settings, clinic: { ...clinic, name: 'Clínica \u202Eetron' } },
    });
    expectRefused(response, 'clinic.name');
  });

  it("a visit guest's name refuses it", async () => {
    const response = await send(context.app, 'POST', `/api/v1/visits/${visit.appointmentId}/guests`, {
      session: visit.doctorSession.token,
      body: { name: spoofed(), role: 'companion', language: 'es' },
    });
    expectRefused(response, 'name');
  });

  it('a prescription refuses it in a medication line', async () => {
    const response = await send(context.app, 'POST', `/api/v1/patients/${visit.patient.id}/prescriptions`, {
      session: visit.doctorSession.token,
      body: {
        items: [
          {
            medication: 'Paracetamol',
            dose: '\u202E gm 005',
            route: 'oral',
            frequency: 'every 8 hours',
            duration: '3 days',
            quantity: '9',
          },
        ],
      },
    });
    expectRefused(response, 'items.0.dose');
  });

  it.each([
    ['allergies', { substance: 'Penicil\u202Enil' }, 'substance'],
    ['medications', { name: 'Ibu\u2066profen' }, 'name'],
    ['conditions', { description: 'Asth\u200Fma' }, 'description'],
  ])('the chart refuses it in %s', async (section, body, path) => {
    const response = await send(context.app, 'POST', `/api/v1/patients/${visit.patient.id}/${section}`, {
      session: visit.doctorSession.token,
      body,
    });
    expectRefused(response, path);
  });

  it("the chart's profile refuses it in the patient's and the emergency contact's names", async () => {
    const name = await send(context.app, 'PATCH', `/api/v1/patients/${visit.patient.id}/profile`, {
      session: visit.doctorSession.token,
      body: { name: spoofed() },
    });
    expectRefused(name, 'name');
    const contact = await send(context.app, 'PATCH', `/api/v1/patients/${visit.patient.id}/profile`, {
      session: visit.patientSession.token,
      body: { emergencyContact: { name: spoofed(), relation: 'sister' } },
    });
    expectRefused(contact, 'emergencyContact.name');
  });
});

describe('uploaded file names', () => {
  it('lose their bidirectional controls in the visit chat', async () => {
    const boundary = `----bidi${Math.random().toString(16).slice(2)}`;
    const png = Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGNgYGBgAAAABQABXvMqGgAAAABJRU5ErkJggg==',
      'base64',
    );
    const payload = Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="photo\u202Egnp.png"\r\nContent-Type: image/png\r\n\r\n`,
      ),
      png,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const response = await context.app.inject({
      method: 'POST',
      url: `/api/v1/visits/${visit.appointmentId}/files`,
      headers: {
        ...requestHeaders(visit.patientSession.token),
        'content-type': `multipart/form-data; boundary=${boundary}`,
      },
      remoteAddress: nextRemoteAddress(),
      payload,
    });
    expect(response.statusCode, response.body).toBe(201);
    const name = response.json<ChatMessage>().file?.name ?? '';
    expect(name).not.toMatch(/[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/u);
    expect(name.startsWith('photognp')).toBe(true);
  });
});
