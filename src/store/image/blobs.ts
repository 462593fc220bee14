// The image store's port (docs/design.md#images): blobs named by content hash, written once and read
// back, and deleted by a redaction (design.md#redaction-export). `npm start` keeps them in a directory (blobs-dir.ts), the cloud in
// S3 (blobs-s3.ts). A name is always `<sha256>.<ext>` (src/domain/image/image-name.ts),
// checked before it reaches an adapter.

export interface ImageBlobs {
  /** For log lines: where the blobs live. */
  readonly describe: string;
  /**
   * Stores the bytes under their content-hash name. Idempotent: the same name always carries the
   * same bytes, so a second put (a retry, a parallel delivery) changes nothing.
   */
  put(file: string, data: Uint8Array, contentType: string): Promise<void>;
  /** The bytes stored under the name, or undefined when there are none. */
  get(file: string): Promise<Uint8Array | undefined>;
  /** Removes the bytes under the name; removing a name that holds none is fine (a retry, a parallel run). */
  delete(file: string): Promise<void>;
}
