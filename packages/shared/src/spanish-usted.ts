/**
 * Spanish addresses the reader as usted everywhere: screens, emails, PDFs, calendar files. Words that
 * only tú uses: the possessive and object pronouns, the second-person verbs, and imperatives at the
 * start of a sentence ("Reserva una cita", "Entra a la sala", "Regístrate"). The usted forms
 * ("Reserve una cita", "Entre", "Regístrese") and third-person statements ("El paciente entra") do
 * not match. The web's translation file and every string the server writes are checked with it.
 */
const tuWords =
  /(?<!\p{L})(tu|tus|tú|te|ti|contigo|tuyo|tuya|tuyos|tuyas|puedes|quieres|tienes|debes|necesitas|estás|eres|sabes|vas|podrás|recibirás|verás|encontrarás|tendrás|deberás|hiciste|pediste|creaste|olvidaste)(?!\p{L})/iu;
const tuImperatives =
  /(?:^|[.!?¿¡:]\s+|\n)(reserva|entra|elige|escribe|pulsa|haz|revisa|comprueba|añade|cierra|abre|vuelve|confirma|completa|indica|selecciona|pide|sube|busca|cambia|recuerda|avisa|llama|contacta|introduce|descarga|copia|ignora|crea|restablece|inicia|permite|espera|acepta|guarda|usa)\s+(el|la|los|las|lo|un|una|unos|unas|su|sus|aquí|ahora|otra|otro|este|esta|con|en|a|al|que|si)(?!\p{L})/iu;
const tuEnclitics =
  /(?<!\p{L})(regístrate|únete|conéctate|asegúrate|inténtalo|acuérdate|fíjate|quédate|apúntate|suscríbete|identifícate|cuídate|olvídate|escríbenos|llámanos|cuéntanos|dinos|avísanos|revísalo|guárdalo|resérvala|resérvalo|ciérrala|pruébalo)(?!\p{L})/iu;

/** The tú forms found in a Spanish text, empty when it addresses the reader as usted. */
export function tuFormsIn(text: string): string[] {
  return [tuWords, tuImperatives, tuEnclitics].flatMap((pattern) => {
    const match = pattern.exec(text);
    return match === null ? [] : [match[0].trim()];
  });
}
