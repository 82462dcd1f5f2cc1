import { describe, expect, it } from 'vitest';
import { tuFormsIn } from '@telemedicina/shared/spanish-usted';
import es from '../../public/assets/i18n/es.json';

// Spanish addresses the reader as usted, as a clinic speaks to its patients; the finder and its own test are in the shared
// package (spanish-usted.ts), which the server's check of its strings uses too.
type Tree = { [key: string]: string | Tree };

function texts(tree: Tree, prefix = ''): [string, string][] {
  return Object.entries(tree).flatMap(([key, value]) => {
    const path = prefix ? `${prefix}.${key}` : key;
    return typeof value === 'string' ? [[path, value] as [string, string]] : texts(value, path);
  });
}

describe('the Spanish translation file', () => {
  it('addresses the reader as usted in every text (no tú forms)', () => {
    const all = texts(es);
    expect(all.length).toBeGreaterThan(500);
    const found = all.flatMap(([key, text]) =>
      tuFormsIn(text).map((form) => `${key}: «${form}» in «${text}»`),
    );
    expect(found).toEqual([]);
  });
});
