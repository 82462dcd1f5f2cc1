import { createTheme, type CSSVariablesResolver, type MantineColorsTuple } from '@mantine/core';

/**
 * A calm medical teal. Shade 7 (#0a6b7e) is the primary: white text on it has a 6.1:1 contrast
 * ratio and it reads 5.8:1 on the light grey page background (WCAG AA needs 4.5:1).
 */
const clinic: MantineColorsTuple = [
  '#e3f4f6',
  '#c5e6eb',
  '#94d0da',
  '#5fb7c6',
  '#36a1b4',
  '#1c90a5',
  '#0e7f94',
  '#0a6b7e',
  '#075867',
  '#04454f',
];

/** System fonts only: nothing is downloaded at run time. */
const systemFonts =
  'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", "Noto Sans", "Liberation Sans", Arial, sans-serif, "Apple Color Emoji", "Segoe UI Emoji"';

export const theme = createTheme({
  colors: { clinic },
  primaryColor: 'clinic',
  primaryShade: { light: 7, dark: 5 },
  fontFamily: systemFonts,
  headings: { fontFamily: systemFonts, fontWeight: '650' },
  defaultRadius: 'md',
  // Animations collapse to 0 ms for people who ask their system to reduce motion.
  respectReducedMotion: true,
  cursorType: 'pointer',
});

/** WCAG relative luminance of a `#rrggbb` colour. */
function luminance(hex: string): number {
  const channels = [1, 3, 5].map((start) => {
    const value = parseInt(hex.slice(start, start + 2), 16) / 255;
    return value <= 0.03928 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * channels[0]! + 0.7152 * channels[1]! + 0.0722 * channels[2]!;
}

/** WCAG contrast ratio of two `#rrggbb` colours (1 … 21). */
export function contrastRatio(first: string, second: string): number {
  const [light, dark] = [luminance(first), luminance(second)].sort((a, b) => b - a);
  return (light! + 0.05) / (dark! + 0.05);
}

/** `hex` mixed with black by `amount` (0 … 1). */
function darkenHex(hex: string, amount: number): string {
  const channel = (start: number) =>
    Math.round(parseInt(hex.slice(start, start + 2), 16) * (1 - amount))
      .toString(16)
      .padStart(2, '0');
  return `#${channel(1)}${channel(3)}${channel(5)}`;
}

/** The first colour of `candidates` (then `fallback` darkened step by step) reading ≥ 4.5:1 on `background`. */
function readableOn(background: string, candidates: string[]): string {
  const found = candidates.find((color) => contrastRatio(color, background) >= 4.5);
  if (found) {
    return found;
  }
  let color = candidates.at(-1)!;
  while (contrastRatio(color, background) < 4.5) {
    color = darkenHex(color, 0.08);
  }
  return color;
}

/**
 * Light-scheme colours that meet WCAG AA (4.5:1) where Mantine's defaults do not (axe found them):
 * text of `light` badges, alerts and avatars (shade 9 on shade 1 reads 3.6–4.3:1 for orange, teal,
 * green…) is darkened just enough; `filled` buttons and badges use the lightest shade from 6 on
 * that carries white text; dimmed and placeholder text are one step darker.
 */
export const cssVariablesResolver: CSSVariablesResolver = (resolved) => {
  const light: Record<string, string> = {
    '--mantine-color-dimmed': resolved.colors.gray[7],
    '--mantine-color-placeholder': '#6c757d',
    '--mantine-color-error': readableOn('#ffffff', [...resolved.colors.red.slice(6)]),
  };
  for (const [name, shades] of Object.entries(resolved.colors)) {
    if (name === 'dark' || name === 'gray') {
      continue;
    }
    light[`--mantine-color-${name}-light-color`] = readableOn(shades[1], [shades[9]]);
    light[`--mantine-color-${name}-text`] = readableOn('#ffffff', [
      shades[6],
      shades[7],
      shades[8],
      shades[9],
    ]);
    light[`--mantine-color-${name}-outline`] = readableOn('#ffffff', [shades[7], shades[8], shades[9]]);
    const filled = readableOn('#ffffff', [shades[6], shades[7], shades[8], shades[9]]);
    const index = shades.indexOf(filled);
    if (name !== resolved.primaryColor && index !== 6) {
      light[`--mantine-color-${name}-filled`] = filled;
      light[`--mantine-color-${name}-filled-hover`] = shades[Math.min(9, index + 1)] ?? filled;
    }
  }
  return { variables: {}, light, dark: {} };
};
