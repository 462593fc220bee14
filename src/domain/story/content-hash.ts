import { createHash } from 'node:crypto';
import { normalizeMarkdown } from './normalize-markdown.ts';

/**
 * sha256 (hex) of the normalised markdown. Publishing the same story twice — as CRLF or LF,
 * NFD or NFC, as markdown or as parts — yields the same hash, which is what lets a repeated
 * publish or edit recognise "nothing changed" and write nothing.
 */
export function contentHash(markdown: string): string {
  return createHash('sha256').update(normalizeMarkdown(markdown), 'utf8').digest('hex');
}
