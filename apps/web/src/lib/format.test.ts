import { describe, expect, it } from 'vitest';
import { formatAcceptedTypes, formatBytes } from './format';

describe('formatBytes', () => {
  it('counts in 1024s, like the server limits: 10 MB is 10 × 1024 × 1024 bytes', () => {
    expect(formatBytes(10 * 1024 * 1024, 'es')).toBe('10 MB');
    expect(formatBytes(1536, 'en')).toBe('1.5 kB');
    expect(formatBytes(1000, 'en')).toBe('1,000 bytes');
  });
});

describe('formatAcceptedTypes', () => {
  it('names each kind once, as people read them', () => {
    expect(
      formatAcceptedTypes([
        'application/pdf',
        '.pdf',
        'image/png',
        '.png',
        'image/jpeg',
        '.jpg',
        '.jpeg',
        'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      ]),
    ).toBe('PDF, PNG, JPG, DOCX');
    expect(formatAcceptedTypes(['image/*'])).toBe('image/*');
  });
});
