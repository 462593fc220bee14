import { createHash } from 'node:crypto';
import { normalizeMarkdown } from './normalize-markdown.ts';

/**
 * sha256 (hex) of the normalised markdown. parseStory applies it to the canonical serialisation,
 * so publishing the same story twice — as CRLF or LF, NFD or NFC, as markdown or as parts, with
 * other YAML quoting or blank lines — yields the same hash, which is what lets a repeated publish
 * or edit recognise "nothing changed" and write nothing.
 */
export function contentHash(markdown: string): string {
  return createHash('sha256').update(normalizeMarkdown(markdown), 'utf8').digest('hex');
}
