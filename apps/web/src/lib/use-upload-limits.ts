import {
  uploadFileKindMimeTypes,
  type PublicClinicSettings,
  type UploadFileKind,
} from '@telemedicina/shared/clinic-settings';
import { useMemo } from 'react';
import type { UploadLimits } from '../components/uploader/upload-limits';
import { usePublicConfig } from './public-config';

/** Bytes in one of the clinic settings' megabytes (the server counts MB as 1024 × 1024 bytes). */
export const bytesPerMegabyte = 1024 * 1024;

/** File-name endings of each kind, for browsers that report no MIME type (HEIC, DOCX on some systems). */
const kindExtensions: Record<UploadFileKind, readonly string[]> = {
  pdf: ['.pdf'],
  png: ['.png'],
  jpeg: ['.jpg', '.jpeg'],
  webp: ['.webp'],
  gif: ['.gif'],
  heic: ['.heic', '.heif'],
  txt: ['.txt'],
  docx: ['.docx'],
};

/**
 * The clinic's upload settings as the uploader's limits: allowed kinds → MIME types and file
 * endings, megabytes → bytes, files per upload → `maxFiles`.
 */
export function toUploadLimits(uploads: PublicClinicSettings['uploads']): UploadLimits {
  return {
    accept: uploads.allowedKinds.flatMap((kind) => [uploadFileKindMimeTypes[kind], ...kindExtensions[kind]]),
    maxFileSize: uploads.maxFileSizeMb * bytesPerMegabyte,
    maxFiles: uploads.maxFilesPerUpload,
  };
}

/**
 * The upload limits an administrator set in the clinic settings, for any screen that uploads
 * documents or chat files (the server enforces the same limits). Null until `GET /config` answered
 * with them; it follows changes, since saving the settings refreshes the configuration.
 */
export function useUploadLimits(): UploadLimits | null {
  const uploads = usePublicConfig().data?.clinic?.uploads;
  return useMemo(() => (uploads ? toUploadLimits(uploads) : null), [uploads]);
}
