/** A calendar date in the reader's language and zone ("12 mar 2026"); the text as is when unreadable. */
export function formatDate(iso: string, language: string, timeZone?: string | null): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) {
    return iso;
  }
  try {
    return new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeZone: timeZone ?? undefined }).format(
      date,
    );
  } catch {
    return new Intl.DateTimeFormat(language, { dateStyle: 'medium' }).format(date);
  }
}
