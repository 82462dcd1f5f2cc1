import { screen, within } from '@testing-library/react';
import type { DoctorDirectoryItem } from '@telemedicina/shared/doctors';
import { MemoryRouter, Route, Routes } from 'react-router';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '../../../test/render';
import { DoctorCard } from './DoctorCard';

const doctor: DoctorDirectoryItem = {
  id: 'd-1',
  name: 'Dra. Maximiliana Fernández-Villaverde',
  photoUrl: null,
  specialties: [
    { id: 's-1', name: { es: 'Cardiología', en: 'Cardiology' } },
    { id: 's-2', name: { es: 'Medicina interna', en: 'Internal medicine' } },
  ],
  languages: ['es', 'fr'],
  visitMinutes: 30,
  acceptsNewPatients: false,
  timeZone: 'America/Mexico_City',
  nextSlots: ['2026-11-30T15:00:00.000Z', '2026-11-30T15:30:00.000Z'],
};

function renderCard(item: DoctorDirectoryItem, language: 'es' | 'en' = 'es') {
  const view = renderWithProviders(
    <MemoryRouter initialEntries={['/portal/doctors']}>
      <Routes>
        <Route
          path="/portal/doctors"
          element={
            <ul>
              <DoctorCard doctor={item} />
            </ul>
          }
        />
      </Routes>
    </MemoryRouter>,
    { language },
  );
  return view;
}

describe('DoctorCard', () => {
  it('shows the initials, the whole name as the link to the profile, specialties and languages by name', () => {
    renderCard(doctor);
    const card = screen.getByTestId('list-row');
    const link = within(card).getByRole('link', { name: doctor.name });
    expect(link.getAttribute('href')).toBe('/portal/doctors/d-1');
    expect(within(card).getByRole('heading', { level: 2 }).textContent).toBe(doctor.name);
    expect(within(card).getByTestId('doctor-row-specialties').textContent).toBe(
      'Cardiología · Medicina interna',
    );
    expect(within(card).getByTestId('doctor-row-languages').textContent).toBe('español, francés');
    expect(card.textContent).toContain('No acepta pacientes nuevos');
    expect(card.textContent).toContain('30 min');
    // No photo: the initials on a disc.
    expect(card.textContent).toContain('DM');
  });

  it('names the languages in English for an English reader', () => {
    renderCard(doctor, 'en');
    expect(screen.getByTestId('doctor-row-languages').textContent).toBe('Spanish, French');
    expect(screen.getByTestId('doctor-row-specialties').textContent).toBe('Cardiology · Internal medicine');
  });

  it('offers each next free time as a link straight into booking that time, in the viewer’s zone', () => {
    renderCard(doctor);
    const slots = screen.getAllByTestId('doctor-next-slot');
    expect(slots).toHaveLength(2);
    expect(slots[0]!.tagName).toBe('A');
    expect(slots[0]!.getAttribute('href')).toBe(
      `/portal/doctors/d-1?slot=${encodeURIComponent('2026-11-30T15:00:00.000Z')}`,
    );
    expect(slots[1]!.getAttribute('href')).toBe(
      `/portal/doctors/d-1?slot=${encodeURIComponent('2026-11-30T15:30:00.000Z')}`,
    );
    expect(screen.queryByTestId('doctor-no-slots')).toBeNull();
  });

  it('says so when there is no free time, with no buttons', () => {
    renderCard({ ...doctor, nextSlots: [], acceptsNewPatients: true });
    expect(screen.getByTestId('doctor-no-slots').textContent).toBe(
      'Sin horarios libres en los próximos 14 días',
    );
    expect(screen.queryAllByTestId('doctor-next-slot')).toHaveLength(0);
    expect(screen.getByTestId('list-row').textContent).not.toContain('No acepta pacientes nuevos');
  });

  it('shows the photo when there is one', () => {
    const { container } = renderCard({ ...doctor, photoUrl: '/api/v1/files/photo-1' });
    expect(container.querySelector('img')?.getAttribute('src')).toBe('/api/v1/files/photo-1');
  });
});
