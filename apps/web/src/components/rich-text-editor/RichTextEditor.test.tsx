import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../test/render';
import RichTextEditor from './RichTextEditor';

/** A toolbar button that throws while rendering once clicked: a crash inside the editor. */
function Bomb() {
  const [isArmed, setIsArmed] = useState(false);
  if (isArmed) {
    throw new Error('boom');
  }
  return (
    <button type="button" data-testid="bomb" onClick={() => setIsArmed(true)}>
      💥
    </button>
  );
}

const editorText = () => screen.getByTestId('rich-text-editor-content').textContent;

describe('RichTextEditor', () => {
  beforeEach(() => {
    // React reports caught render errors on the console; the crashes here are on purpose.
    vi.spyOn(console, 'error').mockImplementation(() => {});
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  it('shows the starting content in an editable Tiptap document with its toolbar', () => {
    renderWithProviders(<RichTextEditor initialContent="<p>Paciente estable.</p>" onSave={() => {}} />);
    expect(editorText()).toBe('Paciente estable.');
    expect(screen.getByTestId('rich-text-editor-content').getAttribute('contenteditable')).toBe('true');
    expect(screen.getByRole('toolbar').getAttribute('aria-label')).toBe('Formato del texto');
    expect(screen.getByLabelText('Negrita')).toBeTruthy();
  });

  it('autosaves changed content every 5000 ms through onSave, and on unmount', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: false });
    const onSave = vi.fn();
    const { unmount } = renderWithProviders(<RichTextEditor initialContent="<p>Hola</p>" onSave={onSave} />);
    void act(() => vi.advanceTimersByTime(5000));
    expect(onSave).not.toHaveBeenCalled();

    const content = screen.getByTestId('rich-text-editor-content');
    void act(() => {
      const paragraph = content.querySelector('p')!;
      paragraph.textContent = 'Hola, doctora';
    });
    // ProseMirror notices DOM edits through its mutation observer.
    await act(async () => {
      await vi.advanceTimersByTimeAsync(50);
    });
    void act(() => vi.advanceTimersByTime(5000));
    expect(onSave).toHaveBeenCalledTimes(1);
    expect(onSave.mock.calls[0]?.[0]).toBe('<p>Hola, doctora</p>');
    expect(screen.getByTestId('rich-text-editor-status').textContent).toMatch(/^Guardado a las/);

    void act(() => vi.advanceTimersByTime(10_000));
    expect(onSave).toHaveBeenCalledTimes(1);
    unmount();
    expect(onSave).toHaveBeenCalledTimes(1);
  });

  it('leaves the saved-at line out when the screen reports saving itself', () => {
    renderWithProviders(
      <RichTextEditor initialContent="<p>Hola</p>" onSave={vi.fn()} showSaveStatus={false} />,
    );
    expect(screen.getByTestId('rich-text-editor-content')).toBeTruthy();
    expect(screen.queryByTestId('rich-text-editor-status')).toBeNull();
  });

  it('saves when the page is hidden', async () => {
    const onSave = vi.fn();
    renderWithProviders(<RichTextEditor initialContent="<p>a</p>" onSave={onSave} />);
    void act(() => {
      screen.getByTestId('rich-text-editor-content').querySelector('p')!.textContent = 'ab';
    });
    await waitFor(() => {
      document.dispatchEvent(new Event('visibilitychange'));
      window.dispatchEvent(new Event('pagehide'));
      expect(onSave).toHaveBeenCalledWith('<p>ab</p>');
    });
  });

  it('restarts after a crash with the last saved content', async () => {
    const user = userEvent.setup();
    const onSave = vi.fn();
    renderWithProviders(
      <RichTextEditor initialContent="<p>Nota inicial</p>" onSave={onSave} toolbarExtra={<Bomb />} />,
    );
    void act(() => {
      screen.getByTestId('rich-text-editor-content').querySelector('p')!.textContent = 'Nota editada';
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    await user.click(screen.getByTestId('bomb'));
    await waitFor(() =>
      expect(screen.getByTestId('rich-text-editor').getAttribute('data-generation')).toBe('1'),
    );
    // What was typed before the crash was saved, and the new editor starts from it.
    expect(onSave).toHaveBeenLastCalledWith('<p>Nota editada</p>');
    expect(editorText()).toBe('Nota editada');
    expect(screen.getByTestId('rich-text-editor-recovered')).toBeTruthy();
  });

  it('gives up after 3 crashes less than 5000 ms apart on average, keeping the content visible', async () => {
    const user = userEvent.setup();
    renderWithProviders(
      <RichTextEditor
        initialContent="<p>Texto <strong>importante</strong></p>"
        onSave={() => {}}
        toolbarExtra={<Bomb />}
      />,
    );
    for (const generation of ['1', '2']) {
      await user.click(screen.getByTestId('bomb'));
      await waitFor(() =>
        expect(screen.getByTestId('rich-text-editor').getAttribute('data-generation')).toBe(generation),
      );
    }
    await user.click(screen.getByTestId('bomb'));
    const gaveUp = await screen.findByTestId('rich-text-editor-gave-up');
    expect(gaveUp.textContent).toContain('El editor se detuvo');
    expect(screen.getByTestId('rich-text-editor-kept-content').innerHTML).toBe(
      '<p>Texto <strong>importante</strong></p>',
    );
    expect(screen.queryByTestId('rich-text-editor-content')).toBeNull();
    expect(screen.getByTestId('rich-text-editor-copy').textContent).toBe('Copiar el texto');
  });

  it('keeps restarting when crashes are far apart', async () => {
    const user = userEvent.setup();
    let now = 1_000_000;
    vi.spyOn(Date, 'now').mockImplementation(() => now);
    renderWithProviders(
      <RichTextEditor initialContent="<p>x</p>" onSave={() => {}} toolbarExtra={<Bomb />} />,
    );
    for (const generation of ['1', '2', '3', '4']) {
      now += 6_000;
      await user.click(screen.getByTestId('bomb'));
      await waitFor(() =>
        expect(screen.getByTestId('rich-text-editor').getAttribute('data-generation')).toBe(generation),
      );
    }
    expect(screen.queryByTestId('rich-text-editor-gave-up')).toBeNull();
  });
});
