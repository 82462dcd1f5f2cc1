import { consentDocumentAdminListSchema, consentDocumentAdminSchema } from '@telemedicina/shared/consents';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEventsOf, createUser, send, signIn, type SignedInClient } from '../../test/factories.js';
import { createTestContext, type TestContext } from '../../test/test-context.js';

let context: TestContext;
let admin: SignedInClient;
let patient: SignedInClient;
let doctor: SignedInClient;
let reception: SignedInClient;

const fields = {
  kind: 'procedure',
  titleEs: 'Consentimiento para la extracción de sangre a domicilio',
  titleEn: 'Consent to a blood draw at home',
  bodyEs: 'Autorizo a la clínica a tomar una muestra de sangre en mi domicilio.',
  bodyEn: 'I allow the clinic to take a blood sample at my home.',
};

function as(who: SignedInClient | null, method: 'GET' | 'POST', url: string, body?: unknown) {
  return send(context.app, method, `/api/v1${url}`, { session: who?.token, body });
}

type Issue = { path: string; message: string };
const issuesOf = (response: { json: <T>() => T }) =>
  response.json<{ error: { code: string; details: { issues: Issue[] } } }>().error;

beforeAll(async () => {
  context = await createTestContext();
  const user = async (roles: string[]) => signIn(context.app, await createUser(context.app, { roles }));
  admin = await user(['admin']);
  patient = await user(['patient']);
  doctor = await user(['doctor']);
  reception = await user(['staff']);
});

afterAll(async () => {
  await context?.close();
});

describe('the consent documents editor (administrators)', () => {
  it('creates a document, lists it with its version and who signed the current one, and publishes a change', async () => {
    const created = await as(admin, 'POST', '/admin/consent-documents', fields);
    expect(created.statusCode, created.body).toBe(201);
    const document = consentDocumentAdminSchema.parse(created.json());
    expect(document).toMatchObject({
      kind: 'procedure',
      isSystem: false,
      current: { version: 1, titleEs: fields.titleEs, bodyEn: fields.bodyEn },
      signaturesCount: 0,
      currentSignersCount: 0,
    });

    const signed = await as(patient, 'POST', `/consent-documents/${document.id}/signatures`, {
      versionId: document.current.id,
      language: 'es',
      method: 'typed',
      typedName: 'Paciente de Prueba',
    });
    expect(signed.statusCode, signed.body).toBe(201);
    const listed = consentDocumentAdminListSchema.parse(
      (await as(admin, 'GET', '/admin/consent-documents')).json(),
    );
    expect(listed.items.find((item) => item.id === document.id)).toMatchObject({
      signaturesCount: 1,
      currentSignersCount: 1,
    });

    const published = await as(admin, 'POST', `/admin/consent-documents/${document.id}/versions`, {
      ...fields,
      kind: undefined,
      bodyEs: `${fields.bodyEs} Me han explicado los riesgos.`,
    });
    expect(published.statusCode, published.body).toBe(200);
    // Version 2: the signature of version 1 stays counted, but nobody has signed the new one yet.
    expect(consentDocumentAdminSchema.parse(published.json())).toMatchObject({
      current: { version: 2 },
      versions: [expect.objectContaining({ version: 1 }), expect.objectContaining({ version: 2 })],
      signaturesCount: 1,
      currentSignersCount: 0,
    });
    const audits = await auditEventsOf(context.app, 'consent.document_published');
    expect(audits.map((event) => (event.details as { version: number }).version)).toEqual(
      expect.arrayContaining([1, 2]),
    );
  });

  it('refuses a text missing in one language or absurdly long, naming the field, and saves nothing', async () => {
    const before = consentDocumentAdminListSchema.parse(
      (await as(admin, 'GET', '/admin/consent-documents')).json(),
    ).items.length;
    const emptyEnglish = await as(admin, 'POST', '/admin/consent-documents', { ...fields, bodyEn: '   ' });
    expect(emptyEnglish.statusCode).toBe(400);
    expect(issuesOf(emptyEnglish)).toMatchObject({ code: 'VALIDATION_FAILED' });
    expect(issuesOf(emptyEnglish).details.issues).toContainEqual(
      expect.objectContaining({ path: 'bodyEn', message: 'validation.required' }),
    );

    const tooLong = await as(admin, 'POST', '/admin/consent-documents', {
      ...fields,
      titleEs: 'T'.repeat(201),
      bodyEs: 'x'.repeat(20_001),
    });
    expect(tooLong.statusCode).toBe(400);
    expect(issuesOf(tooLong).details.issues).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ path: 'titleEs', message: 'validation.tooLong' }),
        expect.objectContaining({ path: 'bodyEs', message: 'validation.tooLong' }),
      ]),
    );

    const unknownKind = await as(admin, 'POST', '/admin/consent-documents', { ...fields, kind: 'marketing' });
    expect(unknownKind.statusCode).toBe(400);
    expect(issuesOf(unknownKind).details.issues).toContainEqual(
      expect.objectContaining({ path: 'kind', message: 'validation.invalid' }),
    );

    const list = consentDocumentAdminListSchema.parse(
      (await as(admin, 'GET', '/admin/consent-documents')).json(),
    );
    expect(list.items).toHaveLength(before);
    const target = list.items[0]!;
    const emptySpanishTitle = await as(admin, 'POST', `/admin/consent-documents/${target.id}/versions`, {
      titleEs: '',
      titleEn: target.current.titleEn,
      bodyEs: target.current.bodyEs,
      bodyEn: target.current.bodyEn,
    });
    expect(emptySpanishTitle.statusCode).toBe(400);
    expect(issuesOf(emptySpanishTitle).details.issues).toContainEqual(
      expect.objectContaining({ path: 'titleEs', message: 'validation.required' }),
    );
    const unchanged = await as(admin, 'POST', `/admin/consent-documents/${target.id}/versions`, {
      titleEs: target.current.titleEs,
      titleEn: target.current.titleEn,
      bodyEs: target.current.bodyEs,
      bodyEn: target.current.bodyEn,
    });
    expect(unchanged.statusCode).toBe(422);
    expect(unchanged.json()).toMatchObject({
      error: { code: 'UNPROCESSABLE', details: { reason: 'consents.unchanged' } },
    });
    const after = consentDocumentAdminListSchema.parse(
      (await as(admin, 'GET', '/admin/consent-documents')).json(),
    );
    expect(after.items.find((item) => item.id === target.id)?.current.version).toBe(target.current.version);
  });

  it('answers 403 to a doctor, reception and a patient, 401 to nobody, and 404 for an unknown document', async () => {
    const list = consentDocumentAdminListSchema.parse(
      (await as(admin, 'GET', '/admin/consent-documents')).json(),
    );
    const target = list.items[0]!;
    const change = { ...fields, kind: undefined, bodyEs: 'Otro texto.' };
    for (const who of [doctor, reception, patient]) {
      expect((await as(who, 'GET', '/admin/consent-documents')).statusCode).toBe(403);
      expect((await as(who, 'POST', '/admin/consent-documents', fields)).statusCode).toBe(403);
      expect(
        (await as(who, 'POST', `/admin/consent-documents/${target.id}/versions`, change)).statusCode,
      ).toBe(403);
    }
    expect((await as(null, 'GET', '/admin/consent-documents')).statusCode).toBe(401);
    const unknown = await as(
      admin,
      'POST',
      '/admin/consent-documents/00000000-0000-4000-8000-000000000000/versions',
      change,
    );
    expect(unknown.statusCode).toBe(404);
    const after = consentDocumentAdminListSchema.parse(
      (await as(admin, 'GET', '/admin/consent-documents')).json(),
    );
    expect(after.items.find((item) => item.id === target.id)?.current.version).toBe(target.current.version);
  });
});
