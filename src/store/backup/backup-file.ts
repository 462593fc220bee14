// A backup file on disk: written through gzip when its name ends in `.gz`, and read back the
// same way, a line at a time from a stream that is pulled, never buffered whole.
import { createReadStream, createWriteStream } from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip, createGzip } from 'node:zlib';

const gzipped = (file: string): boolean => file.endsWith('.gz');

/** Longer than any line an export writes: an item is at most 400 KB, an image's base64 under 8 MiB. */
export const MAX_LINE_CHARS = 16 * 1024 * 1024;

/** Writes the lines to a new file (an existing one is never overwritten) as they come, waiting whenever the disk is behind. */
export async function writeBackupFile(file: string, lines: AsyncIterable<string>): Promise<void> {
  const source = Readable.from(lines);
  const out = createWriteStream(file, { flags: 'wx' });
  await (gzipped(file) ? pipeline(source, createGzip(), out) : pipeline(source, out));
}

/** The file's lines, without their newline. */
export async function* readBackupFile(file: string): AsyncGenerator<string> {
  const raw = createReadStream(file);
  const stream = gzipped(file) ? raw.pipe(createGunzip()) : raw;
  if (stream !== raw) raw.once('error', (error) => stream.destroy(error));
  stream.setEncoding('utf8');
  // The pieces of the line being read: a long line (an image) arrives in many chunks.
  let pieces: string[] = [];
  let length = 0;
  for await (const chunk of stream as AsyncIterable<string>) {
    let start = 0;
    for (let end = chunk.indexOf('\n'); end !== -1; end = chunk.indexOf('\n', start)) {
      pieces.push(chunk.slice(start, end));
      const line = pieces.join('');
      pieces = [];
      length = 0;
      if (line !== '') yield line;
      start = end + 1;
    }
    if (start < chunk.length) {
      pieces.push(chunk.slice(start));
      length += chunk.length - start;
      if (length > MAX_LINE_CHARS) throw new Error(`a line longer than ${MAX_LINE_CHARS} characters: not a lorebook backup`);
    }
  }
  const last = pieces.join('');
  if (last !== '') yield last;
}
