import { describe, expect, it } from 'vitest';
import { countPages, paginationWindow } from './pagination-window.js';

describe('paginationWindow', () => {
  it.each([
    // [current page, page count, expected window]
    [1, 0, []],
    [3, 0, []],
    [1, 1, [1]],
    [1, 3, [1, 2, 3]],
    [1, 6, [1, 2, 3, 4, 5, 6]],
    [1, 20, [1, 2, 3, 4, 5, 6]],
    [2, 20, [1, 2, 3, 4, 5, 6]],
    [3, 20, [1, 2, 3, 4, 5, 6]],
    [4, 20, [2, 3, 4, 5, 6, 7]],
    [5, 20, [3, 4, 5, 6, 7, 8]],
    [10, 20, [8, 9, 10, 11, 12, 13]],
    [15, 20, [13, 14, 15, 16, 17, 18]],
    [16, 20, [14, 15, 16, 17, 18, 19]],
    [17, 20, [15, 16, 17, 18, 19, 20]],
    // near the end the window keeps starting two pages before and holds fewer links
    [18, 20, [16, 17, 18, 19, 20]],
    [19, 20, [17, 18, 19, 20]],
    [20, 20, [18, 19, 20]],
    [4, 4, [2, 3, 4]],
    [4, 5, [2, 3, 4, 5]],
    // out-of-range pages are clamped
    [0, 5, [1, 2, 3, 4, 5]],
    [-3, 5, [1, 2, 3, 4, 5]],
    [99, 10, [8, 9, 10]],
  ])('page %i of %i → %j', (current, count, expected) => {
    expect(paginationWindow(current, count)).toEqual(expected);
  });

  it('never holds more than six pages and always holds the current page', () => {
    for (let count = 1; count <= 40; count += 1) {
      for (let current = 1; current <= count; current += 1) {
        const window = paginationWindow(current, count);
        expect(window.length).toBeLessThanOrEqual(6);
        expect(window).toContain(current);
        expect(window[0]).toBe(current > 3 ? current - 2 : 1);
      }
    }
  });
});

describe('countPages', () => {
  it.each([
    [0, 10, 0],
    [1, 10, 1],
    [10, 10, 1],
    [11, 10, 2],
    [95, 10, 10],
    [5, 0, 0],
    [-4, 10, 0],
    [Number.NaN, 10, 0],
  ])('%d items by %d → %d pages', (total, size, expected) => {
    expect(countPages(total, size)).toBe(expected);
  });
});
