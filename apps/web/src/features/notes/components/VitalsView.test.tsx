import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '../../../test/render';
import { VitalsView } from './VitalsView';

describe('the reported vitals, worded for the reader', () => {
  it('tells the doctor that the patient reported none', () => {
    renderWithProviders(<VitalsView vitals={null} />);
    expect(screen.getByTestId('note-vitals-none').textContent).toBe(
      'El paciente no ha informado constantes.',
    );
  });

  it('tells the patient reading their own visit that they sent none (not "the patient")', () => {
    renderWithProviders(<VitalsView vitals={null} isOwn />);
    expect(screen.getByTestId('note-vitals-none').textContent).toBe(
      'No envió constantes para esta consulta.',
    );
  });
});
