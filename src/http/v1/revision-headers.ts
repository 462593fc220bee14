// worklore's revision headers on an edit: X-Revision-Kind, X-Revision-Note and X-Revision-Source
// are the edit's kind, note and source. A header and the same field in the query or body must
// agree, as Idempotency-Key and op_id do: a disagreement is refused rather than one silently winning.
import type { Context } from 'hono';
import { validationFailed } from '../../domain/errors.ts';
import type { HttpEnv } from '../http-env.ts';

const REVISION_HEADERS = { 'X-Revision-Kind': 'kind', 'X-Revision-Note': 'note', 'X-Revision-Source': 'source' } as const;

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * A header value as the text the caller meant. Node hands header bytes over one character per
 * byte, so a note typed with accents arrives as its UTF-8 bytes and is decoded here. A value that
 * is not UTF-8 bytes is kept as it came: a runtime that already decoded its headers (Lambda's
 * event) passes text, and decoding that again would refuse a correct note.
 */
function headerText(raw: string): string {
  // Plain ASCII needs no decoding; a character past one byte never came off the wire as bytes.
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the ranges are the byte ranges being tested
  if (!/[^\x00-\x7f]/.test(raw) || /[^\x00-\xff]/.test(raw)) return raw;
  try {
    return utf8.decode(Uint8Array.from(raw, (char) => char.charCodeAt(0)));
  } catch {
    return raw;
  }
}

export function withRevisionHeaders(c: Context<HttpEnv>, input: Record<string, unknown>): Record<string, unknown> {
  const merged = { ...input };
  for (const [header, field] of Object.entries(REVISION_HEADERS)) {
    const raw = c.req.header(header);
    if (raw === undefined) continue;
    const value = headerText(raw);
    if (merged[field] !== undefined && merged[field] !== value) {
      throw validationFailed(`The ${header} header and ${field} differ.`, {
        [header]: `Send the ${field} once: in the ${header} header, or as ${field}, not both with different values.`,
      });
    }
    merged[field] = value;
  }
  return merged;
}
