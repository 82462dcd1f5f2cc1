import type { Language } from './i18n.js';

/**
 * Time zones as people name them, in their language: "hora de Ciudad de México", "Mexico City
 * time". Never an IANA id on a screen, in an email or in a PDF.
 *
 * `Intl` alone does not give this: with Node 24's and Chromium's ICU, `timeZoneName: 'longGeneric'`
 * names America/Mexico_City "hora estándar central" / "Central Standard Time" (the same words as
 * Chicago's) and `shortGeneric` gives "hora de Ciudad de México" in Spanish but "CST" in English
 * and "CET" for Madrid. So the zone's city comes from its id, translated by a small table for the
 * cities whose name changes between the languages (the rest read the same in both: Tijuana, Lima).
 * Pure, no zod: the client's first screens and the server use the same words.
 */

/** Cities whose Spanish or English name is not the IANA id's last part with spaces. */
const cityNames: Record<string, { es: string; en?: string }> = {
  'America/Mexico_City': { es: 'Ciudad de México', en: 'Mexico City' },
  'America/Cancun': { es: 'Cancún' },
  'America/Merida': { es: 'Mérida' },
  'America/Mazatlan': { es: 'Mazatlán' },
  'America/Bahia_Banderas': { es: 'Bahía de Banderas' },
  'America/Ciudad_Juarez': { es: 'Ciudad Juárez' },
  'America/New_York': { es: 'Nueva York' },
  'America/Los_Angeles': { es: 'Los Ángeles' },
  'America/Bogota': { es: 'Bogotá' },
  'America/Panama': { es: 'Panamá' },
  'America/Havana': { es: 'La Habana', en: 'Havana' },
  'America/Asuncion': { es: 'Asunción' },
  'America/Sao_Paulo': { es: 'São Paulo' },
  'America/Argentina/Buenos_Aires': { es: 'Buenos Aires' },
  'America/Buenos_Aires': { es: 'Buenos Aires' },
  'America/Puerto_Rico': { es: 'Puerto Rico' },
  'Atlantic/Canary': { es: 'Canarias', en: 'Canary Islands' },
  'Europe/London': { es: 'Londres' },
  'Europe/Lisbon': { es: 'Lisboa' },
  'Europe/Paris': { es: 'París' },
  'Europe/Berlin': { es: 'Berlín' },
  'Europe/Rome': { es: 'Roma' },
  'Europe/Brussels': { es: 'Bruselas' },
  'Europe/Amsterdam': { es: 'Ámsterdam' },
  'Europe/Zurich': { es: 'Zúrich' },
  'Europe/Vienna': { es: 'Viena' },
  'Europe/Athens': { es: 'Atenas' },
  'Europe/Warsaw': { es: 'Varsovia' },
  'Europe/Stockholm': { es: 'Estocolmo' },
  'Europe/Copenhagen': { es: 'Copenhague' },
  'Europe/Dublin': { es: 'Dublín' },
  'Europe/Prague': { es: 'Praga' },
  'Europe/Moscow': { es: 'Moscú' },
  'Europe/Istanbul': { es: 'Estambul' },
  'Africa/Cairo': { es: 'El Cairo', en: 'Cairo' },
  'Asia/Tokyo': { es: 'Tokio' },
  'Asia/Shanghai': { es: 'Shanghái' },
  'Asia/Singapore': { es: 'Singapur' },
  'Asia/Kolkata': { es: 'Calcuta', en: 'Kolkata' },
  'Australia/Sydney': { es: 'Sídney' },
};

const universal = new Set([
  'UTC',
  'Etc/UTC',
  'Etc/GMT',
  'GMT',
  'Etc/Universal',
  'Etc/Zulu',
  'Universal',
  'Zulu',
]);

/** "Ciudad de México" / "Mexico City": the city a zone is named after, in the language. */
export function timeZoneCity(zone: string, language: Language): string {
  const known = cityNames[zone];
  const fromId = (zone.split('/').at(-1) ?? zone).replaceAll('_', ' ');
  if (known) {
    return language === 'es' ? known.es : (known.en ?? fromId);
  }
  return fromId;
}

/**
 * A zone in words in the reader's language: "hora de Ciudad de México" / "Mexico City time";
 * UTC is "hora universal (UTC)" / "Coordinated Universal Time (UTC)".
 */
export function timeZoneName(zone: string, language: Language): string {
  if (universal.has(zone)) {
    return language === 'es' ? 'hora universal coordinada (UTC)' : 'Coordinated Universal Time (UTC)';
  }
  const city = timeZoneCity(zone, language);
  return language === 'es' ? `hora de ${city}` : `${city} time`;
}
