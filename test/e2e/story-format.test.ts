// The story format as people write it, through the real surface: the hono app over HTTP on
// DynamoDB Local, publishing each shape of the corpus (test/fixtures/stories/as-written) as the
// bytes of its file, then reading back what is stored and served.
import { beforeAll, describe, expect, it } from 'vitest';
import { answerOf, refusalOf, useLorebookServer } from '../helpers/lorebook-server.ts';
import { corpusBytes, corpusText, STORY_CORPUS } from '../helpers/story-corpus.ts';

const server = useLorebookServer('e2e-story-format');

let alice: { token: string; account: string };
beforeAll(async () => {
  alice = await server.token('alice');
});

const markdownHeaders = () => ({ Authorization: `Bearer ${alice.token}`, 'Content-Type': 'text/markdown; charset=utf-8' });
const observable = async () => (await server.app.state()).filter((item) => !String(item.PK).startsWith('RATE#'));
const publish = (body: Uint8Array | string) => server.fetch('/v1/stories', { method: 'POST', headers: markdownHeaders(), body });

/** What the store keeps of a file: its text, with only the documented one-text-per-story rules applied (BOM, CRLF, trailing spaces). */
function storedForm(text: string): string {
  return text
    .replace(/^\uFEFF/, '')
    .replace(/[ \t]+(?=\r?\n)/g, '')
    .replace(/\r\n/g, '\n');
}

describe('every shape of the corpus publishes over HTTP as its author wrote it', () => {
  for (const story of STORY_CORPUS) {
    it(`${story.file} (${story.shape}) is 201, and /s/{slug}.md serves the author's text unchanged`, async () => {
      const response = await publish(corpusBytes(story.file));
      const answer = (await response.json()) as Record<string, unknown>;
      expect(response.status, JSON.stringify(answer)).toBe(201);
      expect(answer).toMatchObject({ slug: story.slug, revision: 1 });

      const served = await server.fetch(`/s/${story.slug}.md`);
      expect(served.status).toBe(200);
      expect(await served.text()).toBe(storedForm(corpusText(story.file)));
      const view = (await (await server.fetch(`/v1/stories/${story.slug}`)).json()) as Record<string, unknown>;
      expect(view).toMatchObject({ type: story.type, has_check: story.hasCheck, markdown: storedForm(corpusText(story.file)) });
    });
  }

  it('only the Windows-saved story differs from its file at all (a BOM, CRLF and trailing spaces), so every other one is served byte for byte', () => {
    const changed = STORY_CORPUS.filter((story) => storedForm(corpusText(story.file)) !== corpusText(story.file)).map(
      (story) => story.file,
    );
    expect(changed).toEqual(['windows-crlf-bom.md']);
  });

  it('each story exported from its .md page and published again by its author is the same story: the same answer, nothing written', async () => {
    for (const story of STORY_CORPUS) {
      const exported = await (await server.fetch(`/s/${story.slug}.md`)).text();
      const first = (await (await server.fetch(`/v1/stories/${story.slug}`)).json()) as { revision: number };
      const before = await observable();
      const again = await publish(exported);
      expect(again.status, story.file).toBe(201);
      expect(await again.json()).toMatchObject({ slug: story.slug, revision: first.revision });
      expect(await observable(), story.file).toEqual(before);
    }
  });
});

describe('parts written the same ways publish over MCP', () => {
  it('publish_story parts with one-line verdicts, plain read-only steps and one-paragraph labels', async () => {
    const client = await server.mcp(alice.token);
    const parts = {
      title: 'Parts written as one paragraph each',
      date: '2026-11-20',
      tags: ['format'],
      type: 'success',
      narrative: 'An agent sent each section as one paragraph.',
      check:
        "Applies if: you send sections as parts.\nLook at the check part.\nHas the problem: it is refused. Doesn't have it: it is accepted.",
      reproduce: 'Prerequisites: a token. Your agent will need from you: nothing. Steps: send the parts. Verify: the answer is revision 1.',
    };
    const answer = answerOf<{ slug: string; revision: number }>(await client.callTool({ name: 'publish_story', arguments: { parts } }));
    expect(answer).toMatchObject({ slug: '2026-11-20-parts-written-as-one-paragraph-each', revision: 1 });
    const served = await (await server.fetch(`/s/${answer.slug}.md`)).text();
    expect(served).toContain(`## Check if this applies to you\n\n${parts.check}\n\n## Reproduce this\n\n${parts.reproduce}\n`);
  });

  it('publish_story refuses parts whose check has no read-only steps, naming the part, and writes nothing', async () => {
    const client = await server.mcp(alice.token);
    const before = await observable();
    const parts = {
      title: 'A check without steps',
      date: '2026-11-20',
      tags: ['format'],
      type: 'success',
      narrative: 'The check names a condition and verdicts, nothing to run.',
      check: "Applies if: always. Has the problem: yes. Doesn't have it: no.",
      reproduce: 'Prerequisites: a. Your agent will need from you: b. Steps: c. Verify: d.',
    };
    const refusal = refusalOf(await client.callTool({ name: 'publish_story', arguments: { parts } }));
    expect(refusal).toMatchObject({ code: 'validation_failed', retryable: false });
    expect(refusal.details?.fields).toEqual({
      check: expect.stringMatching(/Put the read-only steps after the `Applies if:` condition/),
    });
    expect(await observable()).toEqual(before);
  });
});

describe('the format stays strict over HTTP on what carries meaning', () => {
  const story = (reproduce: string) =>
    `---\ntitle: Strict about order\ndate: 2026-11-21\ntags: [format]\ntype: success\n---\n\n# Strict about order\n\nLabels out of order.\n\n## Reproduce this\n\n${reproduce}\n`;

  it('labels out of the format order are 422 validation_failed naming the section and the pair, and nothing is written', async () => {
    const before = await observable();
    const response = await publish(story('Prerequisites: a. Verify: d. Your agent will need from you: b. Steps: c.'));
    expect(response.status).toBe(422);
    const problem = (await response.json()) as { code: string; retryable: boolean; details: { fields: Record<string, string> } };
    expect(problem).toMatchObject({ code: 'validation_failed', retryable: false });
    expect(problem.details.fields['section.reproduce']).toContain('`Steps:` must come before `Verify:`');
    expect(await observable()).toEqual(before);
  });

  it('a label only in the middle of a sentence is missing: 422 naming it, and nothing is written', async () => {
    const before = await observable();
    const response = await publish(story('Prerequisites: a.\nYour agent will need from you: b.\nSteps: c, then verify: d.'));
    expect(response.status).toBe(422);
    const problem = (await response.json()) as { details: { fields: Record<string, string> } };
    expect(problem.details.fields['section.reproduce']).toContain('It lacks `Verify:`.');
    expect(await observable()).toEqual(before);
  });
});

/** Words as the index splits them (letters and digits), lower-cased, accents dropped. */
const wordsOf = (text: string): string[] =>
  text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word !== '');

describe('every shape of the corpus is found by a word only its body has', () => {
  // Each story's own words past its front matter that its title, summary, tags and stack lack and
  // no other story of the corpus has: long plain words, so the index's typo tolerance and the
  // last word's prefix match cannot be what finds them.
  const bodyOnlyWords = async (): Promise<Map<string, string[]>> => {
    const views = await Promise.all(
      STORY_CORPUS.map(async (story) => {
        const view = (await (await server.fetch(`/v1/stories/${story.slug}`)).json()) as {
          title: string;
          summary: string;
          tags: string[];
          stack: string[];
          markdown: string;
        };
        const body = view.markdown.replace(/^\uFEFF?---[\s\S]*?\n---\r?\n/, '');
        const described = new Set(wordsOf([view.title, view.summary, ...view.tags, ...view.stack].join(' ')));
        return { slug: story.slug, body: new Set(wordsOf(body)), described };
      }),
    );
    const unique = new Map<string, string[]>();
    for (const view of views) {
      const others = views.filter((other) => other !== view);
      const words = [...view.body].filter(
        (word) =>
          /^\p{L}{6,}$/u.test(word) &&
          !view.described.has(word) &&
          others.every((other) => !other.body.has(word) && !other.described.has(word)),
      );
      unique.set(view.slug, words);
    }
    return unique;
  };

  it('each story (published above) comes back from GET /v1/stories?q= for each of up to 3 such words', async () => {
    const unique = await bodyOnlyWords();
    for (const story of STORY_CORPUS) {
      const words = (unique.get(story.slug) ?? []).slice(0, 3);
      expect(words.length, `${story.file} has a word only its body carries`).toBeGreaterThan(0);
      for (const word of words) {
        const page = (await (await server.fetch(`/v1/stories?q=${encodeURIComponent(word)}&limit=50`)).json()) as {
          stories: Array<{ slug: string }>;
        };
        expect(
          page.stories.map((found) => found.slug),
          `${story.file}: "${word}"`,
        ).toContain(story.slug);
      }
    }
  });
});
