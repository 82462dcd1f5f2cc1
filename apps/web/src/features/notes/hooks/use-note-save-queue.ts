import type { NoteSection, VisitNote } from '@telemedicina/shared/notes';
import { useEffect, useState, useSyncExternalStore } from 'react';
import { saveNote } from '../api/note';
import { createNoteSaveQueue, type NoteSaveQueue, type SaveQueueState } from './note-save-queue';

export interface NoteSaveQueueHandle {
  queue: NoteSaveQueue;
  state: SaveQueueState;
  enqueue: (section: NoteSection, html: string) => void;
}

/**
 * The save queue of one note, alive as long as the component showing that note. Every answer
 * (saves, diagnoses, signing) is handed to `onSaved` so the page shows the server's note.
 */
export function useNoteSaveQueue(
  appointmentId: string,
  note: VisitNote,
  onSaved: (note: VisitNote) => void,
): NoteSaveQueueHandle {
  const [queue] = useState(() =>
    createNoteSaveQueue({
      baseVersion: note.version,
      save: (request) => saveNote(appointmentId, request),
    }),
  );
  useEffect(() => {
    queue.setOnSaved(onSaved);
  }, [queue, onSaved]);
  useEffect(() => {
    queue.activate();
    return () => queue.dispose();
  }, [queue]);
  const state = useSyncExternalStore(queue.subscribe, queue.getState, queue.getState);
  return { queue, state, enqueue: queue.enqueue };
}
