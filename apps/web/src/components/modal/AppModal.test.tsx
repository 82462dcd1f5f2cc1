import { fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../test/render';
import { AppModal, modalTransitionMs } from './AppModal';

function Harness({
  isStatic = false,
  isAnimated = true,
  onClose = () => {},
}: {
  isStatic?: boolean;
  isAnimated?: boolean;
  onClose?: () => void;
}) {
  const [isOpen, setIsOpen] = useState(true);
  return (
    <AppModal
      opened={isOpen}
      onClose={() => {
        onClose();
        setIsOpen(false);
      }}
      isStatic={isStatic}
      isAnimated={isAnimated}
      title="Modal"
      attributes={{ content: { 'data-testid': 'modal-content' } }}
    >
      <p>body</p>
    </AppModal>
  );
}

/** The transition duration Mantine applies to the dialog box while it fades. */
const contentDuration = () => screen.getByTestId('modal-content').style.transitionDuration;

describe('AppModal', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('uses the specification timings: 150 ms in, 300 ms out', () => {
    expect(modalTransitionMs).toEqual({ enter: 150, exit: 300 });
  });

  it('fades in over 150 ms', async () => {
    renderWithProviders(<Harness />);
    await waitFor(() => expect(contentDuration()).toBe('150ms'));
  });

  it('fades out over 300 ms', async () => {
    const user = userEvent.setup();
    renderWithProviders(<Harness />);
    await screen.findByTestId('modal-content');
    await user.keyboard('{Escape}');
    await waitFor(() => expect(contentDuration()).toBe('300ms'));
  });

  it('does not animate when the person prefers reduced motion', async () => {
    vi.stubGlobal('matchMedia', (query: string) => ({
      matches: query.includes('prefers-reduced-motion'),
      media: query,
      onchange: null,
      addListener: () => {},
      removeListener: () => {},
      addEventListener: () => {},
      removeEventListener: () => {},
      dispatchEvent: () => false,
    }));
    renderWithProviders(<Harness />);
    await screen.findByTestId('modal-content');
    expect(['', '0ms']).toContain(contentDuration());
  });

  it('is dismissed by Escape and by the backdrop unless static', async () => {
    const user = userEvent.setup();
    const onClose = vi.fn();
    const { unmount } = renderWithProviders(<Harness onClose={onClose} />);
    await screen.findByTestId('modal-content');
    await user.keyboard('{Escape}');
    expect(onClose).toHaveBeenCalledTimes(1);
    unmount();

    renderWithProviders(<Harness onClose={onClose} />);
    await screen.findByTestId('modal-content');
    fireEvent.click(document.querySelector('.mantine-Modal-overlay')!);
    await waitFor(() => expect(onClose).toHaveBeenCalledTimes(2));
  });

  it('is not dismissed by Escape or the backdrop when static', async () => {
    const user = userEvent.setup();
    const onClose = vi.fn();
    renderWithProviders(<Harness isStatic onClose={onClose} />);
    await screen.findByTestId('modal-content');
    await user.keyboard('{Escape}');
    fireEvent.click(document.querySelector('.mantine-Modal-overlay')!);
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(onClose).not.toHaveBeenCalled();
  });
});
