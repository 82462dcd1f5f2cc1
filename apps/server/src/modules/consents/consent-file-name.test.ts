import { describe, expect, it } from 'vitest';
import { consentFileName, consentTitleSlug } from './consent-file-name.js';

describe('the signed consent file name', () => {
  it('keeps the words of the title that say what was consented to, without repeating "consent"', () => {
    expect(consentTitleSlug('Consentimiento informado para la atención por telemedicina', 'es')).toBe(
      'atencion-telemedicina',
    );
    expect(consentTitleSlug('Informed consent to care by telemedicine', 'en')).toBe('care-telemedicine');
    expect(consentTitleSlug('Consentimiento para el tratamiento de sus datos de salud', 'es')).toBe(
      'tratamiento-datos-salud',
    );
  });

  it('names the version and the day in the signer zone, in their language', () => {
    // 03:30 UTC on the 29th is still the 28th in Mexico City.
    const signedAt = new Date('2026-11-29T03:30:00Z');
    expect(
      consentFileName(
        'es',
        'Consentimiento informado para la atención por telemedicina',
        1,
        signedAt,
        'America/Mexico_City',
      ),
    ).toBe('consentimiento-atencion-telemedicina-v1-2026-11-28.pdf');
    expect(
      consentFileName('en', 'Informed consent to care by telemedicine', 2, signedAt, 'Europe/Madrid'),
    ).toBe('consent-care-telemedicine-v2-2026-11-29.pdf');
  });

  it('stays short and readable for a long or symbol-only title', () => {
    const long = consentTitleSlug(
      'Cirugía ambulatoria de rodilla con anestesia regional y sedación consciente',
      'es',
    );
    expect(long.length).toBeLessThanOrEqual(40);
    expect(long).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
    expect(consentFileName('es', '¡¿…?!', 3, new Date('2026-11-28T12:00:00Z'), 'UTC')).toBe(
      'consentimiento-v3-2026-11-28.pdf',
    );
  });
});
