import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appMeta, diagnosisCodes } from '../../db/schema.js';
import { createUser, send, signIn, type SignedInClient } from '../../test/factories.js';
import { createTestContext, type TestContext } from '../../test/test-context.js';
import { diagnosisCatalogue } from './catalogue.js';
import { catalogueVersionKey } from './diagnoses.repository.js';
import { catalogueVersion, foldForSearch, loadDiagnosisCatalogue } from './diagnoses.service.js';

let context: TestContext;
let doctor: SignedInClient;
let patient: SignedInClient;

beforeAll(async () => {
  context = await createTestContext();
  doctor = await signIn(context.app, await createUser(context.app, { roles: ['doctor'] }));
  patient = await signIn(context.app, await createUser(context.app, { roles: ['patient'] }));
});

afterAll(async () => {
  await context?.close();
});

type Answer = { items: { code: string; chapter: string; nameEs: string; nameEn: string }[] };

async function search(q: string, limit?: number): Promise<Answer['items']> {
  const query = new URLSearchParams({ q, ...(limit === undefined ? {} : { limit: String(limit) }) });
  const response = await send(context.app, 'GET', `/api/v1/diagnoses?${query.toString()}`, {
    session: doctor.token,
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<Answer>().items;
}

describe('diagnosis catalogue data', () => {
  it('has 300+ unique, well-formed codes covering every ICD-10 chapter and both languages', () => {
    const codes = diagnosisCatalogue.map(([code]) => code);
    expect(codes.length).toBeGreaterThanOrEqual(300);
    expect(new Set(codes).size).toBe(codes.length);
    for (const [code, chapter, nameEs, nameEn] of diagnosisCatalogue) {
      expect(code).toMatch(/^[A-Z][0-9]{2}(\.[0-9]{1,2})?$/);
      expect(chapter).toMatch(/^[IVX]+$/);
      expect(nameEs.trim().length).toBeGreaterThan(2);
      expect(nameEn.trim().length).toBeGreaterThan(2);
    }
    const chapters = new Set(diagnosisCatalogue.map(([, chapter]) => chapter));
    expect(chapters.size).toBe(22);
    for (const common of [
      'J06.9',
      'I10',
      'E11.9',
      'F41.1',
      'F32.9',
      'M54.5',
      'G43.9',
      'R51',
      'A09',
      'N39.0',
      'L30.9',
      'J30.4',
      'Z09.9',
    ]) {
      expect(codes, common).toContain(common);
    }
  });

  it('is loaded at start, and loading again writes only when the catalogue changed', async () => {
    const db = context.db;
    const rows = await db.select({ code: diagnosisCodes.code }).from(diagnosisCodes);
    expect(rows.length).toBe(diagnosisCatalogue.length);
    const [meta] = await db.select().from(appMeta).where(eq(appMeta.key, catalogueVersionKey));
    expect(meta?.value).toBe(catalogueVersion());
    expect(await loadDiagnosisCatalogue(db, new Date())).toBe(false);

    const changed = diagnosisCatalogue.map((entry) =>
      entry[0] === 'I10'
        ? ([entry[0], entry[1], 'Hipertensión esencial (primaria) — prueba', entry[3]] as const)
        : entry,
    );
    expect(await loadDiagnosisCatalogue(db, new Date(), changed)).toBe(true);
    const [updated] = await db.select().from(diagnosisCodes).where(eq(diagnosisCodes.code, 'I10'));
    expect(updated?.nameEs).toContain('prueba');
    expect(updated?.searchText).toContain('hipertension esencial');
    expect(await loadDiagnosisCatalogue(db, new Date())).toBe(true);
    const [restored] = await db.select().from(diagnosisCodes).where(eq(diagnosisCodes.code, 'I10'));
    expect(restored?.nameEs).toBe('Hipertensión esencial (primaria)');
  });

  it('folds accents and case for the search text', () => {
    expect(foldForSearch('  Migraña  CLÁSICA ')).toBe('migrana clasica');
    expect(foldForSearch('Pingüino')).toBe('pinguino');
  });
});

describe('GET /diagnoses', () => {
  it('finds by code prefix, codes starting with it first', async () => {
    const items = await search('j06');
    expect(items[0]?.code).toBe('J06.9');
    const byPrefix = await search('E11', 20);
    expect(byPrefix.length).toBeGreaterThanOrEqual(4);
    expect(byPrefix.every((item) => item.code.startsWith('E11'))).toBe(true);
  });

  it('finds Spanish words without their accents, and English words', async () => {
    const migraine = await search('migrana');
    expect(migraine.map((item) => item.code)).toContain('G43.9');
    expect(migraine.every((item) => /migra/i.test(item.nameEs))).toBe(true);
    const withAccent = await search('Cefalea tensión');
    expect(withAccent[0]?.code).toBe('G44.2');
    const english = await search('low back pain');
    expect(english.map((item) => item.code)).toContain('M54.5');
    const uti = await search('urinary tract');
    expect(uti.map((item) => item.code)).toContain('N39.0');
  });

  it('answers at most `limit` (≤ 20) results and treats LIKE wildcards as text', async () => {
    expect((await search('a', 5)).length).toBe(5);
    expect(await search('%')).toEqual([]);
    const tooMany = await send(context.app, 'GET', '/api/v1/diagnoses?q=a&limit=21', {
      session: doctor.token,
    });
    expect(tooMany.statusCode).toBe(400);
    const empty = await send(context.app, 'GET', '/api/v1/diagnoses?q=', { session: doctor.token });
    expect(empty.statusCode).toBe(400);
    const long = await send(context.app, 'GET', `/api/v1/diagnoses?q=${'x'.repeat(101)}`, {
      session: doctor.token,
    });
    expect(long.statusCode).toBe(400);
  });

  it('is for clinicians: a patient gets 403', async () => {
    const response = await send(context.app, 'GET', '/api/v1/diagnoses?q=j06', { session: patient.token });
    expect(response.statusCode).toBe(403);
  });

  it('GET /diagnoses/:code answers one code (case-insensitive) or 404', async () => {
    const found = await send(context.app, 'GET', '/api/v1/diagnoses/j45.9', { session: doctor.token });
    expect(found.statusCode).toBe(200);
    expect(found.json()).toEqual({
      code: 'J45.9',
      chapter: 'X',
      nameEs: 'Asma, no especificada',
      nameEn: 'Asthma, unspecified',
    });
    const missing = await send(context.app, 'GET', '/api/v1/diagnoses/Q99.9', { session: doctor.token });
    expect(missing.statusCode).toBe(404);
  });
});
