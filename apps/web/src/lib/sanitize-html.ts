import DOMPurify from 'dompurify';

let isHookInstalled = false;

/**
 * Cleans HTML before it is put in the page (message dialog, saved editor content): scripts, event
 * handler attributes, `javascript:` links (DOMPurify's URI allow-list), SVG/MathML, forms, frames and inline styles go;
 * text formatting, lists, tables and links stay. Links open in a new tab without access to this one.
 */
export function sanitizeHtml(html: string): string {
  if (!isHookInstalled) {
    DOMPurify.addHook('afterSanitizeAttributes', (node) => {
      if (node instanceof Element && node.tagName === 'A' && node.hasAttribute('href')) {
        node.setAttribute('target', '_blank');
        node.setAttribute('rel', 'noopener noreferrer nofollow');
      }
    });
    isHookInstalled = true;
  }
  return DOMPurify.sanitize(html, {
    USE_PROFILES: { html: true },
    FORBID_TAGS: [
      'style',
      'form',
      'input',
      'button',
      'textarea',
      'select',
      'option',
      'iframe',
      'frame',
      'object',
      'embed',
      'base',
      'meta',
      'link',
    ],
    FORBID_ATTR: ['style', 'srcset', 'action', 'formaction', 'xlink:href'],
  });
}
