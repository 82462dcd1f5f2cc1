import { fireEvent, screen } from '@testing-library/react';
import type { ChatMessage } from '@telemedicina/shared/visits';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../../test/render';
import { addPending, emptyChatLog, mergeMessages } from '../chat-log';
import { ChatPanel } from './ChatPanel';

const message = (seq: number, body: string, key = 'user:doctor'): ChatMessage => ({
  id: `m-${seq}`,
  appointmentId: 'a-1',
  seq,
  sender: { key, name: 'Dra. Ruiz', role: 'doctor' },
  clientId: `c-${seq}`,
  kind: 'text',
  body,
  file: null,
  createdAt: '2026-11-21T10:00:00.000Z',
});

describe('visit chat panel', () => {
  beforeAll(() => {
    // Mantine's autosizing textarea listens to font loading, which jsdom does not have.
    if (!('fonts' in document)) {
      Object.defineProperty(document, 'fonts', {
        value: { addEventListener: () => undefined, removeEventListener: () => undefined },
        configurable: true,
      });
    }
  });

  it('shows markup in a message as text, its own pending messages, who is typing, and sends with Enter', () => {
    const onSend = vi.fn();
    const onTyping = vi.fn();
    let chat = mergeMessages(emptyChatLog, [
      message(1, '<img src=x onerror="alert(1)">'),
      message(2, 'Hola', 'user:patient'),
    ]);
    chat = addPending(chat, { clientId: 'p-1', body: 'En camino', createdAt: '', status: 'sending' });
    const { container } = renderWithProviders(
      <ChatPanel
        appointmentId="a-1"
        selfKey="user:patient"
        chat={chat}
        typing={['Dra. Ruiz']}
        canWrite
        canShareFiles={false}
        onSend={onSend}
        onTyping={onTyping}
      />,
    );
    const texts = screen.getAllByTestId('visit-chat-text').map((node) => node.textContent);
    expect(texts).toEqual(['<img src=x onerror="alert(1)">', 'Hola']);
    expect(container.querySelector('img')).toBeNull();
    expect(screen.getAllByTestId('visit-chat-message')[1]!.textContent).toContain('Usted');
    expect(screen.getByTestId('visit-chat-pending').textContent).toContain('Enviando');
    expect(screen.getByTestId('visit-chat-typing').textContent).toBe('Dra. Ruiz está escribiendo…');

    const input = screen.getByTestId('visit-chat-input');
    fireEvent.change(input, { target: { value: '  ¿Me oye?  ' } });
    expect(onTyping).toHaveBeenCalledWith(true);
    fireEvent.keyDown(input, { key: 'Enter' });
    expect(onSend).toHaveBeenCalledWith('¿Me oye?');
    expect(onTyping).toHaveBeenLastCalledWith(false);
    expect((input as HTMLTextAreaElement).value).toBe('');
  });

  it('keeps the history readable once the visit ended, without a way to write', () => {
    renderWithProviders(
      <ChatPanel
        appointmentId="a-1"
        selfKey="user:patient"
        chat={mergeMessages(emptyChatLog, [message(1, 'Gracias')])}
        typing={[]}
        canWrite={false}
        canShareFiles={false}
      />,
      { language: 'en' },
    );
    expect(screen.getByTestId('visit-chat-text').textContent).toBe('Gracias');
    expect(screen.queryByTestId('visit-chat-input')).toBeNull();
    expect(screen.getByTestId('visit-chat-readonly').textContent).toContain('The visit has ended');
  });
});
