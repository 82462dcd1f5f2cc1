import { describe, expect, it } from 'vitest';
import { htmlHasText, htmlToBlocks } from './html-to-blocks.js';

describe('htmlToBlocks', () => {
  it('reads headings, paragraphs, nested and numbered lists as plain text', () => {
    const blocks = htmlToBlocks(
      '<h3>Tratamiento</h3><ul><li>Reposo &amp; <strong>líquidos</strong><ul><li>3 días</li></ul></li></ul>' +
        '<ol start="3"><li>Control</li><li>Alta</li></ol><p>Línea 1<br>Línea 2</p><blockquote><p>Cita</p></blockquote>',
    );
    expect(blocks).toEqual([
      { kind: 'heading', text: 'Tratamiento', depth: 0, marker: null },
      { kind: 'item', text: 'Reposo & líquidos', depth: 0, marker: '•' },
      { kind: 'item', text: '3 días', depth: 1, marker: '•' },
      { kind: 'item', text: 'Control', depth: 0, marker: '3.' },
      { kind: 'item', text: 'Alta', depth: 0, marker: '4.' },
      { kind: 'paragraph', text: 'Línea 1\nLínea 2', depth: 0, marker: null },
      { kind: 'paragraph', text: 'Cita', depth: 1, marker: null },
    ]);
  });

  it('keeps markup as text, never as markup, and tells empty sections apart', () => {
    expect(htmlToBlocks('<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>')).toEqual([
      { kind: 'paragraph', text: '<script>alert(1)</script>', depth: 0, marker: null },
    ]);
    expect(htmlToBlocks('texto suelto <em>sin</em> párrafo')).toEqual([
      { kind: 'paragraph', text: 'texto suelto sin párrafo', depth: 0, marker: null },
    ]);
    expect(htmlHasText('<p> </p><p><br></p><ul><li></li></ul>')).toBe(false);
    expect(htmlHasText('')).toBe(false);
    expect(htmlHasText('<p>Plan</p>')).toBe(true);
  });
});
