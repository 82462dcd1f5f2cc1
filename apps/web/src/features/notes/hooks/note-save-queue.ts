import type { NoteSection, SaveNoteRequest, VisitNote } from '@telemedicina/shared/notes';
import { ApiError } from '../../../lib/api-client';
import { conflictNoteOf } from '../api/note';

export type SectionChanges = Partial<Record<NoteSection, string>>;

export type SaveStatus = 'idle' | 'pending' | 'saving' | 'saved' | 'error' | 'conflict' | 'signed';

export interface SaveQueueState {
  status: SaveStatus;
  /** When the server last accepted a change. */
  savedAt: Date | null;
  /** The version every next request is based on. */
  baseVersion: number;
  /** Section text not yet accepted by the server (kept through errors and conflicts). */
  unsaved: SectionChanges;
  /** The note another window saved meanwhile (409 NOTE_VERSION_CONFLICT), to reload from. */
  conflictNote: VisitNote | null;
  /** The last failure (network, server), retried by itself. */
  error: unknown;
}

export interface NoteSaveQueueOptions {
  baseVersion: number;
  /** Sends the changed sections (`PATCH …/note`). */
  save: (request: SaveNoteRequest) => Promise<VisitNote>;
  /** Told of every note the server answers (saves and other operations). */
  onSaved?: (note: VisitNote) => void;
  /** Delay before trying again after a failure that is not a conflict. */
  retryDelayMs?: number;
}

export interface NoteSaveQueue {
  /** Records a section's latest text; sent with the other pending sections in one request. */
  enqueue: (section: NoteSection, html: string) => void;
  /**
   * Runs another note operation (diagnoses, sign) after the pending text is saved, with the
   * latest version; its answer becomes the new base version.
   */
  run: (operation: (baseVersion: number) => Promise<VisitNote>) => Promise<VisitNote>;
  /** Resolves once nothing is pending or in flight (rejects when blocked by a conflict). */
  settle: () => Promise<void>;
  /** Starts again from a note read from the server: pending text is dropped (the caller kept a copy). */
  reset: (note: VisitNote) => void;
  getState: () => SaveQueueState;
  subscribe: (listener: () => void) => () => void;
  /**
   * The page left: no more retry timers. Text handed over afterwards (editors save when they
   * unmount) is still sent once.
   */
  dispose: () => void;
  /** The page is (again) showing the note: failed saves are retried. */
  activate: () => void;
  /** Replaces the listener told of every note the server answers. */
  setOnSaved: (listener: ((note: VisitNote) => void) | undefined) => void;
}

const isConflict = (error: unknown) =>
  error instanceof ApiError && error.status === 409 && error.code === 'NOTE_VERSION_CONFLICT';
const isSigned = (error: unknown) => error instanceof ApiError && error.code === 'NOTE_SIGNED';

/**
 * The one queue the four SOAP editors save through: changes of several sections merge into one
 * `PATCH`, requests never overlap (each carries the version the previous answer gave), and
 * nothing typed is dropped — a failed request puts its sections back under any newer text, a
 * network failure is retried, and a version conflict stops the queue keeping the text for the
 * doctor to copy before reloading. Independent of React so it is unit-tested directly.
 */
export function createNoteSaveQueue({
  baseVersion,
  save,
  onSaved,
  retryDelayMs = 5000,
}: NoteSaveQueueOptions): NoteSaveQueue {
  let state: SaveQueueState = {
    status: 'idle',
    savedAt: null,
    baseVersion,
    unsaved: {},
    conflictNote: null,
    error: null,
  };
  /** Sections waiting for the next request (a subset of `unsaved`: not the ones in flight). */
  let pending: SectionChanges = {};
  let inFlight: SectionChanges | null = null;
  let isBusy = false;
  let isDisposed = false;
  let isPumpScheduled = false;
  let retryTimer: ReturnType<typeof setTimeout> | null = null;
  const operations: {
    operation: (version: number) => Promise<VisitNote>;
    resolve: (note: VisitNote) => void;
    reject: (error: unknown) => void;
  }[] = [];
  const waiters: { resolve: () => void; reject: (error: unknown) => void }[] = [];
  const listeners = new Set<() => void>();

  const blockedError = () =>
    state.error instanceof Error
      ? state.error
      : new ApiError(409, state.status === 'signed' ? 'NOTE_SIGNED' : 'NOTE_VERSION_CONFLICT', 'Blocked');
  const isBlocked = () => state.status === 'conflict' || state.status === 'signed';
  const hasPending = () => Object.keys(pending).length > 0;

  const setState = (patch: Partial<SaveQueueState>) => {
    state = { ...state, ...patch, unsaved: { ...(inFlight ?? {}), ...pending } };
    for (const listener of listeners) {
      listener();
    }
  };

  const settleWaiters = () => {
    if (isBlocked()) {
      for (const waiter of waiters.splice(0)) {
        waiter.reject(blockedError());
      }
      return;
    }
    if (isBusy || hasPending() || operations.length > 0) {
      return;
    }
    for (const waiter of waiters.splice(0)) {
      waiter.resolve();
    }
  };

  let notify = onSaved;
  const accept = (note: VisitNote) => {
    setState({ baseVersion: note.version, savedAt: new Date(), error: null });
    notify?.(note);
  };

  const block = (error: unknown) => {
    if (isConflict(error)) {
      const details = error instanceof ApiError ? error.details : undefined;
      const note = conflictNoteOf(details);
      setState({ status: 'conflict', conflictNote: note, error });
    } else {
      setState({ status: 'signed', error });
    }
    for (const item of operations.splice(0)) {
      item.reject(error);
    }
    settleWaiters();
  };

  const pump = () => {
    if (isBusy || isBlocked() || retryTimer !== null) {
      settleWaiters();
      return;
    }
    if (hasPending()) {
      const changes = pending;
      pending = {};
      inFlight = changes;
      isBusy = true;
      setState({ status: 'saving' });
      save({ baseVersion: state.baseVersion, ...changes }).then(
        (note) => {
          inFlight = null;
          isBusy = false;
          accept(note);
          setState({ status: hasPending() ? 'pending' : 'saved' });
          pump();
        },
        (error: unknown) => {
          // Put the text back under anything typed since.
          pending = { ...changes, ...pending };
          inFlight = null;
          isBusy = false;
          if (isConflict(error) || isSigned(error)) {
            block(error);
            return;
          }
          setState({ status: 'error', error });
          // Whoever waits for the text to be stored (signing) hears of the failure now.
          for (const waiter of waiters.splice(0)) {
            waiter.reject(error);
          }
          scheduleRetry();
        },
      );
      return;
    }
    const next = operations.shift();
    if (next) {
      isBusy = true;
      setState({ status: 'saving' });
      next.operation(state.baseVersion).then(
        (note) => {
          isBusy = false;
          accept(note);
          setState({ status: 'saved' });
          next.resolve(note);
          pump();
        },
        (error: unknown) => {
          isBusy = false;
          next.reject(error);
          if (isConflict(error)) {
            block(error);
            return;
          }
          setState({ status: hasPending() ? 'pending' : state.savedAt ? 'saved' : 'idle' });
          pump();
        },
      );
      return;
    }
    settleWaiters();
  };

  const scheduleRetry = () => {
    if (isDisposed) {
      return;
    }
    retryTimer = setTimeout(() => {
      retryTimer = null;
      pump();
    }, retryDelayMs);
  };

  return {
    enqueue: (section, html) => {
      pending = { ...pending, [section]: html };
      if (!isBusy && !isBlocked() && state.status !== 'error') {
        setState({ status: 'pending' });
      } else {
        setState({});
      }
      if (!isPumpScheduled) {
        // Sections changed in the same moment (the template, editors closing together) go in one request.
        isPumpScheduled = true;
        queueMicrotask(() => {
          isPumpScheduled = false;
          pump();
        });
      }
    },
    run: (operation) =>
      new Promise<VisitNote>((resolve, reject) => {
        if (isBlocked()) {
          reject(blockedError());
          return;
        }
        operations.push({ operation, resolve, reject });
        pump();
      }),
    settle: () =>
      new Promise<void>((resolve, reject) => {
        waiters.push({ resolve, reject });
        if (retryTimer !== null) {
          // Settling is a request to save now: do not wait for the retry delay.
          clearTimeout(retryTimer);
          retryTimer = null;
        }
        pump();
      }),
    reset: (note) => {
      if (retryTimer !== null) {
        clearTimeout(retryTimer);
        retryTimer = null;
      }
      pending = {};
      setState({
        status: note.status === 'signed' ? 'signed' : 'idle',
        baseVersion: note.version,
        conflictNote: null,
        error: null,
      });
      pump();
    },
    getState: () => state,
    subscribe: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    dispose: () => {
      isDisposed = true;
      if (retryTimer !== null) {
        clearTimeout(retryTimer);
        retryTimer = null;
      }
    },
    activate: () => {
      isDisposed = false;
      pump();
    },
    setOnSaved: (listener) => {
      notify = listener;
    },
  };
}
