// The rules that read a document's passages rather than its commands: text addressed to the
// reading agent (anywhere a reading agent looks), and prose steps that install a skill, an MCP
// server or change an agent's instruction files (in steps only).
import type { Root } from 'mdast';
import { agentConfigProseHits } from './agent-config-rules.ts';
import { directiveMatches } from './directive-rules.ts';
import { type FindingSource, type Hit, hit } from './finding.ts';
import { lineFinder } from './line-finder.ts';
import { type Passage, readPassages } from './passages.ts';

export interface PassageHit {
  hit: Hit;
  /** The source line the match starts on: it shows where the text hides (`<!--`, a link's title). */
  evidence: string;
  /** 1-based line of the markdown read. */
  line: number;
  via: FindingSource;
}

const HIDDEN_DIRECTIVE = hit('obfuscation', 'hidden-directive');

/** Each sentence's start offset: a `.`, `!` or `?` before whitespace, a blank line or a table's `|` ends one. */
function sentenceStarts(text: string): number[] {
  const starts = [0];
  for (let at = 0; at < text.length; at++) {
    const char = text[at];
    const next = text[at + 1];
    const ends =
      ('.!?'.includes(char ?? '') && (next === undefined || /\s/.test(next))) || (char === '\n' && next === '\n') || char === '|';
    if (ends && at + 1 < text.length) starts.push(at + 1);
  }
  return starts;
}

function directiveHits(passage: Passage, place: (offset: number) => { line: number; evidence: string }): PassageHit[] {
  if (passage.example && passage.channel === 'prose') return [];
  const via: FindingSource = passage.channel === 'code' ? 'code' : 'prose';
  return directiveMatches(passage.text).flatMap(({ hits, index }) => {
    const { line, evidence } = place(index);
    const all = passage.channel === 'hidden' ? [...hits, HIDDEN_DIRECTIVE] : hits;
    return all.map((found) => ({ hit: found, evidence, line, via }));
  });
}

function agentConfigHits(passage: Passage, place: (offset: number) => { line: number; evidence: string }): PassageHit[] {
  if (passage.channel !== 'prose') return [];
  const starts = sentenceStarts(passage.withCode);
  return starts.flatMap((start, index) => {
    const sentence = passage.withCode.slice(start, starts[index + 1]);
    const first = start + (sentence.length - sentence.trimStart().length);
    return agentConfigProseHits(sentence.replace(/\s+/g, ' ')).map((found) => ({ hit: found, ...place(first), via: 'prose' as const }));
  });
}

/**
 * What the passage rules find in a document. `steps`: the document is steps a reader's agent runs
 * (a story's check and reproduce sections, or any text given to check_capability), so prose that
 * installs agent configuration counts too; the rest of a story is only read for directives.
 */
export function passageHits(tree: Root, markdown: string, steps: boolean): PassageHit[] {
  const sourceLines = markdown.split('\n');
  return readPassages(tree, markdown).flatMap((passage) => {
    const lineAt = lineFinder(passage.text);
    const place = (offset: number): { line: number; evidence: string } => {
      const line = passage.line + lineAt(offset) - 1;
      return { line, evidence: sourceLines[line - 1] ?? passage.text };
    };
    return [...directiveHits(passage, place), ...(steps ? agentConfigHits(passage, place) : [])];
  });
}
