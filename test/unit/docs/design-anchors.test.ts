// References to docs/design.md cannot drift: every file of the repository that names a section of
// the design names it by an anchor design.md has (`design.md#write-rules`), never by a section
// number (the "design", "§" and number form, or an old numbered heading's slug), so sections can
// move without a comment pointing at the wrong one (docs/design.md says how sections are named).
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { describe, expect, it } from 'vitest';

const REPO = new URL('../../../', import.meta.url).pathname;
const DESIGN = 'docs/design.md';

/** A named reference: `design.md#<anchor>`, with or without a path before it. */
const NAMED = /(?<![\w-])design\.md#([\w-]+)/g;
/** The numbered form: design §N, design.md §N, docs/design.md §N.M, the § after a comment's line wrap too. */
const NUMBERED = /(?<![\w/.-])(?:docs\/)?design(?:\.md)?(?:[ \t]*\r?\n[ \t]*(?:\/\/|\*|#|>)?)?[ \t]*§[ \t]*\d+(?:\.\d+)?/g;
/** A markdown link to design.md: its path, to check it leads to docs/design.md from where it is written. */
const LINK_PATH = /\]\(([^()\s#]*design\.md)#/g;
/** Inside design.md: a link to one of its own anchors, and a bare §N that is not another document's. */
const INTERNAL_LINK = /\]\(#([\w-]+)\)/g;
const INTERNAL_NUMBER = /(?<!(?:RFC \d+|BENCHMARKS\.md\)?|OAuth 2\.1|XML 1\.0)[ \t]?)§[ \t]*\d+(?:\.\d+)?/g;

/** The anchors design.md defines, one `<a id="…"></a>` line above each heading. */
function anchorsOf(design: string): string[] {
  return [...design.matchAll(/^<a id="([\w-]+)"><\/a>$/gm)].map((match) => match[1] as string);
}

function lineOf(text: string, index: number): number {
  return text.slice(0, index).split('\n').length;
}

/** Each reference in one file that does not hold, as `file:line: what`. */
function problems(file: string, text: string, anchors: ReadonlySet<string>): string[] {
  const found: string[] = [];
  for (const match of text.matchAll(NAMED)) {
    if (!anchors.has(match[1] as string)) found.push(`${file}:${lineOf(text, match.index)}: ${match[0]} names no anchor of ${DESIGN}`);
  }
  for (const match of text.matchAll(NUMBERED)) {
    found.push(`${file}:${lineOf(text, match.index)}: "${match[0].replace(/\s+/g, ' ')}" cites the design by number`);
  }
  for (const match of text.matchAll(LINK_PATH)) {
    if (normalize(join(dirname(file), match[1] as string)) !== DESIGN) {
      found.push(`${file}:${lineOf(text, match.index)}: the link ${match[1]} does not lead to ${DESIGN}`);
    }
  }
  if (file === DESIGN) {
    for (const match of text.matchAll(INTERNAL_LINK)) {
      if (!anchors.has(match[1] as string)) found.push(`${file}:${lineOf(text, match.index)}: #${match[1]} names no anchor`);
    }
    for (const match of text.matchAll(INTERNAL_NUMBER)) {
      found.push(`${file}:${lineOf(text, match.index)}: "${match[0]}" cites a section by number`);
    }
  }
  return found;
}

/** Every text file git lists in the worktree: tracked, and new ones not ignored. */
function repositoryFiles(): { file: string; text: string }[] {
  const listed = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: REPO,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  return [...new Set(listed.split('\0').filter(Boolean))].flatMap((file) => {
    let text: string;
    try {
      text = readFileSync(join(REPO, file), 'utf8');
    } catch {
      return []; // deleted in the worktree and not yet committed
    }
    return text.includes('\0') ? [] : [{ file, text }];
  });
}

const design = readFileSync(join(REPO, DESIGN), 'utf8');
const anchors = anchorsOf(design);

describe('references to docs/design.md', () => {
  it('every anchor is defined once, and every section heading has one right above it', () => {
    expect(anchors.filter((anchor, index) => anchors.indexOf(anchor) !== index)).toEqual([]);
    const lines = design.replace(/^```[\s\S]*?^```/gm, '').split('\n');
    const unanchored = lines.filter((line, index) => /^#{2,4} /.test(line) && !/^<a id="[\w-]+"><\/a>$/.test(lines[index - 2] ?? ''));
    expect(unanchored).toEqual([]);
  });

  it('every file names only anchors design.md has, by a path that leads to it, and none cites a section by number', () => {
    const set = new Set(anchors);
    const files = repositoryFiles();
    expect(files.some(({ file }) => file === DESIGN)).toBe(true);
    expect(files.flatMap(({ file, text }) => problems(file, text, set))).toEqual([]);
  });

  it('a broken reference is found: a missing anchor, a number, an old heading slug, a wrong path (the check is not vacuous)', () => {
    const set = new Set(anchors);
    expect(set.has('write-rules')).toBe(true);
    // Written in pieces, so that neither this check nor the rewrite script reads them as references.
    const [name, section] = ['design' + '.md', '§'];
    const text = [
      `// see ${name}#no-such-section`,
      `// see design ${section}27`,
      `// see (docs/${name}\n// ${section}4.2)`,
      `[layering](${name}#11-enforced-layering-and-formatting)`,
      `[rules](../../docs/${name}#write-rules)`,
      `// ${name}#write-rules holds`,
    ].join('\n');
    expect(problems('src/app/example.ts', text, set)).toEqual([
      `src/app/example.ts:1: ${name}#no-such-section names no anchor of docs/design.md`,
      `src/app/example.ts:5: ${name}#11-enforced-layering-and-formatting names no anchor of docs/design.md`,
      `src/app/example.ts:2: "design ${section}27" cites the design by number`,
      `src/app/example.ts:3: "docs/${name} // ${section}4.2" cites the design by number`,
      `src/app/example.ts:5: the link ${name} does not lead to docs/design.md`,
    ]);
    expect(problems(DESIGN, `see [gone](#gone) and ${section}15, not RFC 6749 ${section}5.2`, set)).toEqual([
      'docs/design.md:1: #gone names no anchor',
      `docs/design.md:1: "${section}15" cites a section by number`,
    ]);
  });
});
