import { payloadTooLarge } from '../errors.ts';

/** Largest story markdown accepted, in UTF-8 bytes (64 KiB). */
export const MAX_STORY_MARKDOWN_BYTES = 64 * 1024;
/** Longest title accepted, in Unicode code points (so an emoji counts once). */
export const MAX_TITLE_CHARS = 140;

export function utf8Bytes(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

export function titleLength(title: string): number {
  return [...title.normalize('NFC')].length;
}

/** Refuses oversized markdown before any parsing work is spent on it. */
export function assertMarkdownWithinLimit(markdown: string): void {
  const bytes = utf8Bytes(markdown);
  if (bytes > MAX_STORY_MARKDOWN_BYTES) {
    throw payloadTooLarge(
      `The story is ${bytes} bytes; the limit is ${MAX_STORY_MARKDOWN_BYTES} bytes (64 KiB) of UTF-8 markdown. Shorten the narrative or sections and publish again.`,
      { field: 'markdown', bytes, limit: MAX_STORY_MARKDOWN_BYTES },
    );
  }
}

/** Refuses an over-long title (trimmed, as it would be stored). */
export function assertTitleWithinLimit(title: string): void {
  const chars = titleLength(title.trim());
  if (chars > MAX_TITLE_CHARS) {
    throw payloadTooLarge(
      `The title is ${chars} characters; the limit is ${MAX_TITLE_CHARS}. Shorten the title (front matter \`title\` and the \`# \` heading) and publish again.`,
      { field: 'title', chars, limit: MAX_TITLE_CHARS },
    );
  }
}
