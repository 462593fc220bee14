// The /mcp body cap. Every MCP call fits the 512 KiB every endpoint takes (MAX_BODY_BYTES) except
// upload_image, whose image arrives base64-encoded in the JSON (5 MiB of image is ~6.7 MiB of
// text). The larger cap is granted only to a caller whose token checked out (the route reads the
// body after authenticating), and past MAX_BODY_BYTES only once its rate count and its account's
// standing are in (body.ts): a stranger, or a bogus token, can make the server buffer at most 512 KiB.
import { MAX_IMAGE_BASE64_CHARS } from '../../app/images/upload-image.contract.ts';
import { payloadTooLarge } from '../../domain/errors.ts';
import { MAX_BODY_BYTES, readBodyBytes } from '../body.ts';

/** An upload_image call's largest body: the base64 image plus the JSON-RPC envelope around it. */
export const MAX_MCP_UPLOAD_BODY_BYTES = MAX_IMAGE_BASE64_CHARS + MAX_BODY_BYTES;

export async function readMcpBody(request: Request, signedIn: boolean): Promise<string> {
  const limit = signedIn ? MAX_MCP_UPLOAD_BODY_BYTES : MAX_BODY_BYTES;
  const bytes = await readBodyBytes(request, limit, () =>
    payloadTooLarge(
      limit === MAX_BODY_BYTES
        ? `The request body is larger than ${MAX_BODY_BYTES / 1024} KiB, the most a call without a token may send.`
        : `The request body is larger than ${Math.floor(limit / 1024)} KiB: upload_image takes at most 5 MiB of image (base64 in \`data\`); other calls far less.`,
      { limit_bytes: limit },
    ),
  );
  return Buffer.from(bytes).toString('utf8');
}
