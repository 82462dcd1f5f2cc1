import { apiBasePath } from '@telemedicina/shared/api';

/** Where a visit's chat files are uploaded (`POST`, multipart field `file`, optional `clientId`). */
export function visitFilesUrl(appointmentId: string): string {
  return `${apiBasePath}/visits/${encodeURIComponent(appointmentId)}/files`;
}
