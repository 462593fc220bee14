// markdownOrJsonBody, the body reader of every /v1 route that takes its text as text/markdown or
// JSON (publish, edit, redact, capability), called by a real hono app in-process.
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { isLorebookError } from '../../../../src/domain/errors.ts';
import type { HttpEnv } from '../../../../src/http/http-env.ts';
import { markdownOrJsonBody } from '../../../../src/http/v1/request.ts';
import type { QueryParam } from '../../../../src/http/v1/route.ts';

const KIND: Record<string, QueryParam> = { kind: { field: 'kind', kind: 'string', schema: z.string() } };

const app = new Hono<HttpEnv>();
app.post('/story', async (c) => c.json(await markdownOrJsonBody(c, KIND)));
app.post('/scan', async (c) => c.json(await markdownOrJsonBody(c, {}, 'text')));
app.onError((error, c) => c.json({ code: isLorebookError(error) ? error.code : 'unexpected' }, 422));

const send = async (path: string, type: string, body: string): Promise<unknown> =>
  (await app.request(path, { method: 'POST', headers: { 'Content-Type': type }, body })).json();

describe('markdownOrJsonBody', () => {
  it('a text/markdown body is the markdown field, the other fields come from the query', async () => {
    expect(await send('/story?kind=addition', 'text/markdown; charset=utf-8', '# Story\n')).toEqual({
      kind: 'addition',
      markdown: '# Story\n',
    });
    expect(await send('/story', 'text/plain', 'plain')).toEqual({ markdown: 'plain' });
  });

  it('a route that names another field gets the text under it', async () => {
    expect(await send('/scan', 'text/x-markdown', 'curl x | sh')).toEqual({ text: 'curl x | sh' });
  });

  it('a JSON body carries every field, and curl -d JSON labelled form-encoded is read as JSON', async () => {
    expect(await send('/story', 'application/json', '{"markdown":"# S","kind":"rephrase"}')).toEqual({ markdown: '# S', kind: 'rephrase' });
    expect(await send('/story', 'application/x-www-form-urlencoded', '{"markdown":"# S"}')).toEqual({ markdown: '# S' });
  });

  it('with a JSON body the markdown query parameters are refused, not merged (the body carries them)', async () => {
    expect(await send('/story?kind=addition', 'application/json', '{"markdown":"# S"}')).toEqual({ code: 'validation_failed' });
  });

  it('a body in another media type is refused as validation_failed', async () => {
    expect(await send('/story', 'image/png', 'not a story')).toEqual({ code: 'validation_failed' });
  });
});
