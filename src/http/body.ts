// Request bodies, read with a cap before anything is parsed: a story is at most 64 KiB of
// markdown, so 512 KiB covers any valid request with room for JSON escaping. A body larger than
// that (an image upload) is read past it only once its caller is admitted (holdBodyUntilAdmitted),
// one such call at a time per account (large-body-line.ts).
import { payloadTooLarge, validationFailed } from '../domain/errors.ts';

export const MAX_BODY_BYTES = 512 * 1024;

/**
 * The admission of each request still being decided (admission.ts): its token's standing and its
 * rate count; and for a signed-in caller its account's turn for a large body (large-body-line.ts).
 */
const admissions = new WeakMap<Request, BodyHold>();

interface BodyHold {
  admitted: Promise<void>;
  largeBodyTurn: (() => Promise<void>) | undefined;
}

/**
 * Ties the reading of this request's body to its admission (docs/design.md#admission): the first
 * MAX_BODY_BYTES are read beside it, anything past them only once it is granted, and a refusal
 * stops the read at once (the refusal is what the read throws). A stranger can so make the
 * server buffer at most MAX_BODY_BYTES, and a refused request not even that.
 */
export function holdBodyUntilAdmitted(request: Request, admitted: Promise<void>, largeBodyTurn?: () => Promise<void>): void {
  admitted.catch(() => undefined);
  admissions.set(request, { admitted, largeBodyTurn });
}

/** Admitted, and then the account's turn (a signed-in caller): what a read past MAX_BODY_BYTES waits for. */
async function admittedForLargeBody(hold: BodyHold | undefined): Promise<void> {
  if (hold === undefined) return;
  await hold.admitted;
  if (hold.largeBodyTurn !== undefined) await hold.largeBodyTurn();
}

export async function readBodyText(request: Request, limit = MAX_BODY_BYTES): Promise<string> {
  return Buffer.from(await readBodyBytes(request, limit, () => tooLarge(limit))).toString('utf8');
}

/**
 * The body's bytes, read chunk by chunk and refused (`overLimit`) the moment they pass `limit`,
 * so a body is never buffered beyond the cap whatever its Content-Length says.
 */
export async function readBodyBytes(request: Request, limit: number, overLimit: () => Error): Promise<Uint8Array> {
  return Buffer.concat(await readBodyChunks(request, limit, overLimit));
}

/** The same, as the chunks arrived; `onChunk` sees each as it comes (to hash a large body without a pass of its own). */
export async function readBodyChunks(
  request: Request,
  limit: number,
  overLimit: () => Error,
  onChunk: (chunk: Uint8Array) => void = () => {},
): Promise<Uint8Array[]> {
  const declared = Number(request.headers.get('content-length') ?? '0');
  if (declared > limit) throw overLimit();
  const hold = admissions.get(request);
  const admitted = hold?.admitted;
  // A body declared past what anyone may send waits for its admission (and its turn) before a byte is read.
  if (declared > MAX_BODY_BYTES) await admittedForLargeBody(hold);
  if (request.body === null) return [];
  // Rejects with the refusal the moment admission refuses; a grant leaves it pending, dropped with
  // this call. Not a promise shared by every call that never settles: each race's reaction on it
  // would keep that call's chunks alive for good (4 MB an image upload, BENCHMARKS.md §11).
  const refused = admitted === undefined ? undefined : new Promise<never>((_granted, reject) => void admitted.catch(reject));
  refused?.catch(() => undefined);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await (refused === undefined ? reader.read() : Promise.race([reader.read(), refused]));
      if (done) break;
      size += value.byteLength;
      if (size > limit) throw overLimit();
      // Past what anyone may send, only an admitted caller is read on, in its turn.
      if (size > MAX_BODY_BYTES && size - value.byteLength <= MAX_BODY_BYTES) await admittedForLargeBody(hold);
      chunks.push(value);
      onChunk(value);
    }
  } catch (error) {
    await reader.cancel().catch(() => undefined);
    throw error;
  }
  return chunks;
}

function tooLarge(limit: number) {
  return payloadTooLarge(`The request body is larger than ${limit / 1024} KiB. A story's markdown is at most 64 KiB.`, {
    limit_bytes: limit,
  });
}

/** The media type of a Content-Type header, lowercase, without parameters. */
export function mediaType(contentType: string | undefined): string {
  return (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
}

/**
 * Whether a body opens a JSON object. `curl -d '{…}'` without `-H 'Content-Type:
 * application/json'` (as worklore's skill writes its calls) labels JSON form-encoded, and no
 * form's first field name starts with a brace, so such a body is read as JSON.
 */
export function opensJsonObject(text: string): boolean {
  return text.trimStart().startsWith('{');
}

/** A JSON object body; anything else is validation_failed naming the body. */
export function parseJsonObject(text: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = text.trim() === '' ? {} : JSON.parse(text);
  } catch {
    throw badBody('The body is not valid JSON.');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw badBody('The body must be a JSON object.');
  return value as Record<string, unknown>;
}

export function badBody(
  message: string,
  fix = 'Send a JSON object (Content-Type: application/json) with the fields the OpenAPI document (GET /v1/openapi.json) lists.',
) {
  return validationFailed(message, { '(body)': fix });
}
