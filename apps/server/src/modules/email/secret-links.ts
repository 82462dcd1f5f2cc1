/**
 * What stands in a stored email for the secret of a link (`?token=…`). The
 * secret is only in the message handed to the mail server; the outbox keeps
 * this placeholder, so nobody who can read stored emails (administrators,
 * backups, a database dump) can use a reset, verification or invitation link.
 */
export const hiddenTokenPlaceholder = '[hidden]';

/**
 * `token` as a query parameter: after `?` or `&`, or `&amp;` in HTML, up to
 * the next separator. The value is anything but a separator, so an encoded
 * or unexpected token shape is hidden too.
 */
const secretParameter = /([?&]|&amp;|&#38;)token=([^&#\s"'<>]+)/gi;

/** The text with the value of every `token` link parameter replaced by the placeholder. */
export function hideSecretLinks(text: string): string {
  return text.replace(secretParameter, (match, separator: string, value: string) =>
    value === hiddenTokenPlaceholder ? match : `${separator}token=${hiddenTokenPlaceholder}`,
  );
}

/** How many links in a stored text had their secret hidden. */
export function countHiddenLinks(text: string): number {
  return text.split(`token=${hiddenTokenPlaceholder}`).length - 1;
}
