import type { Instrument, Severity } from '@telemedicina/shared/intake-logic';

/** Where each instrument's bands begin (published cut-offs) and its highest total. */
export const trendBands: Record<Instrument, { max: number; starts: { from: number; severity: Severity }[] }> =
  {
    phq9: {
      max: 27,
      starts: [
        { from: 5, severity: 'mild' },
        { from: 10, severity: 'moderate' },
        { from: 15, severity: 'moderatelySevere' },
        { from: 20, severity: 'severe' },
      ],
    },
    gad7: {
      max: 21,
      starts: [
        { from: 5, severity: 'mild' },
        { from: 10, severity: 'moderate' },
        { from: 15, severity: 'severe' },
      ],
    },
  };

/**
 * The y-axis ticks of an instrument's trend: 0, each band's first score and the highest total, so
 * every band line sits on a labelled tick (Recharts' own ticks, 0–7–14–21–28, fell between them).
 */
export function trendTicks(instrument: Instrument): number[] {
  const { max, starts } = trendBands[instrument];
  return [0, ...starts.map((band) => band.from), max];
}
