import { appConfig } from '../../../lib/config';

/**
 * `GET /outbox/:id/attachments/:index` → the bytes of one attachment, as a download. A plain
 * link does it: the browser sends the session cookie and saves the file under the server's name.
 */
export function outboxAttachmentUrl(messageId: string, index: number): string {
  return `${appConfig.apiBaseUrl}/outbox/${encodeURIComponent(messageId)}/attachments/${index}`;
}
