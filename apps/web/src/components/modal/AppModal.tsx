import { Modal, type ModalProps } from '@mantine/core';
import { useReducedMotion } from '@mantine/hooks';
import { useTranslation } from 'react-i18next';

/** Specification §9: modals fade in over 150 ms and out over 300 ms when animated. */
export const modalTransitionMs = { enter: 150, exit: 300 } as const;

export interface AppModalProps extends Omit<
  ModalProps,
  'closeOnEscape' | 'closeOnClickOutside' | 'transitionProps'
> {
  /** A static modal is not dismissed by Escape or a backdrop click — only by its own buttons. */
  isStatic?: boolean;
  /** Fade in and out. Default true; always off when the person prefers reduced motion. */
  isAnimated?: boolean;
}

/**
 * The application's modal: Mantine's accessible dialog (focus trap, scroll lock, labelled title)
 * with the specification's transitions and static mode.
 */
export function AppModal({ isStatic = false, isAnimated = true, ...props }: AppModalProps) {
  const { t } = useTranslation();
  const prefersReducedMotion = useReducedMotion();
  const shouldAnimate = isAnimated && !prefersReducedMotion;
  return (
    <Modal
      {...props}
      // The × has no text: it needs a name (axe button-name).
      closeButtonProps={{ 'aria-label': t('common.close'), ...props.closeButtonProps }}
      closeOnEscape={!isStatic}
      closeOnClickOutside={!isStatic}
      transitionProps={{
        transition: 'fade',
        duration: shouldAnimate ? modalTransitionMs.enter : 0,
        exitDuration: shouldAnimate ? modalTransitionMs.exit : 0,
      }}
    />
  );
}
