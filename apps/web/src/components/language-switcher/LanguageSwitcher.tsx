import { supportedLanguages } from '@telemedicina/shared/i18n';
import { UnstyledButton, VisuallyHidden } from '@mantine/core';
import { IconLanguage } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { chooseLanguage } from '../../lib/i18n';
import { useLanguage } from '../../lib/ui-state';
import classes from './LanguageSwitcher.module.css';

/**
 * Switches the interface between Spanish and English. The choice goes to the shared UI state (the
 * one place the language lives) and is remembered for the next visit.
 */
export function LanguageSwitcher({ variant = 'default' }: { variant?: 'default' | 'onDark' }) {
  const { t } = useTranslation();
  const language = useLanguage();
  return (
    <div
      className={classes.root}
      data-variant={variant}
      role="group"
      aria-label={t('languages.label')}
      data-testid="language-switcher"
    >
      <IconLanguage size={18} stroke={1.7} className={classes.icon} aria-hidden />
      {supportedLanguages.map((option) => {
        const isActive = option === language;
        return (
          <UnstyledButton
            key={option}
            className={classes.option}
            data-active={isActive || undefined}
            aria-pressed={isActive}
            lang={option}
            title={t(`languages.${option}.name`)}
            data-testid={`language-option-${option}`}
            onClick={() => chooseLanguage(option)}
          >
            {/* Sighted people read the abbreviation, screen readers the language's full name. */}
            <span aria-hidden="true">{t(`languages.${option}.short`)}</span>
            <VisuallyHidden>{t(`languages.${option}.name`)}</VisuallyHidden>
          </UnstyledButton>
        );
      })}
    </div>
  );
}
