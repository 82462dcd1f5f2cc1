import { describe, expect, it } from 'vitest';
import es from '../../public/assets/i18n/es.json';

/**
 * (The server's twin, apps/server/src/test/spanish-usted.test.ts, checks emails, PDFs and
 * calendar texts with the same patterns.)
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

  it('finds tú forms, and not their usted twins or look-alike nouns (so the check above can fail)', () => {
    for (const text of [
      'Reserva una cita con su médico.',
      'Su cita empieza pronto. Entra a la sala de espera.',
      'Elige el horario que prefieras.',
      'Revisa tu correo.',
      'Ya puedes iniciar sesión.',
      '¿Tienes dudas?',
      'Regístrate en la clínica.',
      'Espera a que el médico le admita.',
    ]) {
      expect(tuFormsIn(text), text).not.toEqual([]);
    }
    for (const text of [
      'Reserve una cita con su médico.',
      'Su cita empieza pronto. Entre a la sala de espera.',
      'Ya puede iniciar sesión.',
      'Regístrese en la clínica.',
      'El paciente entra a la sala.',
      'Prueba del altavoz',
      'Espera media',
      'Activa',
      'Reserva confirmada',
      'Acepta pacientes nuevos',
      'Intérprete',
    ]) {
      expect(tuFormsIn(text), text).toEqual([]);
    }
  });
});
