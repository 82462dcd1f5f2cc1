import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { bindLanguageState, languageStorageKey } from '../../lib/i18n';
import { uiState } from '../../lib/ui-state';
import { renderWithProviders } from '../../test/render';
import { LanguageSwitcher } from './LanguageSwitcher';

describe('LanguageSwitcher', () => {
  it('offers both languages, marks the current one, and switches the whole interface', async () => {
    const user = userEvent.setup();
    const { i18n } = renderWithProviders(<LanguageSwitcher />);
    const unbind = bindLanguageState(i18n);
    const spanish = screen.getByTestId('language-option-es');
    const english = screen.getByTestId('language-option-en');
    expect(spanish.getAttribute('aria-pressed')).toBe('true');
    expect(english.getAttribute('aria-pressed')).toBe('false');
    expect(screen.getByRole('group').getAttribute('aria-label')).toBe('Idioma');

    await user.click(english);
    expect(uiState.getState().language).toBe('en');
    expect(localStorage.getItem(languageStorageKey)).toBe('en');
    await vi.waitFor(() => expect(screen.getByRole('group').getAttribute('aria-label')).toBe('Language'));
    expect(screen.getByTestId('language-option-en').getAttribute('aria-pressed')).toBe('true');
    expect(document.documentElement.lang).toBe('en');
    unbind();
  });
});
