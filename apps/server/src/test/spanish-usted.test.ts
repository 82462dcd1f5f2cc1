import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { tuFormsIn } from '@telemedicina/shared/spanish-usted';
import { describe, expect, it } from 'vitest';
import { sourceFiles } from './source-files.js';
import { formatInstantWithZone } from '../lib/clock.js';

// Spanish addresses the reader as usted; the finder and its own test are in the shared package
// (spanish-usted.ts), which the web's check of its translation file uses too. The server's words
// live in its text catalogue (text/es.ts, checked by text/catalogue.test.ts); this check also keeps
// tú out of any string still written in code.

const sourceRoot = join(import.meta.dirname, '..');

/** Every string a source text writes out: literals and the fixed parts of template strings. */
function literalsIn(fileName: string, text: string): string[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (
      ts.isStringLiteralLike(node) ||
      ts.isTemplateHead(node) ||
      ts.isTemplateMiddle(node) ||
      ts.isTemplateTail(node)
    ) {
      found.push(node.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('the server’s Spanish texts (emails, notifications, PDFs, calendar files)', () => {
  it('address the reader as usted (no tú forms in any string the server writes)', () => {
    const files = sourceFiles(sourceRoot);
    expect(files.length).toBeGreaterThan(50);
    const found = files.flatMap((file) =>
      literalsIn(file, readFileSync(file, 'utf8')).flatMap((text) =>
        tuFormsIn(text).map((form) => `${relative(sourceRoot, file)}: «${form}» in «${text}»`),
      ),
    );
    expect(found).toEqual([]);
  });

  it('finds tú forms in the fixed parts of template strings (so the check above can fail)', () => {
    const sample =
      "const a = `Hola, ${name}: revisa tu correo.`; const b = 'Reserva una cita'; const c = 'Reserve una cita';";
    expect(literalsIn('sample.ts', sample).flatMap(tuFormsIn)).toEqual(['tu', 'Reserva una']);
    // A date as the emails write it is not mistaken for a tú form.
    const when = formatInstantWithZone(
      new Date('2026-03-27T08:00:00Z'),
      'es',
      'Europe/Madrid',
      'fullDateTime',
    );
    expect(tuFormsIn(`Su cita del ${when} fue cancelada por usted.`)).toEqual([]);
  });
});
