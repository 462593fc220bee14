// The markdown renderer's safety rules, case by case: raw HTML is text, dangerous link protocols
// lose their href, only lorebook's own images load and another site's image is a link to it, and
// ordinary markdown still renders (GFM tables, task lists, code).
import { describe, expect, it } from 'vitest';
import { renderMarkdown, storyBodyMarkdown } from '../../../../src/http/pages/render-markdown.ts';

describe('raw HTML is never passed through', () => {
  it('a <script> element comes out as escaped text', () => {
    const out = renderMarkdown('<script>alert(1)</script>');
    expect(out).not.toContain('<script');
    expect(out).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
  });

  it('an <img onerror> comes out as escaped text, not an element with a handler', () => {
    const out = renderMarkdown('<img src=x onerror="alert(1)">');
    expect(out).not.toMatch(/<img[^>]*onerror/i);
    expect(out).toContain('&lt;img src=x onerror=&quot;alert(1)&quot;&gt;');
  });

  it('inline HTML inside a paragraph is text too', () => {
    expect(renderMarkdown('hello <b onclick="x()">bold</b>')).toBe('<p>hello &lt;b onclick=&quot;x()&quot;&gt;bold&lt;/b&gt;</p>');
  });
});

describe('links', () => {
  it.each([
    ['javascript:', '[go](javascript:alert(1))'],
    ['javascript: in mixed case', '[go](JaVaScRiPt:alert(1))'],
    ['javascript: spelled with a character reference', '[go](jav&#x61;script:alert(1))'],
    ['data:', '[go](data:text/html,<b>hi</b>)'],
    ['vbscript:', '[go](vbscript:msgbox(1))'],
    ['javascript: in a reference definition', '[go][x]\n\n[x]: javascript:alert(1)'],
  ])('a %s link is refused: the text stays, without any href', (_name, markdown) => {
    expect(renderMarkdown(markdown).trim()).toBe('<p><a>go</a></p>');
  });

  it('an https link keeps its href and is marked as user content', () => {
    expect(renderMarkdown('[site](https://example.com/a?b=1&c=2)')).toBe(
      '<p><a rel="nofollow ugc noopener" href="https://example.com/a?b=1&amp;c=2">site</a></p>',
    );
  });

  it('a relative link (to another page here) is kept as it is', () => {
    expect(renderMarkdown('[other](/s/2026-01-01-x)')).toBe('<p><a href="/s/2026-01-01-x">other</a></p>');
  });

  it('a GFM autolink literal to a www address becomes an http link', () => {
    expect(renderMarkdown('see www.example.com')).toBe(
      '<p>see <a rel="nofollow ugc noopener" href="http://www.example.com">www.example.com</a></p>',
    );
  });
});

describe("only lorebook's own images load; another site's image is a link to it, never fetched", () => {
  const OWN = `/i/${'c3'.repeat(32)}.webp`;
  const BASE = 'https://lorebook.example';

  it("lorebook's own image path (/i/<sha256>.<ext>, as upload_image stores it) is kept", () => {
    expect(renderMarkdown(`![a chart](${OWN})`)).toBe(`<p><img loading="lazy" src="${OWN}" alt="a chart" /></p>`);
  });

  it("its URL on the base URL (what upload_image answers) loads from the path, so the page's img-src 'self' covers it", () => {
    expect(renderMarkdown(`![a chart](${BASE}${OWN} "t")`, BASE)).toBe(
      `<p><img loading="lazy" src="${OWN}" alt="a chart" title="t" /></p>`,
    );
  });

  it.each([
    ['an /i/ path that is not a content hash', '![pixel](/i/../secret.png)'],
    ['an /i/ path with a query', `![pixel](/i/${'c3'.repeat(32)}.webp?x)`],
    ['an /i/ path of another type', `![pixel](/i/${'c3'.repeat(32)}.svg)`],
  ])('%s becomes its alt text', (_name, markdown) => {
    expect(renderMarkdown(markdown)).toBe('<p>pixel</p>');
  });

  it('an https image on another site is a link naming its host, with no <img>', () => {
    expect(renderMarkdown('![a chart](https://img.example/c.png?a=1&b=2)', BASE)).toBe(
      '<p><a class="image-link" rel="nofollow ugc noopener" href="https://img.example/c.png?a=1&amp;b=2">Image: a chart (on img.example)</a></p>',
    );
  });

  it('an http image, and one without alt text, are links too', () => {
    expect(renderMarkdown('![a](http://img.example/c.png "t")')).toBe(
      '<p><a class="image-link" rel="nofollow ugc noopener" href="http://img.example/c.png">Image: a (on img.example)</a></p>',
    );
    expect(renderMarkdown('![](https://img.example:8443/c.png)')).toBe(
      '<p><a class="image-link" rel="nofollow ugc noopener" href="https://img.example:8443/c.png">Image on img.example:8443</a></p>',
    );
  });

  it("an image on another site that looks like lorebook's own (/i/<sha256>) is still a link", () => {
    expect(renderMarkdown(`![x](https://tracker.example${OWN})`, BASE)).toContain('<a class="image-link"');
  });

  it("inside a link, another site's image is its label only: no link nested in a link", () => {
    expect(renderMarkdown('[![badge](https://img.example/b.svg)](https://ci.example/run)')).toBe(
      '<p><a rel="nofollow ugc noopener" href="https://ci.example/run">Image: badge (on img.example)</a></p>',
    );
    expect(renderMarkdown('[go](https://a.example) ![b](https://img.example/b.png)')).toBe(
      '<p><a rel="nofollow ugc noopener" href="https://a.example">go</a> <a class="image-link" rel="nofollow ugc noopener" href="https://img.example/b.png">Image: b (on img.example)</a></p>',
    );
  });

  it('alt text that looks like markup stays escaped in the link', () => {
    expect(renderMarkdown('![<b>x</b>](https://img.example/c.png)')).toContain('>Image: &lt;b&gt;x&lt;/b&gt; (on img.example)</a>');
  });

  it.each([
    ['data:', '![pixel](data:image/png;base64,AAAA)'],
    ['javascript:', '![pixel](javascript:alert(1))'],
    ['a relative path', '![pixel](/local.png)'],
    ['a protocol-relative URL', '![pixel](//elsewhere.example/x.png)'],
    ['a file: URL', '![pixel](file:///etc/passwd)'],
  ])('a %s image becomes its alt text', (_name, markdown) => {
    expect(renderMarkdown(markdown)).toBe('<p>pixel</p>');
  });

  it('alt text that looks like markup stays escaped when the image is dropped', () => {
    expect(renderMarkdown('![<script>x</script>](data:x)')).toBe('<p>&lt;script&gt;x&lt;/script&gt;</p>');
  });
});

describe('ordinary markdown renders', () => {
  it('GFM tables, task lists, strikethrough and fenced code', () => {
    const out = renderMarkdown('| a | b |\n|---|---|\n| 1 | 2 |\n\n- [x] done\n\n~~old~~\n\n```ts\nconst a = "<b>";\n```');
    expect(out).toContain('<table>');
    expect(out).toContain('<input type="checkbox" disabled="" checked="" /> done');
    expect(out).toContain('<del>old</del>');
    expect(out).toContain('<pre><code class="language-ts">const a = &quot;&lt;b&gt;&quot;;\n</code></pre>');
  });
});

describe('the body a story page shows', () => {
  it('drops the front matter and the title heading, keeps the rest', () => {
    const markdown = '---\ntitle: T\ndate: 2026-01-01\n---\n\n# T\n\nFirst line.\n\n## Reproduce this\n\nSteps.\n';
    expect(storyBodyMarkdown(markdown)).toBe('\nFirst line.\n\n## Reproduce this\n\nSteps.\n');
  });
});

describe('the labels of the story format', () => {
  it('each label line starts a paragraph of its own, label in bold, also after a list', () => {
    const body = storyBodyMarkdown('# T\n\nPrerequisites: a table.\nSteps:\n1. Do it.\n2. Again.\nVerify: it holds.\n');
    expect(renderMarkdown(body)).toBe(
      '<p><strong>Prerequisites:</strong> a table.</p>\n<p><strong>Steps:</strong></p>\n<ol>\n<li>Do it.</li>\n<li>Again.</li>\n</ol>\n<p><strong>Verify:</strong> it holds.</p>\n',
    );
  });

  it('a label line inside a code fence is left as it is', () => {
    const body = storyBodyMarkdown('# T\n\n```\nSteps: not a label here\n```\n');
    expect(renderMarkdown(body)).toBe('<pre><code>Steps: not a label here\n</code></pre>\n');
  });
});
