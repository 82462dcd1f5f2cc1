import type { SaveNoteRequest, VisitNote } from '@telemedicina/shared/notes';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../../lib/api-client';
import { sampleNote } from '../test-notes';
import { createNoteSaveQueue } from './note-save-queue';

interface Deferred {
  request: SaveNoteRequest;
  resolve: (note: VisitNote) => void;
  reject: (error: unknown) => void;
}

/** A `save` whose answers the test gives one by one, recording what was sent. */
function controlledSave() {
  const calls: Deferred[] = [];
  const save = (request: SaveNoteRequest) =>
    new Promise<VisitNote>((resolve, reject) => {
      calls.push({ request, resolve, reject });
    });
  return { calls, save };
}

const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('note save queue', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('sends one request at a time, merging sections changed meanwhile, each on the latest version', async () => {
    const { calls, save } = controlledSave();
    const saved: number[] = [];
    const queue = createNoteSaveQueue({ baseVersion: 3, save, onSaved: (note) => saved.push(note.version) });

    queue.enqueue('subjective', '<p>Tos</p>');
    await flush();
    expect(calls).toHaveLength(1);
    expect(calls[0]?.request).toEqual({ baseVersion: 3, subjective: '<p>Tos</p>' });
    expect(queue.getState().status).toBe('saving');

    // While the first request is in flight, three more changes arrive: nothing is sent yet.
    queue.enqueue('objective', '<p>Faringe roja</p>');
    queue.enqueue('subjective', '<p>Tos y fiebre</p>');
    queue.enqueue('plan', '<p>Reposo</p>');
    expect(calls).toHaveLength(1);
    expect(queue.getState().unsaved).toEqual({
      subjective: '<p>Tos y fiebre</p>',
      objective: '<p>Faringe roja</p>',
      plan: '<p>Reposo</p>',
    });

    calls[0]?.resolve(sampleNote({ version: 4 }));
    await flush();
    expect(calls).toHaveLength(2);
    expect(calls[1]?.request).toEqual({
      baseVersion: 4,
      subjective: '<p>Tos y fiebre</p>',
      objective: '<p>Faringe roja</p>',
      plan: '<p>Reposo</p>',
    });

    calls[1]?.resolve(sampleNote({ version: 5 }));
    await flush();
    expect(calls).toHaveLength(2);
    expect(saved).toEqual([4, 5]);
    expect(queue.getState()).toMatchObject({ status: 'saved', baseVersion: 5, unsaved: {} });
  });

  it('stops on a version conflict, keeping every unsaved section and the server note to reload from', async () => {
    const { calls, save } = controlledSave();
    const queue = createNoteSaveQueue({ baseVersion: 2, save });
    queue.enqueue('assessment', '<p>Faringitis</p>');
    queue.enqueue('plan', '<p>Ibuprofeno</p>');
    await flush();
    // Both sections changed in the same moment: one request.
    expect(calls).toHaveLength(1);
    expect(calls[0]?.request).toEqual({
      baseVersion: 2,
      assessment: '<p>Faringitis</p>',
      plan: '<p>Ibuprofeno</p>',
    });
    const current = sampleNote({ version: 7, sections: { ...sampleNote().sections, plan: '<p>Otro</p>' } });
    calls[0]?.reject(new ApiError(409, 'NOTE_VERSION_CONFLICT', 'conflict', { note: current }));
    await flush();

    const state = queue.getState();
    expect(state.status).toBe('conflict');
    expect(state.conflictNote?.version).toBe(7);
    expect(state.unsaved).toEqual({ assessment: '<p>Faringitis</p>', plan: '<p>Ibuprofeno</p>' });

    // Blocked: more typing is kept, nothing is sent over the other version.
    queue.enqueue('subjective', '<p>Más texto</p>');
    await flush();
    expect(calls).toHaveLength(1);
    expect(queue.getState().unsaved.subjective).toBe('<p>Más texto</p>');
    await expect(queue.run(() => Promise.resolve(current))).rejects.toMatchObject({
      code: 'NOTE_VERSION_CONFLICT',
    });

    // Reloading starts again from the server's version.
    queue.reset(current);
    expect(queue.getState()).toMatchObject({ status: 'idle', baseVersion: 7, unsaved: {} });
    queue.enqueue('plan', '<p>Nuevo plan</p>');
    await flush();
    expect(calls.at(-1)?.request).toEqual({ baseVersion: 7, plan: '<p>Nuevo plan</p>' });
  });

  it('retries after a network failure without losing text typed meanwhile', async () => {
    vi.useFakeTimers();
    const { calls, save } = controlledSave();
    const queue = createNoteSaveQueue({ baseVersion: 1, save, retryDelayMs: 5000 });
    queue.enqueue('subjective', '<p>Uno</p>');
    await vi.advanceTimersByTimeAsync(0);
    calls[0]?.reject(new ApiError(0, 'NETWORK_ERROR', 'offline'));
    await vi.advanceTimersByTimeAsync(0);
    expect(queue.getState().status).toBe('error');
    queue.enqueue('objective', '<p>Dos</p>');
    expect(calls).toHaveLength(1);

    await vi.advanceTimersByTimeAsync(5000);
    expect(calls).toHaveLength(2);
    expect(calls[1]?.request).toEqual({ baseVersion: 1, subjective: '<p>Uno</p>', objective: '<p>Dos</p>' });
    calls[1]?.resolve(sampleNote({ version: 2 }));
    await vi.advanceTimersByTimeAsync(0);
    expect(queue.getState()).toMatchObject({ status: 'saved', baseVersion: 2, unsaved: {} });
  });

  it('runs other operations after the pending text, with the version that text produced', async () => {
    const { calls, save } = controlledSave();
    const queue = createNoteSaveQueue({ baseVersion: 1, save });
    queue.enqueue('plan', '<p>Control en 7 días</p>');
    await flush();
    const seen: number[] = [];
    const signed = queue.run((baseVersion) => {
      seen.push(baseVersion);
      return Promise.resolve(sampleNote({ version: baseVersion + 1, status: 'signed' }));
    });
    const settled = queue.settle();
    expect(seen).toEqual([]);
    calls[0]?.resolve(sampleNote({ version: 2 }));
    await expect(signed).resolves.toMatchObject({ version: 3, status: 'signed' });
    await settled;
    expect(seen).toEqual([2]);
    expect(queue.getState().baseVersion).toBe(3);
  });

  it('stops for good once the note was signed elsewhere (NOTE_SIGNED), keeping the text', async () => {
    const { calls, save } = controlledSave();
    const queue = createNoteSaveQueue({ baseVersion: 1, save });
    queue.enqueue('plan', '<p>Tarde</p>');
    const settled = queue.settle();
    await flush();
    calls[0]?.reject(new ApiError(409, 'NOTE_SIGNED', 'signed'));
    await expect(settled).rejects.toMatchObject({ code: 'NOTE_SIGNED' });
    expect(queue.getState()).toMatchObject({ status: 'signed', unsaved: { plan: '<p>Tarde</p>' } });
  });
});
