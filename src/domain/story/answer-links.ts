// Which fail stories a success story answers (docs/design.md#answered-fail): the lorebook stories its
// narrative names, as a bare slug, a `/s/{slug}` path or an absolute URL on lorebook's own base
// URL. Code spans and fenced code blocks are quoted text, not a claim, so they never count, nor
// does another site's `/s/…` URL or the story's own slug. At most MAX_ANSWER_LINKS distinct slugs,
// in narrative order, so one story cannot fan out to every fail story in a transaction.
import { isValidSlug } from './slug.ts';

export const MAX_ANSWER_LINKS = 5;

const SLUG = String.raw`\d{4}-\d{2}-\d{2}-[a-z0-9]+(?:-[a-z0-9]+)*(?![a-z0-9])`;
// An absolute URL's origin, then `/s/slug`; or a path or bare slug not glued to another word,
// host or path (so `other.example/s/…` and `/docs/s/…` are not lorebook paths).
const NAMED = new RegExp(String.raw`(https?://[A-Za-z0-9.:\[\]-]+)/s/(${SLUG})|(?<![\w.:/-])/s/(${SLUG})|(?<![\w.:/-])(${SLUG})`, 'gi');

/** The slugs the narrative names, in order, without `self`, at most MAX_ANSWER_LINKS. */
export function namedStorySlugs(narrative: string, baseUrl: string, self: string): string[] {
  const origin = new URL(baseUrl).origin;
  const slugs: string[] = [];
  for (const match of withoutCode(narrative).matchAll(NAMED)) {
    const [, host, absolute, relative, bare] = match;
    if (host !== undefined && originOf(host) !== origin) continue;
    const slug = absolute ?? relative ?? bare;
    if (slug === undefined || slug === self || !isValidSlug(slug) || slugs.includes(slug)) continue;
    slugs.push(slug);
    if (slugs.length === MAX_ANSWER_LINKS) break;
  }
  return slugs;
}

function originOf(host: string): string | undefined {
  try {
    return new URL(host).origin;
  } catch {
    return undefined;
  }
}

/** The text with fenced code blocks and code spans blanked out (lengths kept, in linear time). */
export function withoutCode(markdown: string): string {
  return withoutCodeSpans(withoutFences(markdown));
}

const FENCE = /^ {0,3}(`{3,}|~{3,})/;

function withoutFences(markdown: string): string {
  let open: string | undefined;
  return markdown
    .split('\n')
    .map((line) => {
      const fence = FENCE.exec(line)?.[1];
      if (open === undefined) {
        if (fence === undefined) return line;
        open = fence;
        return '';
      }
      // A fence closes with the same character, at least as long, and nothing after it.
      if (fence !== undefined && fence[0] === open[0] && fence.length >= open.length && line.trim() === fence) open = undefined;
      return '';
    })
    .join('\n');
}

/**
 * A code span runs from a backtick run to the next run of the same length (CommonMark). Each run
 * is matched against the next unused run of its length, found through a per-length queue, so a
 * text full of unmatched backticks costs one pass rather than a search per backtick.
 */
function withoutCodeSpans(text: string): string {
  const runs = [...text.matchAll(/`+/g)].map((match) => ({ start: match.index, length: match[0].length }));
  const byLength = new Map<number, { runs: number[]; next: number }>();
  runs.forEach((run, index) => {
    const queue = byLength.get(run.length) ?? { runs: [], next: 0 };
    queue.runs.push(index);
    byLength.set(run.length, queue);
  });
  let out = '';
  let copied = 0;
  let index = 0;
  while (index < runs.length) {
    const run = runs[index]!;
    const queue = byLength.get(run.length)!;
    while (queue.next < queue.runs.length && queue.runs[queue.next]! <= index) queue.next += 1;
    const closer = queue.runs[queue.next];
    if (closer === undefined) {
      index += 1;
      continue;
    }
    const end = runs[closer]!.start + run.length;
    out += text.slice(copied, run.start) + ' '.repeat(end - run.start);
    copied = end;
    index = closer + 1;
  }
  return out + text.slice(copied);
}
