import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { renderWithProviders } from '../../test/render';
import { uiState } from '../../lib/ui-state';
import { MessageDialog } from './MessageDialog';

const publish = (type: 'error' | 'success', content: string) => {
  void act(() => void uiState.getState().publishAlert({ type, content }));
};
const dialog = () => screen.queryByTestId('message-dialog');

describe('MessageDialog', () => {
  beforeEach(() => {
    renderWithProviders(<MessageDialog />);
  });

  it('is closed until an alert is published', () => {
    expect(dialog()).toBeNull();
  });

  it('shows the error icon, the title and the HTML content for an error', async () => {
    publish('error', '<p>No se pudo <strong>guardar</strong>.</p>');
    const shown = await screen.findByTestId('message-dialog');
    expect(shown.getAttribute('data-alert-type')).toBe('error');
    expect(within(shown).queryByTestId('message-dialog-icon-error')).not.toBeNull();
    expect(within(shown).queryByTestId('message-dialog-icon-success')).toBeNull();
    expect(within(shown).getByText('Algo no salió bien')).toBeTruthy();
    const content = within(shown).getByTestId('message-dialog-content');
    expect(content.querySelector('strong')?.textContent).toBe('guardar');
    expect(screen.getByRole('dialog')).toBeTruthy();
  });

  it('shows the success icon for a success', async () => {
    publish('success', 'Cita confirmada');
    const shown = await screen.findByTestId('message-dialog');
    expect(within(shown).queryByTestId('message-dialog-icon-success')).not.toBeNull();
    expect(within(shown).queryByTestId('message-dialog-icon-error')).toBeNull();
    expect(within(shown).getByText('Listo')).toBeTruthy();
  });

  it('has a close button and "Aceptar", each closing it', async () => {
    const user = userEvent.setup();
    publish('error', 'uno');
    await screen.findByTestId('message-dialog');
    expect(screen.getByTestId('message-dialog-ok').textContent).toBe('Aceptar');
    await user.click(screen.getByTestId('message-dialog-ok'));
    expect(uiState.getState().alert).toBeNull();
    await waitFor(() => expect(dialog()).toBeNull());

    publish('error', 'dos');
    await screen.findByTestId('message-dialog');
    expect(screen.getByTestId('message-dialog-close').getAttribute('aria-label')).toBe('Cerrar');
    await user.click(screen.getByTestId('message-dialog-close'));
    expect(uiState.getState().alert).toBeNull();
  });

  it('is not dismissed by Escape or by a click on the backdrop', async () => {
    const user = userEvent.setup();
    publish('error', 'estático');
    const shown = await screen.findByTestId('message-dialog');
    await user.keyboard('{Escape}');
    fireEvent.keyDown(shown, { key: 'Escape' });
    fireEvent.keyDown(document, { key: 'Escape' });
    const overlay = document.querySelector('.mantine-Modal-overlay');
    expect(overlay).not.toBeNull();
    fireEvent.mouseDown(overlay!);
    fireEvent.click(overlay!);
    const inner = document.querySelector('.mantine-Modal-inner');
    fireEvent.mouseDown(inner!);
    fireEvent.click(inner!);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(uiState.getState().alert).not.toBeNull();
    expect(dialog()).not.toBeNull();
  });

  it('does not open a second time while open: a second alert is ignored', async () => {
    publish('error', 'primero');
    await screen.findByTestId('message-dialog');
    publish('success', 'segundo');
    expect(screen.getAllByTestId('message-dialog')).toHaveLength(1);
    expect(screen.getByTestId('message-dialog-content').textContent).toBe('primero');
    expect(screen.queryByTestId('message-dialog-icon-success')).toBeNull();
  });

  it.each(['', '   ', '\n\t'])('opens nothing for empty content %j', async (content) => {
    publish('error', content);
    void act(() => void uiState.getState().publishAlert(null));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(dialog()).toBeNull();
  });

  it.each([
    ['<script>window.__pwned = 1</script>ok', 'script'],
    ['<img src="x" onerror="window.__pwned = 1">', 'img[onerror]'],
    ['<a href="javascript:window.__pwned = 1">clic</a>', 'a[href^="javascript"]'],
    ['<svg><script>window.__pwned = 1</script></svg>', 'svg'],
    ['<iframe srcdoc="<script>parent.__pwned=1</script>"></iframe>', 'iframe'],
    [
      '<div style="background:url(javascript:alert(1))" onclick="window.__pwned=1">x</div>',
      '[onclick], [style]',
    ],
    ['<form action="javascript:alert(1)"><button>x</button></form>', 'form, button'],
  ])('sanitizes %s', async (content, forbiddenSelector) => {
    publish('error', content);
    const shown = await screen.findByTestId('message-dialog-content');
    expect(shown.querySelector(forbiddenSelector)).toBeNull();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect((window as unknown as { __pwned?: number }).__pwned).toBeUndefined();
  });

  it('keeps safe links and opens them in a new tab', async () => {
    publish('success', '<a href="https://example.org/ayuda">ayuda</a>');
    const link = (await screen.findByTestId('message-dialog-content')).querySelector('a');
    expect(link?.getAttribute('href')).toBe('https://example.org/ayuda');
    expect(link?.getAttribute('target')).toBe('_blank');
    expect(link?.getAttribute('rel')).toContain('noopener');
  });
});

describe('MessageDialog in English', () => {
  it('says OK', async () => {
    renderWithProviders(<MessageDialog />, { language: 'en' });
    publish('error', 'x');
    expect((await screen.findByTestId('message-dialog-ok')).textContent).toBe('OK');
  });
});
