import { useEffect, useRef } from 'react';

/**
 * A way for one feature to put text into the visit note another feature edits, without importing
 * it (features never import each other): the note's editor listens for its appointment, a panel
 * beside it (the intake answers) sends. What is sent while no editor listens (the note still
 * loading, or closed on a phone) waits for the next one. HTML given here must already be escaped.
 */
type Listener = (html: string) => void;

const listeners = new Map<string, Set<Listener>>();
const waiting = new Map<string, string[]>();

/** Sends `html` to the note of the appointment: now if its editor is open, else when it opens. */
export function insertIntoNote(appointmentId: string, html: string): void {
  const current = listeners.get(appointmentId);
  if (current === undefined || current.size === 0) {
    waiting.set(appointmentId, [...(waiting.get(appointmentId) ?? []), html]);
    return;
  }
  for (const listener of current) {
    listener(html);
  }
}

/** The note editor of `appointmentId` receives what is sent to it (and what waited for it). */
export function useNoteInsertTarget(appointmentId: string, onInsert: Listener): void {
  const handlerRef = useRef(onInsert);
  useEffect(() => {
    handlerRef.current = onInsert;
  }, [onInsert]);
  useEffect(() => {
    const listener: Listener = (html) => handlerRef.current(html);
    const set = listeners.get(appointmentId) ?? new Set<Listener>();
    set.add(listener);
    listeners.set(appointmentId, set);
    const pending = waiting.get(appointmentId) ?? [];
    waiting.delete(appointmentId);
    for (const html of pending) {
      listener(html);
    }
    return () => {
      set.delete(listener);
      if (set.size === 0) {
        listeners.delete(appointmentId);
      }
    };
  }, [appointmentId]);
}

/** Escapes text for the HTML sent to the note (answers are the patient's own words). */
export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}
