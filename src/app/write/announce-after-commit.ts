// After a committed write that changes what Bluesky should show of a story — a first publish, a
// republish or edit that made it public or private, a hide or an unhide — start an attempt to
// bring its Bluesky side in line: post, or delete the post. Best effort, never awaited
// (design.md#write-rules); the announce queue, written in the same transaction, guarantees it later. The attempt
// finds out whether anything is owed: a story with nothing to do costs it one read.
import type { AppContext } from '../context/app-context.ts';

export function announceAfterCommit<R extends { slug: string }>(ctx: AppContext, outcome: R): R {
  ctx.announceSoon?.(outcome.slug);
  return outcome;
}
