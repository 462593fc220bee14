// upload_image / POST /v1/images (docs/design.md#images): an image checked by its bytes, re-encoded
// without metadata (reencode-image.ts), stored under the sha256 of the stored bytes and counted
// against the account's day. Safe to deliver twice:
// - the blob's name is its content hash, so writing it again writes the same bytes;
// - the blob is written before the records, so a crash between leaves only an unreferenced blob
//   (never served: serving reads the record first; never counted);
// - the day item's set of hashes is the day's count, and a hash joins it under the condition that
//   it is absent and the day is below its limit: the same image twice (or 16 at once) counts once;
// - an op_id replays the first answer (write/write-once.ts).
// Re-encoding costs up to seconds of CPU and ~200 MB, so before it starts (docs/design.md#fair-cpu) a
// full day is refused, and the re-encode takes a slot of the account's share (one at a time per
// account, charged to its CPU minute).
import { createHash } from 'node:crypto';
import { LorebookError, validationFailed } from '../../domain/errors.ts';
import { fingerprint } from '../../domain/fingerprint.ts';
import { DAILY_IMAGE_UPLOADS, imageTooLarge, MAX_IMAGE_BYTES } from '../../domain/image/image-limits.ts';
import { imageName, imageUrl } from '../../domain/image/image-name.ts';
import type { ImageType } from '../../domain/image/image-type.ts';
import { parseOpId } from '../../domain/op-id.ts';
import { sharedCpuSlots } from '../../offload/cpu-slots.ts';
import type { WriteAction } from '../../store/actions.ts';
import { imageIndexItem } from '../../store/identity/account/index-items.ts';
import type { ImageBlobs } from '../../store/image/blobs.ts';
import {
  countImageInDay,
  createImageRecord,
  hashesOfDay,
  type ImageDay,
  imageCountedIn,
  imageDayKey,
  imageKey,
  startImageDay,
} from '../../store/image/items.ts';
import { pick, readItem, readSnapshot } from '../../store/read-items.ts';
import { checkItem } from '../../store/replace-by-key.ts';
import { epochSeconds } from '../../store/store.ts';
import type { AppContext, Caller } from '../context/app-context.ts';
import { accountRateSubject } from '../context/rate-limit.ts';
import { parseWriteInput } from '../input/parse-write-input.ts';
import { type Replayed, writeOnce } from '../write/write-once.ts';
import { type ReceivedImage, receivedWhole } from './received-image.ts';
import { type EncodedImage, reencodeImage } from './reencode-image.ts';
import {
  DAILY_LIMIT_TEXT,
  type ImageOutcome,
  MAX_IMAGE_BASE64_CHARS,
  UPLOAD_IMAGE_TOOL,
  uploadImageInputSchema,
} from './upload-image.contract.ts';

const DAY_MS = 24 * 60 * 60 * 1000;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

export interface ImageUpload {
  /** The image's bytes: whole, or as received (hashed already, joined only if this upload re-encodes). */
  bytes: Uint8Array | ReceivedImage;
  type: ImageType;
  opId: string | undefined;
}

/** The MCP tool's input: the image as base64 in `data`. */
export async function uploadImage(ctx: AppContext, caller: Caller, raw: unknown): Promise<Replayed<ImageOutcome>> {
  const data = typeof raw === 'object' && raw !== null ? (raw as Record<string, unknown>).data : undefined;
  if (typeof data === 'string' && data.length > MAX_IMAGE_BASE64_CHARS) throw imageTooLarge();
  const input = await parseWriteInput(uploadImageInputSchema, raw, UPLOAD_IMAGE_TOOL, ctx);
  if (input.data.length % 4 !== 0 || !BASE64.test(input.data)) {
    throw validationFailed('`data` is not base64.', { data: "Send the file's bytes base64-encoded (A-Z, a-z, 0-9, +, /, padded with =)." });
  }
  return storeImage(ctx, caller, { bytes: Buffer.from(input.data, 'base64'), type: input.type, opId: input.op_id });
}

/** Both surfaces end here: /v1 with the body's bytes, MCP with the decoded `data`. */
export async function storeImage(ctx: AppContext, caller: Caller, upload: ImageUpload): Promise<Replayed<ImageOutcome>> {
  const opId = upload.opId === undefined ? undefined : parseOpId(upload.opId);
  const input = upload.bytes instanceof Uint8Array ? receivedWhole(upload.bytes) : upload.bytes;
  if (input.byteLength > MAX_IMAGE_BYTES) throw imageTooLarge();
  const blobs = imageBlobsOf(ctx);
  const inputSha256 = input.sha256;
  if (opId === undefined) await refuseFullDay(ctx, caller, inputSha256);
  const encoded = await reencodeInTurn(ctx, caller, input, upload.type);
  const sha256 = createHash('sha256').update(encoded.data).digest('hex');
  rememberReencoded(inputSha256, sha256);
  const name = imageName(sha256, encoded.type);
  const outcome: ImageOutcome = {
    url: imageUrl(ctx.config.publicBaseUrl, name),
    sha256,
    width: encoded.width,
    height: encoded.height,
    bytes: encoded.data.byteLength,
    type: encoded.type,
  };
  const now = ctx.store.now();
  const day: ImageDay = {
    account: caller.account,
    day: new Date(now).toISOString().slice(0, 10),
    sha256,
    limit: DAILY_IMAGE_UPLOADS,
    expiresAt: epochSeconds(startOfNextDay(now) + DAY_MS),
  };
  const dayKey = imageDayKey(day.account, day.day);
  const recordKey = imageKey(sha256);

  // The blob goes first, and only when the records may follow: a day already full writes nothing.
  const before = await readSnapshot(ctx.store, [dayKey, recordKey]);
  const counted = hashesOfDay(pick(before, dayKey));
  if (!counted.has(sha256) && counted.size < day.limit && pick(before, recordKey) === undefined) {
    await blobs.put(name.file, encoded.data, encoded.type);
  }

  return writeOnce(ctx, {
    tool: UPLOAD_IMAGE_TOOL,
    caller,
    opId,
    // The input bytes, not the output: a replay must match before anything is decoded again.
    fingerprint: fingerprint(UPLOAD_IMAGE_TOOL, { sha256: inputSha256, type: upload.type }),
    reads: [dayKey, recordKey],
    plan(read, context) {
      const dayItem = pick(read, dayKey);
      const hashes = hashesOfDay(dayItem);
      if (hashes.has(sha256)) return { outcome, actions: [], guards: [checkItem(dayKey, imageCountedIn(sha256))] };
      if (hashes.size >= day.limit) throw dailyLimitReached(context.now);
      const actions: WriteAction[] = [dayItem === undefined ? startImageDay(day) : countImageInDay(day)];
      if (pick(read, recordKey) === undefined) {
        actions.push(
          createImageRecord({
            sha256,
            type: encoded.type,
            width: encoded.width,
            height: encoded.height,
            bytes: encoded.data.byteLength,
            uploaded_by: caller.account,
            uploaded_at: new Date(context.now).toISOString(),
          }),
          // Where account deletion finds the image again (design.md#account-deletion): IMGDAY items expire after two days.
          imageIndexItem(caller.account, sha256),
        );
      }
      return { outcome, actions, guards: [] };
    },
  });
}

/** The longest an upload waits for the re-encoder before it is refused for load (the re-encode itself cannot be stopped). */
const REENCODE_WAIT_BUDGET_MS = 20_000;

/** Re-encodes under way, by input sha256 and type: the same bytes delivered again at once (16 in parallel) share one. */
const reencoding = new Map<string, Promise<EncodedImage>>();

function reencodeInTurn(ctx: AppContext, caller: Caller, input: ReceivedImage, type: ImageType): Promise<EncodedImage> {
  const key = `${input.sha256} ${type}`;
  const pending = reencoding.get(key);
  if (pending !== undefined) return pending;
  const turns = (ctx.cpu ?? sharedCpuSlots()).reencodes;
  const started = turns.run(
    ctx.cpuCaller ?? accountRateSubject(caller.account),
    REENCODE_WAIT_BUDGET_MS,
    () => reencodeImage(input.bytes(), type),
    // Every re-encode holds a core for as long as a heavy scan: it takes the same places (heavy-gate.ts).
    { heavy: true },
  );
  reencoding.set(key, started);
  const done = (): void => void reencoding.delete(key);
  started.then(done, done);
  return started;
}

/**
 * Input bytes this process re-encoded, by their sha256, to the stored image's: on a full day an
 * image already counted may still be sent again, and this tells it apart before decoding it.
 * Bounded; another instance does not know them, and refuses such a re-send until midnight.
 */
const reencoded = new Map<string, string>();
const MAX_REMEMBERED = 1_000;

function rememberReencoded(input: string, stored: string): void {
  reencoded.delete(input);
  reencoded.set(input, stored);
  if (reencoded.size > MAX_REMEMBERED) reencoded.delete(reencoded.keys().next().value as string);
}

/** A day already full refuses a new image before any decoding is spent on it. */
async function refuseFullDay(ctx: AppContext, caller: Caller, inputSha256: string): Promise<void> {
  const now = ctx.store.now();
  const counted = hashesOfDay(await readItem(ctx.store, imageDayKey(caller.account, new Date(now).toISOString().slice(0, 10))));
  if (counted.size < DAILY_IMAGE_UPLOADS) return;
  const stored = reencoded.get(inputSha256);
  if (stored === undefined || !counted.has(stored)) throw dailyLimitReached(now);
}

function imageBlobsOf(ctx: AppContext): ImageBlobs {
  if (ctx.images !== undefined) return ctx.images;
  throw new LorebookError('conflict', 'This server stores no images (it was started without an image store). Nothing was stored.', {
    retryable: false,
  });
}

const startOfNextDay = (now: number): number => (Math.floor(now / DAY_MS) + 1) * DAY_MS;

function dailyLimitReached(now: number): LorebookError {
  const retryAfterMs = startOfNextDay(now) - now;
  return new LorebookError(
    'rate_limited',
    `You have uploaded ${DAILY_LIMIT_TEXT} already today. Nothing was stored. An image you uploaded today can be sent again (it is not counted twice); new ones after retry_after_ms (midnight UTC).`,
    { retryAfterMs, details: { limit: DAILY_IMAGE_UPLOADS, window: 'UTC day' } },
  );
}
