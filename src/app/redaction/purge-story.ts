// What `npm run purge` does (docs/api.md § Operators: purge): a redaction on the author's behalf.
// With a redacted text it is redact_story with that text; without one it keeps the current text
// and strips every earlier revision. It runs every step at once, images included (an operator's
// command may Scan, the request path may not), and says what it did.
import { notFound } from '../../domain/errors.ts';
import { toAccount } from '../../store/identity/account/items.ts';
import { accountKey, bodyKey, keyId, storyKey } from '../../store/keys.ts';
import { readItems } from '../../store/read-items.ts';
import { toStoryMeta } from '../../store/story/story-items.ts';
import type { AppContext } from '../context/app-context.ts';
import type { RedactOutcome } from '../redact-story.contract.ts';
import { redactStory } from '../redact-story.ts';
import type { Replayed } from '../write/write-once.ts';
import { finishRedactions, type RedactionRun } from './finish-redaction.ts';

export interface PurgeReport {
  outcome: Replayed<RedactOutcome>;
  /** Whether the text was replaced (else the current text was kept). */
  replaced_text: boolean;
  finished: RedactionRun;
}

export async function purgeStory(ctx: AppContext, slug: string, markdown?: string): Promise<PurgeReport> {
  const read = await readItems(ctx.store, [storyKey(slug), bodyKey(slug)]);
  const metaItem = read.get(keyId(storyKey(slug)));
  const body = read.get(keyId(bodyKey(slug)));
  if (metaItem === undefined || body === undefined) throw notFound(slug);
  const meta = toStoryMeta(metaItem);
  const accountItem = (await readItems(ctx.store, [accountKey(meta.author)])).get(keyId(accountKey(meta.author)));
  const author = { account: meta.author, handle: accountItem === undefined ? meta.author : toAccount(accountItem).handle };
  const text = markdown ?? String(body.markdown);
  const outcome = await redactStory(ctx, author, { slug, base_revision: meta.revision, markdown: text });
  const finished = await finishRedactions(ctx, { slug });
  return { outcome, replaced_text: outcome.revision !== meta.revision, finished };
}
