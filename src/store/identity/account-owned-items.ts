// Everything an account owns, and how each kind is found (docs/design.md §3 items, §20). ONE list
// for every job that needs "all of an account": the export (GET /v1/account/export) and an account
// deletion. A new item kind that holds an account's data belongs here, with its way of finding it;
// `found` says which read reaches it, and `scanOnly` marks what only a Scan could reach (so a job
// that must not Scan leaves it to its expiry, or to the owner index, ../owner-index.ts).
//
// Finding them, in short: the ACCOUNT#<id> partition (META, tokens, grants, drafts, draft keys) and
// the INBOX#<id> partition are Queried; the account's stories are GSI2 `AUTHOR#<id>`, and each
// story's own items are its STORY#<slug> partition; the account's reports on other stories and
// the images it uploaded are GSI2 `REPORTER#<id>` / `UPLOADER#<id>` (the owner index). Items keyed
// by a secret's hash (sessions, codes, refresh tokens, device codes) carry the account as an
// attribute only and expire on their own within days.

export type FoundBy =
  /** One GetItem of a key built from the account id. */
  | 'key'
  /** A Query of a partition named by the account id (page by page). */
  | 'account-partition'
  /** A Query of GSI2 under a partition named by the account id, then BatchGetItem. */
  | 'owner-index'
  /** Under each of the account's stories: a Query of `STORY#<slug>`. */
  | 'under-own-story'
  /** Reached from another owned item (a list item names it, a grant names its members). */
  | 'from-owned-item'
  /** Only a Scan finds it. */
  | 'scan-only';

export interface OwnedItemKind {
  kind: string;
  /** PK / SK as in design §3. */
  key: string;
  found: FoundBy;
  /** How, precisely. */
  how: string;
  /** In the export document (never secrets or their hashes). */
  exported: boolean;
  /** It expires by TTL on its own (a deletion may also wait for that). */
  expires?: string;
}

export const ACCOUNT_OWNED_ITEMS: readonly OwnedItemKind[] = [
  { kind: 'account', key: 'ACCOUNT#<id> / META', found: 'key', how: 'GetItem', exported: true },
  {
    kind: 'local handle',
    key: 'HANDLE#<handle> / META',
    found: 'key',
    how: "GetItem of the account's current handle (admin-created accounts only); points at the id",
    exported: false,
  },
  {
    kind: 'story',
    key: 'STORY#<slug> / META',
    found: 'owner-index',
    how: 'Query GSI2 AUTHOR#<id> (keys only), BatchGetItem META',
    exported: true,
  },
  { kind: 'story body', key: 'STORY#<slug> / BODY', found: 'under-own-story', how: 'Query STORY#<slug>', exported: true },
  {
    kind: 'revision',
    key: 'STORY#<slug> / REV#<n>',
    found: 'under-own-story',
    how: 'Query STORY#<slug> begins_with REV#, a few a page (each up to 64 KiB)',
    exported: true,
  },
  {
    kind: "others' reports on the account's story",
    key: 'STORY#<slug> / REPRO#, CHECK#, DRIFT#, DRIFTHASH#, ANSWER#',
    found: 'under-own-story',
    how: 'Query STORY#<slug>; they belong to their reporters, and go with the story',
    exported: false,
  },
  {
    kind: 'reproduction report (on any story)',
    key: 'STORY#<slug> / REPRO#<id>',
    found: 'owner-index',
    how: 'Query GSI2 REPORTER#<id> begins_with REPRO#, BatchGetItem',
    exported: true,
  },
  {
    kind: 'check report (on any story)',
    key: 'STORY#<slug> / CHECK#<id>',
    found: 'owner-index',
    how: 'Query GSI2 REPORTER#<id> begins_with CHECK#, BatchGetItem',
    exported: true,
  },
  {
    kind: 'drift report (on any story)',
    key: 'STORY#<slug> / DRIFT#<sha256>#<id>',
    found: 'owner-index',
    how: 'Query GSI2 REPORTER#<id> begins_with DRIFT#, BatchGetItem',
    exported: true,
  },
  {
    kind: 'membership in shared sets',
    key: 'STORY META reproducers, DRIFTHASH reporters, FEEDTALLY more/less',
    found: 'scan-only',
    how: "the account id inside another item's string set: reached from the account's reports (reproducers, reporters); feed votes only by a Scan",
    exported: false,
  },
  { kind: 'notification', key: 'INBOX#<id> / N#…', found: 'account-partition', how: 'Query INBOX#<id>, 200 a page', exported: true },
  {
    kind: 'draft list item',
    key: 'ACCOUNT#<id> / DRAFT#<created_at>#<draft id>',
    found: 'account-partition',
    how: 'Query ACCOUNT#<id> begins_with DRAFT#',
    exported: true,
  },
  {
    kind: 'draft',
    key: 'DRAFT#<id> / META',
    found: 'from-owned-item',
    how: 'BatchGetItem of the draft ids the list items name (drafter or claimer)',
    exported: true,
  },
  {
    kind: 'draft key',
    key: 'ACCOUNT#<id> / DRAFTKEY#<sha256>',
    found: 'account-partition',
    how: 'Query ACCOUNT#<id> begins_with DRAFTKEY#',
    exported: false,
    expires: 'with its draft',
  },
  {
    kind: 'image',
    key: 'IMAGE#<sha256> / META',
    found: 'owner-index',
    how: 'Query GSI2 UPLOADER#<id>, BatchGetItem (the first uploader only: the same bytes uploaded again share the record)',
    exported: true,
  },
  { kind: 'image day', key: 'IMGDAY#<id> / <day>', found: 'account-partition', how: 'Query IMGDAY#<id>', exported: false, expires: 'yes' },
  {
    kind: 'connected app (OAuth grant)',
    key: 'ACCOUNT#<id> / GRANT#<grant id>, GRANT#<grant id> / META',
    found: 'account-partition',
    how: 'Query ACCOUNT#<id> begins_with GRANT#; the members (TOKEN#/REFRESH#) from GRANT#<grant id>',
    exported: true,
  },
  {
    kind: 'bearer token',
    key: 'ACCOUNT#<id> / TOKEN#<sha256>, TOKEN#<sha256> / META',
    found: 'account-partition',
    how: 'Query ACCOUNT#<id> begins_with TOKEN#',
    exported: false,
    expires: 'yes',
  },
  { kind: 'op record', key: 'OP#<id> / <op_id>', found: 'account-partition', how: 'Query OP#<id>', exported: false, expires: '24 h' },
  {
    kind: 'rate window',
    key: 'RATE#account:<id> / <window>, RATE#drafts:<id> / <day>',
    found: 'account-partition',
    how: 'Query the partition',
    exported: false,
    expires: 'yes',
  },
  {
    kind: 'secret-keyed items',
    key: 'WEBSESS#, REFRESH#, AUTHCODE#, CONSENT#, DEVICE#, OAUTHSTATE#, BSKYSESS#<did>',
    found: 'scan-only',
    how: "keyed by a secret's hash (BSKYSESS by the DID, a key): the account is an attribute only; refresh tokens are reached from their grant",
    exported: false,
    expires: 'minutes to days',
  },
  {
    kind: "the account's name in others' items",
    key: "notifications to others (actor, actor_handle), outbox events, drafts' drafter_handle, ANSWER# answer_author",
    found: 'scan-only',
    how: "copies of the account id or handle inside other accounts' items",
    exported: false,
  },
];

/** The kinds an export holds. */
export const EXPORTED_KINDS = ACCOUNT_OWNED_ITEMS.filter((item) => item.exported).map((item) => item.kind);
