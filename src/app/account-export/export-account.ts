// Everything an account owns as one JSON document (docs/api.md § Account export), written as it is
// read: each section is read page by page (../../store/identity/account/pages.ts) and every page is
// yielded as text before the next is asked for, so memory holds one page, never the account.
// What is in it follows the one list of owned items (src/store/identity/account/owned-items.ts);
// never a secret or a secret's hash (tokens, sessions, codes), and never another account's id.
import { imageName, imageUrl } from '../../domain/image/image-name.ts';
import { isImageType } from '../../domain/image/image-type.ts';
import type { StoredItem } from '../../store/actions.ts';
import { draftKey } from '../../store/draft/draft-items.ts';
import { IMAGE_INDEX_PREFIX, ON_STORY_PREFIX, toReportOnStory } from '../../store/identity/account/index-items.ts';
import { toAccount } from '../../store/identity/account/items.ts';
import { authorIndexPages, partitionPages, pointedPages } from '../../store/identity/account/pages.ts';
import { queryAccountGrants } from '../../store/identity/grant-items.ts';
import { imageKey } from '../../store/image/items.ts';
import {
  accountKey,
  authorPartition,
  bodyKey,
  checkKey,
  driftReportKey,
  type ItemKey,
  inboxPartition,
  keyId,
  reproductionKey,
  revisionPrefix,
  storyKey,
} from '../../store/keys.ts';
import { readItem, readItems } from '../../store/read-items.ts';
import { INDEXES, KEY, TTL_ATTRIBUTE } from '../../store/schema.ts';
import { flagKey } from '../../store/story/flag-items.ts';
import type { AppContext, Caller } from '../context/app-context.ts';

export const EXPORT_FORMAT = 'lorebook.account-export.v1';

/** Items a page: stories and revisions are up to 64 KiB each, so fewer of them. */
const PAGE = { stories: 25, revisions: 10, notifications: 200, reports: 100, drafts: 50, images: 100 } as const;

/** Keys, index keys and TTL are the table's bookkeeping, not the account's data. */
const BOOKKEEPING = new Set<string>([
  KEY.partition,
  KEY.sort,
  TTL_ATTRIBUTE,
  ...Object.values(INDEXES).flatMap((index) => [index.partition, index.sort]),
]);
/** On a story: other accounts' ids (its reproducers) and the announcer's claim internals. */
const STORY_INTERNALS = new Set(['reproducers', 'claim_id', 'claimed_at', 'claim_post']);

/** An item as data: bookkeeping left out, string sets as sorted arrays. */
function plain(item: StoredItem, leaveOut: ReadonlySet<string> = new Set()): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(item)) {
    if (BOOKKEEPING.has(name) || leaveOut.has(name)) continue;
    out[name] = value instanceof Set ? [...(value as Set<unknown>)].map(String).sort() : value;
  }
  return out;
}

/** `[`, the items joined by commas across pages, `]`: one page in memory at a time. */
async function* jsonArray<T>(pages: AsyncIterable<T[]>, write: (item: T) => string | AsyncIterable<string>): AsyncGenerator<string> {
  yield '[';
  let first = true;
  for await (const page of pages) {
    for (const item of page) {
      const text = write(item);
      yield first ? '' : ',';
      first = false;
      if (typeof text === 'string') yield text;
      else yield* text;
    }
  }
  yield ']';
}

/**
 * The caller's export, as text pieces. The account record is read before the first piece, so a
 * store that does not answer is an error answer, not a broken document. An account made before
 * account records existed (a token from the CLI) is exported with the id and handle it signs in with.
 */
export async function exportAccount(ctx: AppContext, caller: Caller): Promise<AsyncGenerator<string>> {
  const item = await readItem(ctx.store, accountKey(caller.account));
  const account = item === undefined ? { id: caller.account, handle: caller.handle, created_at: null } : toAccount(item);
  return exportPieces(ctx, caller.account, account);
}

async function* exportPieces(ctx: AppContext, account: string, record: object): AsyncGenerator<string> {
  const { store } = ctx;
  yield `{"format":${JSON.stringify(EXPORT_FORMAT)},"exported_at":${JSON.stringify(new Date(store.now()).toISOString())}`;
  yield `,"account":${JSON.stringify(record)}`;
  yield ',"stories":';
  yield* jsonArray(authorIndexPages(store, { partition: authorPartition(account), limit: PAGE.stories }), (meta) => storyPieces(ctx, meta));
  // The account's reports on any story, found through its index items (`ONSTORY#<slug>`, and
  // `ONSTORY#<slug>#<sha256>` per drift hash), one pass per section.
  const reports = { partition: accountKey(account).PK, prefix: ON_STORY_PREFIX, limit: PAGE.reports };
  for (const [section, pointsTo] of REPORT_SECTIONS) {
    yield `,"${section}":`;
    yield* jsonArray(
      pointedPages(store, reports, (index) => pointsTo(account, index)),
      (item) => JSON.stringify(plain(item)),
    );
  }
  yield ',"drafts":';
  yield* jsonArray(draftPages(ctx, account), (draft) => JSON.stringify(draft));
  yield ',"notifications":';
  yield* jsonArray(partitionPages(store, { partition: inboxPartition(account), limit: PAGE.notifications }), (item) =>
    JSON.stringify({ id: item.SK, ...plain(item) }),
  );
  yield ',"images":';
  const images = { partition: accountKey(account).PK, prefix: IMAGE_INDEX_PREFIX, limit: PAGE.images };
  yield* jsonArray(
    pointedPages(store, images, (index) => [imageKey(String(index.sha256))]),
    (item) => JSON.stringify(imageEntry(ctx, item)),
  );
  // Connected apps: a handful per account, read whole. A grant holds no secret; its tokens stay out.
  const grants = await queryAccountGrants(store, account);
  yield `,"connected_apps":${JSON.stringify(grants)}}`;
}

/** Each report section and the report an `ONSTORY#` index item points to for it. */
const REPORT_SECTIONS: ReadonlyArray<readonly [string, (account: string, index: StoredItem) => ItemKey[]]> = [
  ['reproductions', (account, index) => onStoryReport(index, (slug) => reproductionKey(slug, account))],
  ['checks', (account, index) => onStoryReport(index, (slug) => checkKey(slug, account))],
  [
    'drift_reports',
    (account, index) => {
      const report = toReportOnStory(index);
      return report.sha256 === undefined ? [] : [driftReportKey(report.slug, report.sha256, account)];
    },
  ],
  ['flags', (account, index) => onStoryReport(index, (slug) => flagKey(slug, account))],
];

/** A reproduction's or check's key from a story's index item (a drift hash's item points only to its drift report). */
function onStoryReport(index: StoredItem, key: (slug: string) => ItemKey): ItemKey[] {
  const report = toReportOnStory(index);
  return report.sha256 === undefined ? [key(report.slug)] : [];
}

/** One story: META's content, its current markdown, then its revisions a page at a time. */
async function* storyPieces(ctx: AppContext, meta: StoredItem): AsyncGenerator<string> {
  const slug = String(meta.slug);
  const body = (await readItems(ctx.store, [bodyKey(slug)])).get(keyId(bodyKey(slug)));
  const head = JSON.stringify({ ...plain(meta, STORY_INTERNALS), markdown: body?.markdown ?? null });
  yield `${head.slice(0, -1)},"revisions":`;
  yield* jsonArray(partitionPages(ctx.store, { partition: storyKey(slug).PK, prefix: revisionPrefix, limit: PAGE.revisions }), (item) =>
    JSON.stringify(plain(item)),
  );
  yield '}';
}

/** The account's drafts (as drafter or claimer), each with its role, a page of list items at a time. */
async function* draftPages(ctx: AppContext, account: string): AsyncGenerator<Record<string, unknown>[]> {
  for await (const page of partitionPages(ctx.store, { partition: accountKey(account).PK, prefix: 'DRAFT#', limit: PAGE.drafts })) {
    const found = await readItems(
      ctx.store,
      page.map((item) => draftKey(String(item.draft))),
    );
    yield page.flatMap((item) => {
      const draft = found.get(keyId(draftKey(String(item.draft))));
      return draft === undefined ? [] : [{ id: String(item.draft), role: item.role, ...plain(draft) }];
    });
  }
}

function imageEntry(ctx: AppContext, item: StoredItem): Record<string, unknown> {
  const type = String(item.type);
  const url = isImageType(type) ? imageUrl(ctx.config.publicBaseUrl, imageName(String(item.sha256), type)) : null;
  return { ...plain(item), url };
}
