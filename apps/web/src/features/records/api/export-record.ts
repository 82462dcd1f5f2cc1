import type { AdminRecordExportRequest } from '@telemedicina/shared/export';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../../../lib/api-client';

/** Bytes of the ZIP received so far (the total only when the server announced it). */
export interface DownloadProgress {
  receivedBytes: number;
  totalBytes: number | null;
}

type OnProgress = (progress: DownloadProgress) => void;

const zipRequest = (onProgress: OnProgress) =>
  ({
    responseType: 'file',
    onDownloadProgress: (receivedBytes: number, totalBytes: number | null) =>
      onProgress({ receivedBytes, totalBytes }),
    headers: { Accept: 'application/zip, application/json' },
    // The button shows the progress itself; errors are shown where the action was taken.
    showSpinner: false,
    alertOnError: false,
  }) as const;

/** `GET /me/record/export` → the signed-in patient's record as a ZIP file (named by the server). */
export function downloadOwnRecord(onProgress: OnProgress): Promise<File> {
  return api.get<File>('/me/record/export', zipRequest(onProgress));
}

/** `POST /patients/:patientId/export` (records.export) → that patient's record as a ZIP file. */
export function exportPatientRecord(
  patientId: string,
  request: AdminRecordExportRequest,
  onProgress: OnProgress,
): Promise<File> {
  return api.post<File>(`/patients/${encodeURIComponent(patientId)}/export`, request, zipRequest(onProgress));
}

/** Hands a downloaded file to the browser's "save" flow under its own name. */
export function saveFile(file: File): void {
  const url = URL.createObjectURL(file);
  const link = document.createElement('a');
  link.href = url;
  link.download = file.name;
  link.rel = 'noopener';
  link.style.display = 'none';
  document.body.append(link);
  link.click();
  link.remove();
  // Give the browser time to start the download before the address is released.
  window.setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/** The patient's download, with its progress; the file is saved when it has fully arrived. */
export function useDownloadOwnRecord() {
  const [progress, setProgress] = useState<DownloadProgress | null>(null);
  const mutation = useMutation({
    mutationFn: () => downloadOwnRecord(setProgress),
    onSuccess: saveFile,
    onSettled: () => setProgress(null),
  });
  return { ...mutation, progress };
}

/** An administrator's export of one patient's record, with its progress. */
export function useExportPatientRecord(patientId: string) {
  const [progress, setProgress] = useState<DownloadProgress | null>(null);
  const mutation = useMutation({
    mutationFn: (request: AdminRecordExportRequest) => exportPatientRecord(patientId, request, setProgress),
    onSuccess: saveFile,
    onSettled: () => setProgress(null),
  });
  return { ...mutation, progress };
}
