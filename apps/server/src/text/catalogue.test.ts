import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { supportedLanguages } from '@telemedicina/shared/i18n';
import { tuFormsIn } from '@telemedicina/shared/spanish-usted';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { sourceFiles } from '../test/source-files.js';
import { flattenCatalogue, parameterPattern, t } from './catalogue.js';

// The server's text catalogue is checked as the web's translation files are
// (apps/web/src/test/translations.test.ts): the same keys in both languages, no empty text, the same
// parameters, every key the code asks for present (and every key asked for), usted in Spanish.

const spanish = flattenCatalogue('es');
const english = flattenCatalogue('en');
const parametersOf = (text: string) => [...text.matchAll(parameterPattern)].map((match) => match[1]).sort();

const sourceRoot = join(import.meta.dirname, '..');

/**
 * The keys a source text asks `t` for: whole keys (`'email.greeting'`, either side of a `? :`) and,
 * for keys built from a value (`` `pdf.record.sexes.${sex}` ``), the fixed start followed by `*`.
 */
function keysAskedIn(fileName: string, text: string): string[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
  const keys: string[] = [];
  const collect = (node: ts.Node): void => {
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) {
      keys.push(node.text);
    } else if (ts.isTemplateExpression(node)) {
      keys.push(`${node.head.text}*`);
    } else if (ts.isConditionalExpression(node)) {
      collect(node.whenTrue);
      collect(node.whenFalse);
    } else if (ts.isParenthesizedExpression(node)) {
      collect(node.expression);
    }
  };
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 't') {
      const key = node.arguments[1];
      if (key !== undefined) {
        collect(key);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return keys;
}

const asked = sourceFiles(sourceRoot).flatMap((file) =>
  keysAskedIn(file, readFileSync(file, 'utf8')).map((key) => ({ file: relative(sourceRoot, file), key })),
);
const isPresent = (key: string) =>
  key.endsWith('*')
    ? [...spanish.keys()].some((known) => known.startsWith(key.slice(0, -1)))
    : spanish.has(key);

describe('the server text catalogue', () => {
  it('has exactly the same keys in Spanish and English', () => {
    expect(spanish.size).toBeGreaterThan(150);
    const onlySpanish = [...spanish.keys()].filter((key) => !english.has(key));
    const onlyEnglish = [...english.keys()].filter((key) => !spanish.has(key));
    expect({ onlySpanish, onlyEnglish }).toEqual({ onlySpanish: [], onlyEnglish: [] });
  });

  it('has no empty text', () => {
    const empty = [...spanish, ...english].filter(([, text]) => text.trim() === '').map(([key]) => key);
    expect(empty).toEqual([]);
  });

  it('uses the same parameters in both languages', () => {
    const mismatched = [...spanish.keys()].filter(
      (key) =>
        JSON.stringify(parametersOf(spanish.get(key) ?? '')) !==
        JSON.stringify(parametersOf(english.get(key) ?? '')),
    );
    expect(mismatched).toEqual([]);
  });

  it('addresses the reader as usted in every Spanish text (no tú forms)', () => {
    const found = [...spanish].flatMap(([key, text]) =>
      tuFormsIn(text).map((form) => `${key}: «${form}» in «${text}»`),
    );
    expect(found).toEqual([]);
  });

  it('contains every key the source code asks for', () => {
    expect(asked.length).toBeGreaterThan(150);
    const missing = asked.filter(({ key }) => !isPresent(key)).map(({ file, key }) => `${file}: ${key}`);
    expect(missing).toEqual([]);
  });

  it('holds no text the code never asks for', () => {
    const exact = new Set(asked.map(({ key }) => key));
    const prefixes = asked.filter(({ key }) => key.endsWith('*')).map(({ key }) => key.slice(0, -1));
    const unused = [...spanish.keys()].filter(
      (key) => !exact.has(key) && !prefixes.some((prefix) => key.startsWith(prefix)),
    );
    expect(unused).toEqual([]);
  });

  it('finds the keys a source asks for, so the checks above can fail', () => {
    const sample =
      "t(language, 'email.greeting', { name }); t(l, on ? 'csv.users.yes' : 'csv.users.no'); t(l, `pdf.record.sexes.${sex}`); other(l, 'not.a.key');";
    expect(keysAskedIn('sample.ts', sample)).toEqual([
      'email.greeting',
      'csv.users.yes',
      'csv.users.no',
      'pdf.record.sexes.*',
    ]);
    expect(isPresent('pdf.record.sexes.*')).toBe(true);
    expect(isPresent('email.nothing')).toBe(false);
    expect(tuFormsIn('Revisa tu correo.')).not.toEqual([]);
  });
});

describe('t', () => {
  it('fills named parameters in the reader’s language', () => {
    expect(t('es', 'email.greeting', { name: 'Ana' })).toBe('Hola, Ana:');
    expect(t('en', 'email.greeting', { name: 'Ana' })).toBe('Hello Ana,');
    expect(t('es', 'email.verifyEmail.expiry', { hours: 48 })).toBe('El enlace caduca en 48 horas.');
    for (const language of supportedLanguages) {
      expect(t(language, 'pdf.prescription.title')).not.toBe('');
    }
  });

  it('refuses a key or a parameter that is not there rather than writing a text with a hole', () => {
    expect(() => t('es', 'email.nothing' as 'email.copyLink')).toThrow(
      'No server text "email.nothing" in es',
    );
    const withoutName = [{}] as unknown as [{ name: string }];
    expect(() => t('en', 'email.greeting', ...withoutName)).toThrow('needs the parameter "name"');
  });
});
