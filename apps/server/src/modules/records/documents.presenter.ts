import type { ChartDocument } from '@telemedicina/shared/documents';
import type { DocumentRow } from './documents.repository.js';

/** A document as the chart shows it: never the storage path or the file id. */
export function presentDocument(row: DocumentRow, canRemove: boolean): ChartDocument {
  return {
    id: row.id,
    name: row.name,
    kind: row.kind,
    category: row.category,
    contentType: row.contentType,
    size: row.size,
    width: row.width,
    height: row.height,
    uploadedBy:
      row.uploadedByUserId === null || row.uploadedByName === null
        ? null
        : {
            id: row.uploadedByUserId,
            name: row.uploadedByName,
            role:
              row.uploadedByUserId === row.patientUserId
                ? 'patient'
                : (row.uploadedByRoleKeys ?? []).includes('doctor')
                  ? 'doctor'
                  : 'other',
          },
    createdAt: row.createdAt.toISOString(),
    appointmentId: row.appointmentId,
    removedAt: row.removedAt === null ? null : row.removedAt.toISOString(),
    canRemove,
  };
}

/**
 * `Content-Disposition` for a document: inline (images, PDFs) or attachment, with an ASCII
 * fallback name and the RFC 5987 UTF-8 form. The label was sanitized when stored; quotes,
 * backslashes and anything outside printable ASCII are replaced again here, so the header can
 * never be split or broken by a name.
 */
export function contentDispositionOf(name: string, disposition: 'inline' | 'attachment'): string {
  const ascii = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\%;]/g, '_');
  const encoded = encodeURIComponent(name).replace(
    /['()*]/g,
    (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `${disposition}; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}
