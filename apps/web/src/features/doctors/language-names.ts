/** A language code ("fr") as its name in the reader's language ("francés"), the code when unknown. */
export function languageName(code: string, language: string): string {
  try {
    return new Intl.DisplayNames([language], { type: 'language' }).of(code) ?? code;
  } catch {
    return code;
  }
}
