import { checkFiles, limitValue, type UploadLimits, type UploadRejection } from './upload-limits';
import {
  sendUpload,
  UploadError,
  type UploadFailure,
  type UploadReply,
  type UploadRequest,
} from './upload-request';

export type UploadStatus = 'queued' | 'uploading' | 'done' | 'failed' | 'cancelled' | 'rejected';

export interface UploadItem {
  id: string;
  file: File;
  status: UploadStatus;
  /** Bytes sent so far and in total, for the progress bar. */
  loaded: number;
  total: number;
  reply?: UploadReply;
  failure?: UploadFailure;
  rejection?: UploadRejection;
}

export interface UploadManagerOptions extends UploadRequest, UploadLimits {
  onUploaded?: (item: UploadItem) => void;
}

export interface UploadManager {
  /** Adds files: each is checked against the limits, then queued (or kept as rejected, with the reason). */
  add: (files: readonly File[]) => UploadItem[];
  cancel: (id: string) => void;
  retry: (id: string) => void;
  remove: (id: string) => void;
  /** Replaces destination and limits for files added or retried from now on. */
  configure: (options: UploadManagerOptions) => void;
  getItems: () => readonly UploadItem[];
  subscribe: (listener: () => void) => () => void;
  /** Resolves when nothing is queued or uploading. */
  whenIdle: () => Promise<void>;
}

/** Statuses that take one of the `maxFiles` places. */
const heldStatuses: ReadonlySet<UploadStatus> = new Set(['queued', 'uploading', 'done', 'failed']);

let nextId = 1;

/**
 * The uploader's core, independent of React: one request per file, at most `concurrency` at once
 * (unlimited by default), in the order the files were added; cancel, retry and remove per file.
 */
export function createUploadManager(initialOptions: UploadManagerOptions): UploadManager {
  let options = initialOptions;
  let items: readonly UploadItem[] = [];
  const aborts = new Map<string, () => void>();
  const listeners = new Set<() => void>();
  let idleWaiters: (() => void)[] = [];

  const update = (id: string, patch: Partial<UploadItem>) => {
    items = items.map((item) => (item.id === id ? { ...item, ...patch } : item));
  };
  const find = (id: string) => items.find((item) => item.id === id);
  const emit = () => {
    for (const listener of listeners) {
      listener();
    }
    if (!items.some((item) => item.status === 'queued' || item.status === 'uploading')) {
      const waiters = idleWaiters;
      idleWaiters = [];
      waiters.forEach((resolve) => resolve());
    }
  };

  const start = (item: UploadItem) => {
    update(item.id, { status: 'uploading', loaded: 0, total: item.file.size, failure: undefined });
    const { promise, abort } = sendUpload(item.file, options, ({ loaded, total }) => {
      if (find(item.id)?.status === 'uploading') {
        update(item.id, { loaded, total });
        emit();
      }
    });
    aborts.set(item.id, abort);
    promise.then(
      (reply) => {
        aborts.delete(item.id);
        if (find(item.id)?.status !== 'uploading') {
          return;
        }
        update(item.id, { status: 'done', reply, loaded: item.file.size, total: item.file.size });
        const done = find(item.id);
        pump();
        emit();
        if (done) {
          options.onUploaded?.(done);
        }
      },
      (error: unknown) => {
        aborts.delete(item.id);
        if (find(item.id)?.status !== 'uploading') {
          return;
        }
        const failure: UploadFailure = error instanceof UploadError ? error.failure : { kind: 'network' };
        update(item.id, { status: failure.kind === 'aborted' ? 'cancelled' : 'failed', failure });
        pump();
        emit();
      },
    );
  };

  const pump = () => {
    const concurrency = limitValue(options.concurrency) ?? Number.POSITIVE_INFINITY;
    let running = items.filter((item) => item.status === 'uploading').length;
    for (const item of items) {
      if (running >= concurrency) {
        break;
      }
      if (item.status === 'queued') {
        start(item);
        running += 1;
      }
    }
  };

  return {
    add: (files) => {
      const held = items.filter((item) => heldStatuses.has(item.status)).length;
      const added = checkFiles(files, options, held).map(({ file, rejection }): UploadItem => ({
        id: `upload-${nextId++}`,
        file,
        status: rejection ? 'rejected' : 'queued',
        loaded: 0,
        total: file.size,
        ...(rejection ? { rejection } : {}),
      }));
      items = [...items, ...added];
      pump();
      emit();
      return added.map((item) => find(item.id) ?? item);
    },
    cancel: (id) => {
      const item = find(id);
      if (!item || (item.status !== 'queued' && item.status !== 'uploading')) {
        return;
      }
      update(id, { status: 'cancelled', failure: { kind: 'aborted' } });
      aborts.get(id)?.();
      aborts.delete(id);
      pump();
      emit();
    },
    retry: (id) => {
      const item = find(id);
      if (!item || (item.status !== 'failed' && item.status !== 'cancelled')) {
        return;
      }
      if (item.status === 'cancelled') {
        // A cancelled file gave its place back; it needs one again.
        const maxFiles = limitValue(options.maxFiles);
        const held = items.filter((other) => heldStatuses.has(other.status)).length;
        if (maxFiles !== null && held >= maxFiles) {
          update(id, { status: 'rejected', rejection: { reason: 'count', maxFiles } });
          emit();
          return;
        }
      }
      update(id, { status: 'queued', loaded: 0, failure: undefined, rejection: undefined });
      pump();
      emit();
    },
    remove: (id) => {
      aborts.get(id)?.();
      aborts.delete(id);
      items = items.filter((item) => item.id !== id);
      pump();
      emit();
    },
    configure: (next) => {
      options = next;
      const before = items;
      pump();
      if (items !== before) {
        emit();
      }
    },
    getItems: () => items,
    subscribe: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    whenIdle: () =>
      items.some((item) => item.status === 'queued' || item.status === 'uploading')
        ? new Promise<void>((resolve) => idleWaiters.push(resolve))
        : Promise.resolve(),
  };
}
