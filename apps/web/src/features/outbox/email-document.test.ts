import { describe, expect, it } from 'vitest';
import { splitLinks, toEmailDocument } from './email-document';

describe('toEmailDocument', () => {
  it('keeps links clickable and removes what could run', () => {
    const document = toEmailDocument(
      '<p>Hola</p><a href="https://clinica.example/verify-email?token=abc">Confirmar</a>' +
        '<script>alert(1)</script><img src="x" onerror="alert(2)"><a href="javascript:alert(3)">x</a>' +
        '<form action="https://evil.example"><input name="p"></form><iframe src="https://evil.example"></iframe>',
    );
    expect(document).toContain('href="https://clinica.example/verify-email?token=abc"');
    expect(document).not.toMatch(/<script|onerror|javascript:|<form|<iframe|<input/i);
    expect(document.startsWith('<!doctype html>')).toBe(true);
  });
});

describe('splitLinks', () => {
  it('turns http(s) addresses into links and leaves the rest as text', () => {
    expect(splitLinks('Abra https://clinica.example/verify-email?token=a-b_c. Gracias')).toEqual([
      { kind: 'text', text: 'Abra ' },
      { kind: 'link', href: 'https://clinica.example/verify-email?token=a-b_c' },
      { kind: 'text', text: '. Gracias' },
    ]);
    expect(splitLinks('javascript:alert(1) ftp://x')).toEqual([
      { kind: 'text', text: 'javascript:alert(1) ftp://x' },
    ]);
    expect(splitLinks('http://a.example\nhttp://b.example')).toEqual([
      { kind: 'link', href: 'http://a.example' },
      { kind: 'text', text: '\n' },
      { kind: 'link', href: 'http://b.example' },
    ]);
  });
});

describe('links whose secret the server hid', () => {
  it('are not links in the text version', () => {
    expect(splitLinks('Abra https://clinica.example/reset-password?token=[hidden] ahora')).toEqual([
      { kind: 'text', text: 'Abra ' },
      { kind: 'hiddenLink', base: 'https://clinica.example/reset-password' },
      { kind: 'text', text: ' ahora' },
    ]);
  });

  it('lose their address in the HTML view', () => {
    const document = toEmailDocument(
      '<a href="https://clinica.example/accept-invitation?token=[hidden]">Aceptar</a>' +
        '<a href="https://clinica.example/ayuda">Ayuda</a>',
    );
    expect(document).not.toContain('accept-invitation');
    expect(document).toContain('data-hidden-link=""');
    expect(document).toContain('href="https://clinica.example/ayuda"');
  });
});
