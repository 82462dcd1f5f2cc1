import type { Language } from '@telemedicina/shared/i18n';
import type { ServiceContext } from '../context.js';
import { loadIdentitySettings } from '../settings/settings.service.js';
import { countRecentMessages } from './email.repository.js';
import type { OutgoingEmail } from './mailer.js';
import { renderEmail, type EmailContent } from './templates.js';

/** At most this many emails of one template to one address per window (stops mail-bombing). */
const perRecipientLimit = 3;
const perRecipientWindowMs = 15 * 60_000;

/**
 * Renders an email in the recipient's language and hands it to the mailer.
 * With `throttle`, a recipient who already got `perRecipientLimit` of this
 * template in the last 15 minutes gets nothing more (silently: the caller's
 * answer must not change). Resolves with whether a message was produced.
 */
export async function sendEmail(
  ctx: ServiceContext,
  to: string,
  language: Language,
  content: EmailContent,
  options: { throttle?: boolean; attachments?: OutgoingEmail['attachments'] } = {},
): Promise<boolean> {
  const db = ctx.db;
  if (options.throttle === true) {
    const since = new Date(ctx.now().getTime() - perRecipientWindowMs);
    if ((await countRecentMessages(db, to, content.template, since)) >= perRecipientLimit) {
      return false;
    }
  }
  const { clinicName } = await loadIdentitySettings(db, ctx.config);
  const rendered = renderEmail(content, language, clinicName);
  await ctx.mailer.send({
    to,
    language,
    template: content.template,
    ...rendered,
    ...(options.attachments === undefined ? {} : { attachments: options.attachments }),
  });
  return true;
}

/** An absolute link into the web app for emails: PUBLIC_ORIGIN + path + `?token=`. */
export function appLink(ctx: Pick<ServiceContext, 'config'>, path: string, token?: string): string {
  const url = new URL(path, `${ctx.config.publicOrigin}/`);
  if (token !== undefined) {
    url.searchParams.set('token', token);
  }
  return url.toString();
}
