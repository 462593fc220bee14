// An upload's bytes as they arrived, with their sha256: the bytes are joined into one buffer only
// when a re-encode needs them. An upload of bytes whose re-encode is already under way (the same
// image sent again at once) shares it and never joins its own: on the thread serving requests that
// join cost ~4 ms of a 4 MB upload's ~18, in fresh memory (BENCHMARKS.md §11).
import { createHash } from 'node:crypto';

export interface ReceivedImage {
  byteLength: number;
  /** The sha256 of the bytes, hex. */
  sha256: string;
  /** The bytes in one buffer (joined on the first call). */
  bytes(): Uint8Array;
}

/** Bytes already in one buffer (MCP's decoded `data`, a test's picture). */
export function receivedWhole(bytes: Uint8Array): ReceivedImage {
  return { byteLength: bytes.byteLength, sha256: createHash('sha256').update(bytes).digest('hex'), bytes: () => bytes };
}

/**
 * Bytes read in chunks, hashed as they came (`sha256`). Once joined, the chunks are let go: the
 * image is held once, not twice, while it re-encodes.
 */
export function receivedInChunks(chunks: readonly Uint8Array[], sha256: string): ReceivedImage {
  let parts: readonly Uint8Array[] = chunks;
  let joined: Uint8Array | undefined;
  return {
    byteLength: chunks.reduce((sum, chunk) => sum + chunk.byteLength, 0),
    sha256,
    bytes: () => {
      if (joined === undefined) {
        joined = Buffer.concat(parts);
        parts = [];
      }
      return joined;
    },
  };
}
