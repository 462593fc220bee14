// GET /i/<sha256>.<png|jpg|webp>: an uploaded image (docs/api.md § Images). Anonymous, counted
// against the caller's IP budget like a page. Only a 64-hex name with a known extension is
// accepted (src/domain/image/image-name.ts), so no path can reach outside the image store. The
// bytes under a name never change, so the answer may be cached for a year; the ETag is the hash.
import type { Context, Hono } from 'hono';
import type { AppContext } from '../app/context/app-context.ts';
import { consumeRateLimit, ipRateSubject, rateLimited, rateLimitHeaders } from '../app/context/rate-limit.ts';
import { readImage } from '../app/images/read-image.ts';
import { LorebookError } from '../domain/errors.ts';
import { IMAGE_PATH_PREFIX, parseImageFile } from '../domain/image/image-name.ts';
import type { ClientAddress } from './admission.ts';
import type { HttpEnv } from './http-env.ts';

export interface ImageRouteDeps {
  ctx: AppContext;
  clientAddress: ClientAddress;
}

const IMMUTABLE = 'public, max-age=31536000, immutable';
/** An image opened on its own runs nothing, whatever a browser might make of it. */
const IMAGE_CSP = "default-src 'none'; sandbox";

export function mountImages(app: Hono<HttpEnv>, deps: ImageRouteDeps): void {
  app.get(`${IMAGE_PATH_PREFIX}:file`, async (c) => {
    await countVisit(c, deps);
    const name = parseImageFile(c.req.param('file'));
    const image = name === undefined ? undefined : await readImage(deps.ctx, name);
    if (name === undefined || image === undefined) throw noSuchImage();
    const etag = `"${name.sha256}"`;
    const headers = {
      'Cache-Control': IMMUTABLE,
      'X-Content-Type-Options': 'nosniff',
      'Content-Security-Policy': IMAGE_CSP,
      ETag: etag,
    };
    if (
      c.req
        .header('if-none-match')
        ?.split(',')
        .some((tag) => tag.trim() === etag)
    )
      return c.body(null, 304, headers);
    return c.body(image.data as Uint8Array<ArrayBuffer>, 200, { ...headers, 'Content-Type': image.type });
  });
}

async function countVisit(c: Context<HttpEnv>, deps: ImageRouteDeps): Promise<void> {
  const decision = await consumeRateLimit(deps.ctx, ipRateSubject(deps.clientAddress(c) ?? 'unknown'));
  c.set('answerHeaders', { ...c.get('answerHeaders'), ...rateLimitHeaders(decision) });
  if (!decision.allowed) throw rateLimited(decision);
}

function noSuchImage(): LorebookError {
  return new LorebookError(
    'not_found',
    'No image is stored under this name. Image addresses are /i/<sha256>.<png|jpg|webp>, as upload_image answers them.',
  );
}
