// One canonical text per story, so that the same story typed on Windows, pasted from a Mac
// editor or assembled from JSON parts hashes, fingerprints and stores identically.
//
// What is normalised (and why it is safe):
// - a leading byte-order mark is dropped, CRLF and lone CR become LF;
// - Unicode NFC, so "Ü" typed as one code point or as U+0055 U+0308 is the same text;
// - trailing spaces and tabs are stripped from every line. Markdown's "two trailing spaces"
//   hard line break is therefore not kept (a trailing backslash still works); editors and
//   agents strip trailing whitespace unpredictably, and a story must not change hash for it;
// - blank lines at the start are dropped, and the text ends with exactly one newline.
// Nothing else changes: blank lines inside the text, indentation and tabs are kept, because
// they carry meaning in lists and code blocks.

export function normalizeMarkdown(text: string): string {
  const lines = text
    .replace(/^\uFEFF/, '')
    .replace(/\r\n?/g, '\n')
    .normalize('NFC')
    .split('\n')
    .map((line) => line.replace(/[ \t]+$/, ''));
  let start = 0;
  while (start < lines.length && lines[start] === '') start++;
  let end = lines.length;
  while (end > start && lines[end - 1] === '') end--;
  if (end === start) return '';
  return `${lines.slice(start, end).join('\n')}\n`;
}
