/** A language code ("fr") as its name in the reader's language ("francés"), the code when unknown. */
export function languageName(code: string, language: string): string {
  try {
    const name = new Intl.DisplayNames([language], { type: 'language' }).of(code) ?? code;
    return name.charAt(0).toLocaleUpperCase(language) + name.slice(1);
  } catch {
    return code;
  }
}
