import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { errorCodes } from '@telemedicina/shared/errors';
import type { PasswordProblem } from '@telemedicina/shared/password-policy';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import en from '../../public/assets/i18n/en.json';
import es from '../../public/assets/i18n/es.json';

type Tree = { [key: string]: string | Tree };

function flatten(tree: Tree, prefix = ''): Map<string, string> {
  const entries = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') {
      entries.set(path, value);
    } else {
      flatten(value, path).forEach((text, nested) => entries.set(nested, text));
    }
  }
  return entries;
}

const spanish = flatten(es);
const english = flatten(en);
const placeholders = (text: string) => [...text.matchAll(/{{\s*(\w+)\s*}}/g)].map((match) => match[1]).sort();

const sourceRoot = import.meta.dirname ? join(import.meta.dirname, '..') : '';

function sourceFiles(directory: string): string[] {
  return readdirSync(directory).flatMap((name) => {
    const path = join(directory, name);
    if (statSync(path).isDirectory()) {
      return name === 'test' ? [] : sourceFiles(path);
    }
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) && !name.endsWith('.d.ts') ? [path] : [];
  });
}

describe('translation files', () => {
  it('have exactly the same keys in Spanish and English', () => {
    const onlySpanish = [...spanish.keys()].filter((key) => !english.has(key));
    const onlyEnglish = [...english.keys()].filter((key) => !spanish.has(key));
    expect({ onlySpanish, onlyEnglish }).toEqual({ onlySpanish: [], onlyEnglish: [] });
  });

  it('have no empty text', () => {
    const empty = [...spanish, ...english].filter(([, text]) => text.trim() === '').map(([key]) => key);
    expect(empty).toEqual([]);
  });

  it('use the same placeholders in both languages', () => {
    const mismatched = [...spanish.keys()].filter(
      (key) =>
        JSON.stringify(placeholders(spanish.get(key) ?? '')) !==
        JSON.stringify(placeholders(english.get(key) ?? '')),
    );
    expect(mismatched).toEqual([]);
  });

  it('translate every error code', () => {
    for (const code of errorCodes) {
      expect(spanish.has(`errors.codes.${code}`), code).toBe(true);
    }
  });

  it('translate every validation message of the shared schemas and every password problem', () => {
    const sharedSource = join(sourceRoot, '../../../packages/shared/src');
    const messages = new Set<string>();
    for (const name of readdirSync(sharedSource)) {
      if (name.endsWith('.ts') && !name.endsWith('.test.ts')) {
        const text = readFileSync(join(sharedSource, name), 'utf8');
        for (const match of text.matchAll(/'(validation\.[A-Za-z0-9_.]+)'/g)) {
          messages.add(match[1]!);
        }
      }
    }
    expect(messages.size).toBeGreaterThan(10);
    const problems: PasswordProblem[] = [
      'tooShort',
      'tooLong',
      'tooCommon',
      'containsPersonalData',
      'tooSimple',
    ];
    const missing = [...messages, ...problems.map((problem) => `passwordPolicy.problems.${problem}`)].filter(
      (key) => !spanish.has(key),
    );
    expect(missing).toEqual([]);
  });

  it('hold the specification wording', () => {
    expect(spanish.get('errors.server.title')).toBe('Error de servidor');
    expect(spanish.get('errors.server.action')).toBe('Intentar de nuevo');
    expect(spanish.get('errors.notFound.title')).toBe('Sitio no encontrado');
    expect(spanish.get('errors.notFound.action')).toBe('Ir a un sitio seguro');
    expect(spanish.get('common.ok')).toBe('Aceptar');
    expect(spanish.get('app.name')).toBe('Telemedicina');
  });

  it('contain every key the source code asks for by name', () => {
    const missing: string[] = [];
    for (const file of sourceFiles(sourceRoot)) {
      const text = readFileSync(file, 'utf8');
      for (const match of text.matchAll(/\bt\(\s*'([a-zA-Z0-9_.]+)'/g)) {
        const key = match[1]!;
        // A counted text (`t(key, { count })`) may exist only as its plural forms.
        const hasPluralForms = spanish.has(`${key}_one`) && spanish.has(`${key}_other`);
        if (!spanish.has(key) && !hasPluralForms) {
          missing.push(`${relative(sourceRoot, file)}: ${key}`);
        }
      }
    }
    expect(sourceFiles(sourceRoot).length).toBeGreaterThan(20);
    expect(missing).toEqual([]);
  });
});

/** Attributes whose text a person reads or hears. */
const visibleAttributes = new Set([
  'title',
  'alt',
  'placeholder',
  'label',
  'aria-label',
  'aria-description',
  'description',
  'content',
]);

function findVisibleLiterals(fileName: string, text: string): string[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
  const found: string[] = [];
  const hasWords = (value: string) => /\p{L}{2,}/u.test(value);
  const visit = (node: ts.Node) => {
    if (ts.isJsxText(node) && hasWords(node.text)) {
      found.push(node.text.trim());
    }
    if (ts.isJsxAttribute(node) && visibleAttributes.has(node.name.getText(source)) && node.initializer) {
      const initializer = node.initializer;
      const literal = ts.isStringLiteral(initializer)
        ? initializer.text
        : ts.isJsxExpression(initializer) &&
            initializer.expression &&
            ts.isStringLiteralLike(initializer.expression)
          ? initializer.expression.text
          : null;
      if (literal !== null && hasWords(literal)) {
        found.push(`${node.name.getText(source)}="${literal}"`);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('components', () => {
  it('keep every user-visible text in the translation files (no literal text in JSX)', () => {
    const literals = sourceFiles(sourceRoot)
      .filter((file) => file.endsWith('.tsx'))
      .flatMap((file) =>
        findVisibleLiterals(file, readFileSync(file, 'utf8')).map(
          (literal) => `${relative(sourceRoot, file)}: ${literal}`,
        ),
      );
    expect(literals).toEqual([]);
  });

  it('the literal finder does find literals (so the check above can fail)', () => {
    const sample = `const A = () => <div title="Hola mundo"><p>Texto suelto</p><i aria-label={'Cerrar'} data-testid="ok-id" />{t('x')}</div>;`;
    expect(findVisibleLiterals('sample.tsx', sample)).toEqual([
      'title="Hola mundo"',
      'Texto suelto',
      'aria-label="Cerrar"',
    ]);
  });
});
