import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../test/render';
import { TimeZoneSelect } from './TimeZoneSelect';

function Harness({ onChange }: { onChange: (zone: string) => void }) {
  const [zone, setZone] = useState('America/Mexico_City');
  return (
    <TimeZoneSelect
      value={zone}
      onChange={(next) => {
        setZone(next);
        onChange(next);
      }}
      data-testid="zone"
    />
  );
}

describe('TimeZoneSelect', () => {
  it('holds its place with a read-only field until the select is loaded, then lets the person pick a zone', async () => {
    const user = userEvent.setup();
    const onChange = vi.fn();
    renderWithProviders(<Harness onChange={onChange} />);

    // First paint: the select's chunk is still on its way; the same label and value already show.
    const placeholder = screen.getByLabelText<HTMLInputElement>('Zona horaria');
    expect(placeholder).toHaveProperty('readOnly', true);
    // The zone in words in the reader's language, never its IANA id.
    expect(placeholder.value).toMatch(/^\(GMT[^)]*\) hora de Ciudad de México$/);

    const input = await screen.findByTestId<HTMLInputElement>('zone');
    expect(input).toHaveProperty('readOnly', false);
    expect(input.value).toMatch(/hora de Ciudad de México$/);

    await user.clear(input);
    await user.type(input, 'Madrid');
    // The dropdown's opening transition does not run in jsdom, so the option counts as hidden.
    await user.click(await screen.findByRole('option', { name: /hora de Madrid$/, hidden: true }));
    expect(onChange).toHaveBeenLastCalledWith('Europe/Madrid');
    expect(screen.getByTestId<HTMLInputElement>('zone').value).toMatch(/hora de Madrid$/);
  });
});
