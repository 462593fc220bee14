// What /v1 handlers read from a request beyond the body: path slug, query parameters, the
// Idempotency-Key and If-Match headers; and how a write is answered.
import type { Context } from 'hono';
import { validationFailed } from '../../domain/errors.ts';
import { badBody, mediaType, opensJsonObject, parseJsonObject, readBodyText } from '../body.ts';
import type { HttpEnv } from '../http-env.ts';
import type { QueryParam } from './route.ts';

/** The JSON object body of a write (an empty body is `{}`); a JSON object labelled form-encoded too (opensJsonObject). */
export async function jsonBody(c: Context<HttpEnv>): Promise<Record<string, unknown>> {
  const text = await readBodyText(c.req.raw);
  const type = mediaType(c.req.header('content-type'));
  const curlJson = type === 'application/x-www-form-urlencoded' && opensJsonObject(text);
  if (text.trim() !== '' && type !== 'application/json' && !type.endsWith('+json') && !curlJson) {
    throw badBody(`The body is sent as "${type || 'no content type'}"; this endpoint takes application/json.`);
  }
  return parseJsonObject(text);
}

const MARKDOWN_TYPES = new Set(['text/markdown', 'text/x-markdown', 'text/plain']);

/**
 * The input of a route that takes its text as `text/markdown` or JSON: sent as markdown, the body is
 * the `field` and the other fields come from `markdownQuery`; sent as JSON, every field is in the
 * body and the query takes none.
 */
export async function markdownOrJsonBody(
  c: Context<HttpEnv>,
  markdownQuery: Record<string, QueryParam> = {},
  field = 'markdown',
): Promise<Record<string, unknown>> {
  return MARKDOWN_TYPES.has(mediaType(c.req.header('content-type')))
    ? { ...queryInput(c, markdownQuery), [field]: await readBodyText(c.req.raw) }
    : { ...queryInput(c, {}), ...(await jsonBody(c)) };
}

/**
 * The Idempotency-Key header is the op_id (docs/design.md#write-rules): the same op record as MCP's op_id. A body
 * op_id is accepted too, but the two must agree.
 */
export function withOpId(c: Context<HttpEnv>, input: Record<string, unknown>): Record<string, unknown> {
  const header = c.req.header('idempotency-key');
  if (header === undefined) return input;
  if (input.op_id !== undefined && input.op_id !== header) {
    throw validationFailed('The Idempotency-Key header and the body op_id differ.', {
      'Idempotency-Key': 'Send the key once, in the Idempotency-Key header, and leave op_id out of the body.',
    });
  }
  return { ...input, op_id: header };
}

const STRONG_ETAG = /^"(\d{1,15})"$/;

/** If-Match `"<revision>"` is the base_revision of a content write; `*` adds no condition. */
export function withIfMatch(c: Context<HttpEnv>, input: Record<string, unknown>): Record<string, unknown> {
  const header = c.req.header('if-match')?.trim();
  if (header === undefined || header === '*') return input;
  const revision = STRONG_ETAG.exec(header)?.[1];
  if (revision === undefined) {
    throw validationFailed('If-Match is not the ETag of a story.', {
      'If-Match': 'Send the ETag that GET /v1/stories/{slug} answered, e.g. "3" (with the quotes), or leave If-Match out.',
    });
  }
  if (input.base_revision !== undefined && input.base_revision !== Number(revision)) {
    throw validationFailed('If-Match and the body base_revision differ.', {
      'If-Match': 'Send the revision once, as If-Match, and leave base_revision out of the body.',
    });
  }
  return { ...input, base_revision: Number(revision) };
}

export const etagOf = (revision: number): string => `"${revision}"`;

/**
 * Query parameters -> use-case input. Numbers and booleans are converted only when they are
 * written as such; anything else is passed on for the use case to refuse by name. An unknown
 * parameter is refused rather than silently ignored.
 */
export function queryInput(c: Context<HttpEnv>, params: Record<string, QueryParam>): Record<string, unknown> {
  const input: Record<string, unknown> = {};
  const unknown: Record<string, string> = {};
  for (const [name, value] of Object.entries(c.req.queries())) {
    const param = params[name];
    if (param === undefined) {
      unknown[name] = `Not a parameter of this endpoint; it takes ${Object.keys(params).join(', ') || 'none'}.`;
      continue;
    }
    if (value.length > 1) {
      unknown[name] = 'Send this parameter once.';
      continue;
    }
    input[param.field] = converted(param, value[0] ?? '');
  }
  if (Object.keys(unknown).length > 0)
    throw validationFailed(`Unknown or repeated query parameters: ${Object.keys(unknown).join(', ')}.`, unknown);
  return input;
}

function converted(param: QueryParam, raw: string): unknown {
  if (param.kind === 'integer' && /^\d{1,15}$/.test(raw)) return Number(raw);
  if (param.kind === 'boolean' && (raw === 'true' || raw === 'false')) return raw === 'true';
  return raw;
}

/** A write's answer: the original status on a replay, with Idempotent-Replayed: true. */
export function writeAnswer(
  c: Context<HttpEnv>,
  outcome: { replayed?: true },
  status: 200 | 201 | 202,
  headers: Record<string, string> = {},
): Response {
  const replay: Record<string, string> = outcome.replayed === true ? { 'Idempotent-Replayed': 'true' } : {};
  return c.json(outcome, status, { ...headers, ...replay });
}

export function slugParam(c: Context<HttpEnv>): string {
  return c.req.param('slug') ?? '';
}

/** The slug is the path's; a body that names another one is refused rather than ignored. */
export function withPathSlug(c: Context<HttpEnv>, input: Record<string, unknown>): Record<string, unknown> {
  const slug = slugParam(c);
  if (input.slug !== undefined && input.slug !== slug) {
    throw validationFailed('The body names another slug than the path.', { slug: 'Leave slug out of the body: the path names the story.' });
  }
  return { ...input, slug };
}
