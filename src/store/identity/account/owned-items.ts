// Every kind of item an account owns, and how it is found from the account id alone (design.md#account-deletion).
// The one list both account deletion (src/app/account/) and an account's export read: a new item
// kind that holds an account id belongs here, with how it is found, or deletion leaves it behind.
// `found` names a key, never a Scan: kinds that were findable only by a Scan (a report on someone
// else's story, a web session, an image) gained an index item under `ACCOUNT#id` written in the
// same transaction as the item itself (`index-items.ts`; older items get theirs from the
// one-time backfill, `index-backfill.ts`).

/** How deletion treats one kind: gone, or kept in a stated, stripped form. */
export type OnDeletion = 'deleted' | 'withdrawn' | 'tombstoned';

export interface OwnedKind {
  kind: string;
  key: string;
  /** How the account's items of this kind are found without a Scan. */
  found: string;
  onDeletion: OnDeletion;
}

export const ACCOUNT_OWNED_KINDS: readonly OwnedKind[] = [
  {
    kind: 'story',
    key: 'STORY#slug / META',
    found: 'GSI2 (`AUTHOR#<account>`): every story the account wrote, private and hidden ones too',
    onDeletion: 'tombstoned',
  },
  {
    kind: 'story children',
    key: 'STORY#slug / BODY, REV#n, REPRO#*, CHECK#*, DRIFT#*, DRIFTHASH#*, ANSWER#*',
    found: 'a Query of the story partition (from the story above)',
    onDeletion: 'deleted',
  },
  {
    kind: 'answer link on another story',
    key: 'STORY#<fail slug> / ANSWER#<own slug>',
    found: "the own success story's META `answers` (at most 5)",
    onDeletion: 'deleted',
  },
  {
    kind: 'report on another story',
    key: 'STORY#slug / REPRO#<account>, CHECK#<account>, DRIFT#<sha256>#<account>, FLAG#<account>',
    found: 'the index item `ACCOUNT#<account> / ONSTORY#<slug>` (with the drift hashes reported)',
    onDeletion: 'withdrawn',
  },
  { kind: 'notification', key: 'INBOX#<account> / N#…', found: 'a Query of the partition', onDeletion: 'deleted' },
  {
    kind: 'bearer token',
    key: 'TOKEN#<sha256> / META',
    found: '`ACCOUNT#<account> / TOKEN#<sha256>` (written together)',
    onDeletion: 'deleted',
  },
  {
    kind: 'OAuth grant, its tokens and refresh tokens',
    key: 'GRANT#<id> / META and members, REFRESH#<sha256>, TOKEN#<sha256>',
    found: '`ACCOUNT#<account> / GRANT#<id>`, then a Query of the grant partition',
    onDeletion: 'deleted',
  },
  { kind: 'web session', key: 'WEBSESS#<sha256> / META', found: '`ACCOUNT#<account> / WEBSESS#<sha256>`', onDeletion: 'deleted' },
  {
    kind: 'draft',
    key: 'DRAFT#<sha256> / META',
    found: "`ACCOUNT#<account> / DRAFT#<at>#<id>` with role `drafter` (a claimer's listing only: the draft is its drafter's)",
    onDeletion: 'deleted',
  },
  { kind: 'open flags', key: 'ACCOUNT#<account> / FLAGS', found: 'a Query of the account partition', onDeletion: 'deleted' },
  {
    kind: 'draft list item, draft key',
    key: 'ACCOUNT#<account> / DRAFT#…, DRAFTKEY#…',
    found: 'a Query of the account partition',
    onDeletion: 'deleted',
  },
  {
    kind: 'image (record and blob)',
    key: 'IMAGE#<sha256> / META (uploaded_by)',
    found: '`ACCOUNT#<account> / IMAGE#<sha256>`',
    onDeletion: 'deleted',
  },
  { kind: 'image day', key: 'IMGDAY#<account> / <day>', found: 'a Query of the partition', onDeletion: 'deleted' },
  { kind: 'publish day', key: 'PUBDAY#<account> / <day>', found: 'a Query of the partition', onDeletion: 'deleted' },
  { kind: 'op record', key: 'OP#<account> / <op_id>', found: 'a Query of the partition', onDeletion: 'deleted' },
  { kind: 'rate window', key: 'RATE#account:<account> / <window>', found: 'a Query of the partition', onDeletion: 'deleted' },
  { kind: 'Bluesky session', key: 'BSKYSESS#<did> / META', found: 'by key', onDeletion: 'deleted' },
  { kind: 'local handle', key: 'HANDLE#<handle> / META', found: "by key, from the account item's handle", onDeletion: 'deleted' },
  {
    kind: 'account',
    key: 'ACCOUNT#<account> / META',
    found: 'by key',
    onDeletion: 'tombstoned',
  },
];

/**
 * Kinds that hold an account id but are not the account's and are not touched: short-lived
 * secrets that expire on their own (a pending consent or code, a sign-in state, a device code:
 * minutes; none can mint anything once the account is marked, see caller/account-standing.ts), and other
 * people's items that name the account (their notifications about its reports, a draft it was
 * invited to or claimed, their feed tallies that hold its DID as a viewer).
 */
export const ACCOUNT_NAMED_ELSEWHERE: readonly string[] = [
  'CONSENT#, AUTHCODE#, OAUTHSTATE#, DEVICE#/USERCODE# (expire within minutes)',
  "INBOX#<other> / N#… (another person's notification naming the account as actor)",
  "DRAFT#… where the account is the claimer or invitee (the drafter's item)",
  'FEEDTALLY#… (`more`/`less` sets of Bluesky viewer DIDs)',
];
