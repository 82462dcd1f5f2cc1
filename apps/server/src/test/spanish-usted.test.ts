import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { formatInstantWithZone } from '../lib/clock.js';

/**
 * (The web client's twin, apps/web/src/test/spanish-usted.test.ts, checks its translation file
 * with the same patterns.)
 *
 * Spanish addresses the reader as usted everywhere (issue 20). Words that only tú uses: the
 * possessive and object pronouns, the second-person verbs, and imperatives at the start of a
 * sentence ("Reserva una cita", "Entra a la sala", "Regístrate"). The usted forms ("Reserve una
 * cita", "Entre", "Regístrese") and third-person statements ("El paciente entra") do not match.
 */
const tuWords =
  /(?<!\p{L})(tu|tus|tú|te|ti|contigo|tuyo|tuya|tuyos|tuyas|puedes|quieres|tienes|debes|necesitas|estás|eres|sabes|vas|podrás|recibirás|verás|encontrarás|tendrás|deberás|hiciste|pediste|creaste|olvidaste)(?!\p{L})/iu;
const tuImperatives =
  /(?:^|[.!?¿¡:]\s+|\n)(reserva|entra|elige|escribe|pulsa|haz|revisa|comprueba|añade|cierra|abre|vuelve|confirma|completa|indica|selecciona|pide|sube|busca|cambia|recuerda|avisa|llama|contacta|introduce|descarga|copia|ignora|crea|restablece|inicia|permite|espera|acepta|guarda|usa)\s+(el|la|los|las|lo|un|una|unos|unas|su|sus|aquí|ahora|otra|otro|este|esta|con|en|a|al|que|si)(?!\p{L})/iu;
const tuEnclitics =
  /(?<!\p{L})(regístrate|únete|conéctate|asegúrate|inténtalo|acuérdate|fíjate|quédate|apúntate|suscríbete|identifícate|cuídate|olvídate|escríbenos|llámanos|cuéntanos|dinos|avísanos|revísalo|guárdalo|resérvala|resérvalo|ciérrala|pruébalo)(?!\p{L})/iu;

/** The tú forms found in a Spanish text, empty when it addresses the reader as usted. */
function tuFormsIn(text: string): string[] {
  return [tuWords, tuImperatives, tuEnclitics].flatMap((pattern) => {
    const match = pattern.exec(text);
    return match === null ? [] : [match[0].trim()];
  });
}

const sourceRoot = join(import.meta.dirname, '..');

function sourceFiles(directory: string): string[] {
  return readdirSync(directory).flatMap((name) => {
    const path = join(directory, name);
    if (statSync(path).isDirectory()) {
      return name === 'test' ? [] : sourceFiles(path);
    }
    return name.endsWith('.ts') && !name.endsWith('.test.ts') && !name.endsWith('.d.ts') ? [path] : [];
  });
}

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
