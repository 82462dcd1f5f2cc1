import { screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { startFakeApi, type FakeApi } from '../../../test/fake-api';
import { sendJson } from '../../../test/http-server';
import { renderWithProviders } from '../../../test/render';
import { ChartIntakeSection } from './ChartIntakeSection';

const patientId = '11111111-1111-4111-8111-111111111111';
const slow = { timeout: 20_000 };

function form(
  index: number,
  instrument: 'phq9' | 'gad7',
  score: number,
  severity: string,
  completedAt: string,
) {
  return {
    id: `5555555${index}-5555-4555-8555-555555555555`,
    appointmentId: '22222222-2222-4222-8222-222222222222',
    patientId,
    title: { es: instrument.toUpperCase(), en: instrument.toUpperCase() },
    questionnaireVersion: 1,
    status: 'completed',
    updatedAt: completedAt,
    completedAt,
    score: { instrument, score, severity, selfHarmFlag: false },
  };
}

describe('the chart intake section: scores over time', { timeout: 60_000 }, () => {
  let api: FakeApi;
  beforeAll(async () => {
    api = await startFakeApi();
    jsdom.reconfigure({ url: `${api.origin}/` });
  });
  afterAll(async () => {
    await api.close();
  });
  beforeEach(() => {
    api.reset();
  });

  it('draws a PHQ-9 trend with a screen-reader summary and table, oldest first', async () => {
    api.routes[`GET /api/v1/patients/${patientId}/intake-responses`] = (_request, response) =>
      sendJson(response, 200, {
        data: [
          form(3, 'phq9', 6, 'mild', '2026-11-20T15:00:00.000Z'),
          form(2, 'phq9', 14, 'moderate', '2026-10-20T15:00:00.000Z'),
          form(1, 'gad7', 16, 'severe', '2026-10-20T15:00:00.000Z'),
        ],
      });
    renderWithProviders(
      <MemoryRouter>
        <ChartIntakeSection patientId={patientId} />
      </MemoryRouter>,
    );
    const summaries = await screen.findAllByTestId('intake-trend-summary', {}, slow);
    expect(summaries.map((element) => element.textContent)).toEqual([
      '2 resultados de PHQ-9; el último, 6 de 27 (leve) el 20 nov 2026.',
      '1 resultado de GAD-7; el último, 16 de 21 (grave) el 20 oct 2026.',
    ]);
    expect(screen.getAllByTestId('intake-trend-row').map((row) => row.textContent)).toEqual([
      '20 oct 202614 / 27moderada',
      '20 nov 20266 / 27leve',
      '20 oct 202616 / 21grave',
    ]);
  });

  it('puts a y-axis tick on every band line (0, 5, 10, 15, 20 and 27 for PHQ-9)', async () => {
    api.routes[`GET /api/v1/patients/${patientId}/intake-responses`] = (_request, response) =>
      sendJson(response, 200, {
        data: [
          form(2, 'phq9', 6, 'mild', '2026-11-20T15:00:00.000Z'),
          form(1, 'phq9', 14, 'moderate', '2026-10-20T15:00:00.000Z'),
        ],
      });
    // jsdom lays nothing out: the chart's container is given the size a browser would.
    const size = vi
      .spyOn(HTMLElement.prototype, 'getBoundingClientRect')
      .mockReturnValue(new DOMRect(0, 0, 600, 200));
    try {
      const { container } = renderWithProviders(
        <MemoryRouter>
          <ChartIntakeSection patientId={patientId} />
        </MemoryRouter>,
      );
      await screen.findByTestId('intake-trend', {}, slow);
      const ys = (selector: string) =>
        [...container.querySelectorAll(selector)].map((line) => Number(line.getAttribute('y1')).toFixed(1));
      let bandLines: string[] = [];
      await vi.waitFor(
        () => {
          bandLines = ys('.recharts-reference-line line');
          expect(bandLines).toHaveLength(4);
        },
        { timeout: 10_000 },
      );
      const ticks = ys('.recharts-yAxis .recharts-cartesian-axis-tick-line');
      // Every band line (5, 10, 15, 20) on a tick, and 0 and 27 at the ends.
      expect(ticks).toHaveLength(6);
      expect(ticks).toEqual(expect.arrayContaining(bandLines));
    } finally {
      size.mockRestore();
    }
  });

  it('shows no trend while no form has a score', async () => {
    api.routes[`GET /api/v1/patients/${patientId}/intake-responses`] = (_request, response) =>
      sendJson(response, 200, {
        data: [
          {
            ...form(1, 'phq9', 0, 'minimal', '2026-11-20T15:00:00.000Z'),
            score: null,
            status: 'in-progress',
            completedAt: null,
          },
        ],
      });
    renderWithProviders(
      <MemoryRouter>
        <ChartIntakeSection patientId={patientId} />
      </MemoryRouter>,
    );
    await screen.findByTestId('chart-intake', {}, slow);
    expect(screen.queryByTestId('intake-trend')).toBeNull();
    // A form not sent says when it last changed, not the badge's word again.
    expect((await screen.findByTestId('chart-intake-when')).textContent).toMatch(
      /^Sin enviar; último cambio el 20 nov 2026, \d{1,2}:\d{2}$/,
    );
  });
});
