// An upload's bytes as they arrived, with their sha256: the bytes are joined into one buffer only
// when a re-encode needs them. An upload of bytes whose re-encode is already under way (the same
// image sent again at once) shares it and never joins its own: on the thread serving requests that
// join cost ~4 ms of a 4 MB upload's ~18, in fresh memory (BENCHMARKS.md §11). Both surfaces hash
// here, so an op_id names the same bytes over HTTP (read in chunks) and over MCP (decoded whole).
import { createHash } from 'node:crypto';

export interface ReceivedImage {
  byteLength: number;
  /** The sha256 of the bytes, hex. */
  sha256: string;
  /** The bytes in one buffer (joined on the first call). */
  bytes(): Uint8Array;
}

export interface ImageReceiver {
  /** One chunk as it is read: hashed now, kept for a join. */
  take(chunk: Uint8Array): void;
  /** The image once every chunk was taken. */
  received(): ReceivedImage;
}

/**
 * Takes an upload's chunks as they are read, hashing each as it comes (no pass of its own over the
 * whole). Once joined, the chunks are let go: the image is held once, not twice, while it re-encodes.
 */
export function imageReceiver(): ImageReceiver {
  const hash = createHash('sha256');
  let parts: Uint8Array[] = [];
  let byteLength = 0;
  return {
    take(chunk) {
      hash.update(chunk);
      parts.push(chunk);
      byteLength += chunk.byteLength;
    },
    received() {
      let joined: Uint8Array | undefined;
      return {
        byteLength,
        sha256: hash.digest('hex'),
        bytes: () => {
          if (joined === undefined) {
            joined = Buffer.concat(parts);
            parts = [];
          }
          return joined;
        },
      };
    },
  };
}

/** Bytes already in one buffer (MCP's decoded `data`, a test's picture). */
export function receivedWhole(bytes: Uint8Array): ReceivedImage {
  const receiver = imageReceiver();
  receiver.take(bytes);
  return { ...receiver.received(), bytes: () => bytes };
}
