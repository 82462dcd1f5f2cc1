import { appConfig } from '../../../lib/config';

/** `GET /patients/:patientId/documents/:documentId/file`: the visit summary PDF stored in the chart. */
export function summaryPdfUrl(patientId: string, documentId: string): string {
  return `${appConfig.apiBaseUrl}/patients/${encodeURIComponent(patientId)}/documents/${encodeURIComponent(documentId)}/file`;
}
