import { describe, expect, it } from 'vitest';
import { countHiddenLinks, hideSecretLinks } from './secret-links.js';

describe('hideSecretLinks', () => {
  it('hides the token of every link, in text and in HTML, and keeps the rest of the link', () => {
    const text = 'Abra https://clinica.example/reset-password?token=Ab-9_x y https://clinica.example/ayuda';
    expect(hideSecretLinks(text)).toBe(
      'Abra https://clinica.example/reset-password?token=[hidden] y https://clinica.example/ayuda',
    );
    expect(
      hideSecretLinks('<a href="https://c.example/v?lang=es&amp;token=abc123&amp;x=1">Confirmar</a>'),
    ).toBe('<a href="https://c.example/v?lang=es&amp;token=[hidden]&amp;x=1">Confirmar</a>');
    expect(hideSecretLinks('https://c.example/a?token=one&token=two')).toBe(
      'https://c.example/a?token=[hidden]&token=[hidden]',
    );
  });

  it('hides any token shape (percent-encoded, odd characters) and leaves other parameters alone', () => {
    expect(hideSecretLinks('https://c.example/a?TOKEN=a%2Fb.c~d')).toBe('https://c.example/a?token=[hidden]');
    expect(hideSecretLinks('https://c.example/a?mytoken=keep&tokenish=keep')).toBe(
      'https://c.example/a?mytoken=keep&tokenish=keep',
    );
  });

  it('is idempotent and counts the hidden links', () => {
    const once = hideSecretLinks('x https://c.example/a?token=s3cret y https://c.example/b?token=other');
    expect(hideSecretLinks(once)).toBe(once);
    expect(countHiddenLinks(once)).toBe(2);
    expect(countHiddenLinks('no links')).toBe(0);
  });
});
