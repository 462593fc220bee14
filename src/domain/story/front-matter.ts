import { parseDocument } from 'yaml';

export interface FrontMatterSplit {
  /** The YAML between the `---` fences, or undefined when the story has no front matter. */
  yaml: string | undefined;
  /** Everything after the closing fence (or the whole text when there is no front matter). */
  body: string;
  /** Set when the front matter is missing or not closed: how to fix it. */
  problem?: string;
}

const FENCE = /^---$/;
const CLOSING_FENCE = /^(?:---|\.\.\.)$/;

/** Splits normalised markdown into its front matter YAML and its body. */
export function splitFrontMatter(markdown: string): FrontMatterSplit {
  const lines = markdown.split('\n');
  if (lines[0] === undefined || !FENCE.test(lines[0])) {
    return {
      yaml: undefined,
      body: markdown,
      problem:
        'The story has no front matter. Start it with a line `---`, then `title:`, `date:`, `tags:`, `type:` (one per line), then a closing `---` line.',
    };
  }
  const close = lines.findIndex((line, index) => index > 0 && CLOSING_FENCE.test(line));
  if (close === -1) {
    return {
      yaml: lines.slice(1).join('\n'),
      body: '',
      problem: 'The front matter is not closed. Add a line `---` after the last front matter key.',
    };
  }
  return { yaml: lines.slice(1, close).join('\n'), body: lines.slice(close + 1).join('\n') };
}

export type FrontMatterRead = { ok: true; data: unknown } | { ok: false; problem: string };

/**
 * Reads front matter YAML. Scalars stay text except `true`/`false` and null: with YAML's core
 * schema `stack: [python, 3.10]` would silently become 3.1 and `title: 404` a number, so the
 * failsafe schema plus only the bool and null tags is used, and the schema decides the types.
 */
export function readFrontMatterYaml(yaml: string): FrontMatterRead {
  const document = parseDocument(yaml, { schema: 'failsafe', customTags: ['null', 'bool'] });
  const error = document.errors[0];
  if (error !== undefined) {
    const where = error.linePos?.[0];
    const at = where === undefined ? '' : ` (front matter line ${where.line}, column ${where.col})`;
    return {
      ok: false,
      problem: `The front matter is not valid YAML${at}: ${(error.message.split('\n')[0] ?? '').replace(/ at line \d+, column \d+:?$/, '')}. Write one \`key: value\` per line and lists as \`[a, b]\`.`,
    };
  }
  return { ok: true, data: document.toJS() ?? {} };
}
