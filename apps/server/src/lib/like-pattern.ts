/** `%text%` with LIKE's wildcards in the text taken literally, so a search for `50%` means the characters. */
export function likePattern(text: string): string {
  return `%${text.replaceAll('\\', '\\\\').replaceAll('%', '\\%').replaceAll('_', '\\_')}%`;
}
