// After a committed write that leaves a story public and shown (a first publish, a republish or
// edit that made it public, an unhide), start an announcement attempt — best effort, never
// awaited (design §4). The attempt itself finds out whether one is still owed: a story already
// posted or with a live claim costs it one read.
import { isListedPublicly } from '../store/story-items.ts';
import type { AppContext } from './app-context.ts';

export function announceAfterCommit<R extends { slug: string; visibility: 'public' | 'private'; hidden: boolean }>(ctx: AppContext, outcome: R): R {
  if (ctx.announceSoon !== undefined && isListedPublicly(outcome.visibility, outcome.hidden)) ctx.announceSoon(outcome.slug);
  return outcome;
}
