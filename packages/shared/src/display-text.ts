import type { z } from 'zod';

/**
 * The invisible Unicode controls that change the direction text is drawn in: ARABIC LETTER MARK
 * (U+061C), LEFT-TO-RIGHT and RIGHT-TO-LEFT MARK (U+200E, U+200F), the embeddings and overrides
 * (U+202A–U+202E) and the isolates (U+2066–U+2069). In a name or a label they let someone make
 * text read differently from what it is — U+202E then "gpj.exe" shows as "exe.jpg", a person's name
 * can seem to be another's (Trojan Source, CVE-2021-42574).
 */
const bidiControls = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/u;
const allBidiControls = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/gu;

/** Whether the text holds a bidirectional control character. */
export function hasBidiControls(text: string): boolean {
  return bidiControls.test(text);
}

/** The text without its bidirectional control characters (for labels the server makes up itself, such as file names). */
export function stripBidiControls(text: string): string {
  return text.replace(allBidiControls, '');
}

/**
 * A name or label a person types and others read (a person's, a role's, a specialty's, the clinic's,
 * a guest's, a medication's…): the given string schema, refusing bidirectional control characters
 * with `validation.bidiControls` (400 VALIDATION_FAILED on the field). Refused rather than
 * silently removed: the person sees what is wrong and what is stored is what they typed. Free text
 * (notes, chat, biographies) may legitimately hold direction marks and is not checked. Put it
 * before any transform, so it sees the string.
 */
export function displayText<Schema extends z.ZodType<string, string>>(schema: Schema): Schema {
  return schema.refine((text) => !hasBidiControls(text), { message: 'validation.bidiControls' });
}
