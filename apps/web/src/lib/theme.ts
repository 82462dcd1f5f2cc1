import { createTheme, type MantineColorsTuple } from '@mantine/core';

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
