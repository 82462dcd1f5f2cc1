import type { NoteSection } from '@telemedicina/shared/notes';

/** The prompts of the SOAP template, by section (translation keys under `notes.template.prompts`). */
export const soapTemplatePrompts = {
  subjective: ['chiefComplaint', 'presentIllness', 'history', 'currentMedication'],
  objective: ['examination', 'vitalSigns', 'results'],
  assessment: ['impression', 'differential'],
  plan: ['treatment', 'instructions', 'followUp'],
} as const satisfies Record<NoteSection, readonly string[]>;

export type SoapPrompt = (typeof soapTemplatePrompts)[NoteSection][number];

/** Escapes text put into the template's HTML (translations are text, not markup). */
function escapeText(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}

/** A section's template: each prompt as a small heading followed by an empty paragraph to write in. */
export function soapTemplateHtml(
  section: NoteSection,
  translatePrompt: (prompt: SoapPrompt) => string,
): string {
  return soapTemplatePrompts[section]
    .map((prompt) => `<h3>${escapeText(translatePrompt(prompt))}</h3><p></p>`)
    .join('');
}

/** True when HTML holds no text a person wrote (empty paragraphs and line breaks only). */
export function isBlankHtml(html: string): boolean {
  return (
    html
      .replace(/<[^>]*>/g, '')
      .replace(/&nbsp;|\u00a0/g, ' ')
      .trim() === ''
  );
}

/** Plain text of HTML, paragraphs and headings on their own lines (for copying unsaved text). */
export function htmlToPlainText(html: string): string {
  const document = new DOMParser().parseFromString(
    html.replace(/<\/(p|h[1-6]|li|blockquote)>/gi, '</$1>\n').replace(/<br\s*\/?>/gi, '\n'),
    'text/html',
  );
  return (document.body.textContent ?? '').replace(/\n{3,}/g, '\n\n').trim();
}
