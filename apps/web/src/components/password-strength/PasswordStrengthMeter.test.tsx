import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '../../test/render';
import { PasswordStrengthMeter } from './PasswordStrengthMeter';

const problems = () =>
  screen.queryAllByTestId(/^password-problem-/).map((item) => item.getAttribute('data-testid'));

describe('PasswordStrengthMeter', () => {
  it('explains the policy before anything is typed', () => {
    renderWithProviders(<PasswordStrengthMeter password="" />);
    expect(screen.getByTestId('password-strength-label').textContent).toBe(
      'Use al menos 10 caracteres. Una frase fácil de recordar es más segura que una palabra con símbolos.',
    );
    expect(screen.getByTestId('password-strength').getAttribute('data-score')).toBe('');
  });

  it('lists the problems checkPassword finds, translated', () => {
    const { rerender } = renderWithProviders(<PasswordStrengthMeter password="abc" />);
    expect(problems()).toEqual(['password-problem-tooShort']);
    expect(screen.getByTestId('password-problem-tooShort').textContent).toBe(
      'Debe tener al menos 10 caracteres.',
    );
    expect(screen.getByTestId('password-strength-label').textContent).toBe(
      'Seguridad de la contraseña: muy débil',
    );

    rerender(<PasswordStrengthMeter password="Password123!" />);
    expect(problems()).toEqual(['password-problem-tooCommon']);

    rerender(<PasswordStrengthMeter password="gonzalo-en-casa-2026" personal={{ name: 'Gonzalo Ruiz' }} />);
    expect(problems()).toEqual(['password-problem-containsPersonalData']);

    rerender(<PasswordStrengthMeter password="aaaabbbbaaaa" />);
    expect(problems()).toEqual(['password-problem-tooSimple']);
  });

  it('rates a long varied password as accepted and strong', () => {
    renderWithProviders(<PasswordStrengthMeter password="Tres Frases Largas y 7 Gatos!" />, {
      language: 'en',
    });
    const meter = screen.getByTestId('password-strength');
    expect(problems()).toEqual([]);
    expect(meter.getAttribute('data-accepted')).toBe('true');
    expect(Number(meter.getAttribute('data-score'))).toBeGreaterThanOrEqual(3);
    expect(screen.getByText('This password meets the security policy.')).toBeTruthy();
  });
});
