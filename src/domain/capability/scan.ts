// The capability scanner (docs/capability.md): what a story's check and reproduce steps, or any
// text, would do to the machine that runs them. Pure: text in, report out, same text and scanner
// version → the same report, byte for byte.
import { validationFailed } from '../errors.ts';
import { markdownCostFaults } from '../story/markdown-cost.ts';
import { markdownTree, withSharedMarkdownTrees } from '../story/markdown-tree.ts';
import { normalizeMarkdown } from '../story/normalize-markdown.ts';
import { parseStory } from '../story/parse-story.ts';
import { utf8Bytes } from '../story/story-limits.ts';
import type { ParsedStory } from '../story/story-types.ts';
import { type BlockReader, looksLikeCommands, readerFor, transcriptCommands } from './code-languages.ts';
import { type CapabilityFinding, type FindingSource, finding, type Hit, type ScannedSection } from './finding.ts';
import { lineFinder } from './line-finder.ts';
import { type Piece, readPieces } from './markdown-pieces.ts';
import { passageHits } from './passage-hits.ts';
import { proseHits } from './prose-rules.ts';
import { buildReport, type CapabilityReport } from './report.ts';
import { MAX_SCAN_TEXT_BYTES, MAX_SCANNED_PIECES } from './scan-limits.ts';
import { readStorySource, type SectionSource } from './scanned-text.ts';
import { type ScriptLanguage, scriptLineHits } from './script-rules.ts';
import { readShell } from './shell-read.ts';
import { type BlockState, commandHits, pipelineHits } from './shell-rules.ts';
import { sqlHits } from './sql-rules.ts';

export type { CapabilityFinding } from './finding.ts';
export type { CapabilityReport } from './report.ts';

/** A hit placed in its block: `line` is 1-based within the block's text. */
interface PlacedHit {
  hit: Hit;
  evidence: string;
  line: number;
  via: FindingSource;
}

// Characters that hide text from a reader (bidirectional overrides, zero-width joiners and
// spaces) have no business in code that is run; a long base64 run is a payload no one can review.
const HIDDEN_CHARACTERS = /[\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF]/;
const ENCODED_BLOB = /[A-Za-z0-9+/]{200,}={0,2}/;

function shellHits(source: string, state: BlockState): PlacedHit[] {
  const reading = readShell(source);
  const lineAt = lineFinder(source);
  const placed: PlacedHit[] = [];
  const via = (tokenScanned: boolean): FindingSource => (tokenScanned ? 'shell-token-scan' : 'shell');
  for (const command of reading.commands) {
    for (const hit of commandHits(command, state))
      placed.push({ hit, evidence: command.text, line: lineAt(command.offset), via: via(command.tokenScanned) });
  }
  for (const members of reading.pipelines) {
    const first = members[0];
    if (first === undefined) continue;
    const evidence = members.map((member) => member.text).join(' | ');
    for (const hit of pipelineHits(members)) placed.push({ hit, evidence, line: lineAt(first.offset), via: via(first.tokenScanned) });
  }
  return placed;
}

function scriptHits(language: ScriptLanguage, source: string, state: BlockState): PlacedHit[] {
  return source.split('\n').flatMap((text, index) => {
    const { hits, shellStrings } = scriptLineHits(language, text);
    const own = hits.map((hit) => ({ hit, evidence: text, line: index + 1, via: language }));
    const inner = shellStrings.flatMap((string) =>
      shellHits(string, state).map((placed) => ({ ...placed, evidence: text, line: index + 1, via: language })),
    );
    return [...own, ...inner];
  });
}

/** Each statement (up to its `;`) of an SQL block, found on the line where it starts. */
function sqlBlockHits(source: string): PlacedHit[] {
  const lineAt = lineFinder(source);
  const placed: PlacedHit[] = [];
  let offset = 0;
  for (const part of source.split(';')) {
    const start = offset + (part.length - part.trimStart().length);
    offset += part.length + 1;
    for (const hit of sqlHits(`${part};`)) placed.push({ hit, evidence: part, line: lineAt(start), via: 'sql' });
  }
  return placed;
}

function blockHits(reader: BlockReader, value: string, state: BlockState): PlacedHit[] {
  const hidden: PlacedHit[] = [];
  value.split('\n').forEach((text, index) => {
    if (HIDDEN_CHARACTERS.test(text))
      hidden.push({ hit: { category: 'obfuscation', rule: 'hidden-characters' }, evidence: text, line: index + 1, via: 'code' });
    if (ENCODED_BLOB.test(text))
      hidden.push({ hit: { category: 'obfuscation', rule: 'long-encoded-blob' }, evidence: text, line: index + 1, via: 'code' });
  });
  switch (reader) {
    case 'shell':
    case 'console':
      return [...hidden, ...shellHits(transcriptCommands(value, reader), state)];
    case 'sql':
      return [...hidden, ...sqlBlockHits(value)];
    case 'python':
    case 'javascript':
    case 'powershell':
      return [...hidden, ...scriptHits(reader, value, state)];
    case 'none':
      return hidden;
  }
}

/** An inline span is a command when it reads as one: a known command and at least one operand, or `./x`. */
function inlineIsCommand(value: string): boolean {
  const words = value
    .replace(/^\s*\$ /, '')
    .trim()
    .split(/\s+/);
  return looksLikeCommands(value) && (words.length >= 2 || (words[0] ?? '').startsWith('./'));
}

function pieceHits(piece: Piece, state: BlockState): PlacedHit[] {
  const at = (placed: PlacedHit): PlacedHit => ({ ...placed, line: piece.line + placed.line - 1 });
  if (piece.kind === 'code') return blockHits(readerFor(piece.lang, piece.value), piece.value, state).map(at);
  if (piece.kind === 'inline' && inlineIsCommand(piece.value))
    return shellHits(piece.value.replace(/^\s*\$ /, ''), state).map((placed) => ({ ...placed, line: piece.line }));
  return proseHits(piece.value).map((hit) => ({ hit, evidence: piece.value, line: piece.line, via: 'prose' }));
}

/**
 * Files written or downloaded by one block are known to the blocks after it, through the whole
 * scanned text: a download run two blocks later is still remote code, and a file the steps wrote
 * and then post is not the reader's.
 */
function newBlockState(): BlockState {
  return { downloaded: new Set(), written: new Set() };
}

/** The findings of one section's markdown, with lines counted from `firstLine`. */
function scanSection(markdown: string, section: ScannedSection, firstLine: number, state: BlockState): CapabilityFinding[] {
  const tree = markdownTree(markdown);
  const pieces = readPieces(markdown, tree);
  const code = pieces.filter((piece) => piece.kind !== 'prose').length;
  if (code > MAX_SCANNED_PIECES) {
    throw validationFailed(`The text has ${code} code blocks and inline code spans; the scanner reads at most ${MAX_SCANNED_PIECES}.`, {
      text: `Scan at most ${MAX_SCANNED_PIECES} code blocks and inline code spans at a time: split the text.`,
    });
  }
  return [...pieces.flatMap((piece) => pieceHits(piece, state)), ...passageHits(tree, markdown, true)].map(({ hit, evidence, line, via }) =>
    finding(hit, evidence, firstLine + line - 1, section, via),
  );
}

/**
 * The story outside its steps (front matter, narrative, What I tried, …), the steps' lines
 * blanked so lines stay the story's: a reading agent reads all of it, so text addressed to it
 * is looked for there too (section `story`). Only the directive rules read it: it is not run.
 */
function scanRestOfStory(markdown: string, sections: readonly SectionSource[]): CapabilityFinding[] {
  const lines = markdown.split('\n');
  for (const { firstLine, markdown: steps } of sections) {
    const count = steps.split('\n').length;
    for (let index = firstLine - 1; index < firstLine - 1 + count && index < lines.length; index++) lines[index] = '';
  }
  const rest = lines.join('\n');
  return passageHits(markdownTree(rest), rest, false).map(({ hit, evidence, line, via }) => finding(hit, evidence, line, 'story', via));
}

/**
 * Scans a story's `## Check if this applies to you` and `## Reproduce this` sections. The story
 * is validated as publish validates it (its refusals are publish's); lines are lines of the story
 * as stored (normalised, see normalizeMarkdown).
 */
export function scanStory(markdown: string): CapabilityReport {
  return withSharedMarkdownTrees(() => scanParsedStory(parseStory(markdown)));
}

/** The same for a story already parsed (publish and edit have one): nothing is parsed twice. */
export function scanParsedStory(story: ParsedStory): CapabilityReport {
  const source = readStorySource(story);
  const state = newBlockState();
  return buildReport(source.text, [
    ...source.sections.flatMap(({ section, markdown: text, firstLine }) => scanSection(text, section, firstLine, state)),
    ...scanRestOfStory(story.markdown, source.sections),
  ]);
}

/**
 * Scans any text (a skill, a contract, the steps an agent ran) as one markdown section. The text
 * is normalised first (line endings, NFC, trailing spaces: normalizeMarkdown), and the report's
 * sha256 is of the normalised text; lines are its lines.
 */
export function scanText(text: string): CapabilityReport {
  const bytes = utf8Bytes(text);
  if (bytes > MAX_SCAN_TEXT_BYTES) {
    throw validationFailed(`The text is ${bytes} bytes; the scanner reads at most ${MAX_SCAN_TEXT_BYTES} bytes (256 KiB) of UTF-8.`, {
      text: `Send at most ${MAX_SCAN_TEXT_BYTES} bytes: scan the steps that run, or split the text.`,
    });
  }
  const normalized = normalizeMarkdown(text);
  // The parser's cost limits apply as to a story; the rendered size does not: nothing is rendered.
  const faults = markdownCostFaults(normalized).filter((fault) => fault.limit !== 'renderedBytes');
  if (faults.length > 0) {
    throw validationFailed(`The text is too costly to read as markdown: ${faults.map((fault) => fault.fix).join(' ')}`, {
      text: faults.map((fault) => fault.fix).join(' '),
    });
  }
  return buildReport(normalized, scanSection(normalized, 'text', 1, newBlockState()));
}
