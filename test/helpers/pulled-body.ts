// A request body that hands out one chunk a pull, only as the reader asks for it (no read ahead),
// and counts the pulls: what a server read of a body, and when.
export function pulledBody(chunks: readonly Uint8Array[]): { body: ReadableStream<Uint8Array>; pulls: () => number } {
  let pulls = 0;
  let sent = 0;
  const body = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        pulls += 1;
        const chunk = chunks[sent];
        if (chunk === undefined) return controller.close();
        sent += 1;
        controller.enqueue(chunk);
      },
    },
    { highWaterMark: 0 },
  );
  return { body, pulls: () => pulls };
}

/** `bytes` in slices of `size`. */
export function slicesOf(bytes: Uint8Array, size: number): Uint8Array[] {
  return Array.from({ length: Math.ceil(bytes.byteLength / size) }, (_, n) => bytes.subarray(n * size, (n + 1) * size));
}
