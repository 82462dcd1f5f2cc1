/**
 * Upload limits (specification §9): all configurable, all unlimited by default. A missing value,
 * or 0/Infinity for the numeric ones, means "no limit"; an empty or missing `accept` allows any type.
 */
export interface UploadLimits {
  /** Uploads in flight at once. */
  concurrency?: number;
  /** Allowed types: MIME types (`application/pdf`), wildcards (`image/*`) and extensions (`.pdf`). */
  accept?: readonly string[];
  /** Files the uploader holds at once (queued, uploading, finished or failed). */
  maxFiles?: number;
  /** Largest file, in bytes. */
  maxFileSize?: number;
}

export type UploadRejection =
  | { reason: 'type'; accept: readonly string[] }
  | { reason: 'size'; maxFileSize: number }
  | { reason: 'count'; maxFiles: number };

/** A positive finite number, or null for "unlimited". */
export function limitValue(value: number | undefined): number | null {
  return value !== undefined && Number.isFinite(value) && value > 0 ? value : null;
}

/** True when the file's MIME type or extension is one of the accepted entries. */
export function matchesAccept(
  file: Pick<File, 'name' | 'type'>,
  accept: readonly string[] | undefined,
): boolean {
  const rules = (accept ?? []).map((rule) => rule.trim().toLowerCase()).filter((rule) => rule !== '');
  if (rules.length === 0) {
    return true;
  }
  const type = file.type.trim().toLowerCase();
  const name = file.name.trim().toLowerCase();
  return rules.some((rule) => {
    if (rule === '*' || rule === '*/*') {
      return true;
    }
    if (rule.startsWith('.')) {
      return name.endsWith(rule) && name.length > rule.length;
    }
    if (rule.endsWith('/*')) {
      return type !== '' && type.startsWith(rule.slice(0, -1));
    }
    return type === rule;
  });
}

/**
 * Checks newly chosen files against the limits. `heldCount` is how many files the uploader already
 * holds; files beyond `maxFiles` are rejected in order, after the type and size checks (a file
 * rejected for its type does not use up a place).
 */
export function checkFiles(
  files: readonly File[],
  limits: UploadLimits,
  heldCount = 0,
): { file: File; rejection: UploadRejection | null }[] {
  const maxFileSize = limitValue(limits.maxFileSize);
  const maxFiles = limitValue(limits.maxFiles);
  let accepted = heldCount;
  return files.map((file) => {
    if (!matchesAccept(file, limits.accept)) {
      return { file, rejection: { reason: 'type', accept: limits.accept ?? [] } };
    }
    if (maxFileSize !== null && file.size > maxFileSize) {
      return { file, rejection: { reason: 'size', maxFileSize } };
    }
    if (maxFiles !== null && accepted >= maxFiles) {
      return { file, rejection: { reason: 'count', maxFiles } };
    }
    accepted += 1;
    return { file, rejection: null };
  });
}
