// The publish path's own announcement attempt, started after the write committed and never
// awaited by it: the answer must not wait on or fail because of Bluesky. If this attempt is lost
// (a crash, a Lambda frozen after the response) the story is still on the announce queue and
// the sweeper posts it; the claim makes the two never post twice. An attempt that leaves a retry
// owed tells whoever listens (the sweep timer of `npm start`), so the retry runs when it is due
// rather than at the next sweep interval.
// The attempt's code loads on the first attempt: a process that never announces (the http function,
// built without an announcer) keeps the announcer, its records and their lexicons out of its cold start.
import type { AppContext } from '../../app/context/app-context.ts';
import type { Announcer } from './announcer.ts';

export interface AnnounceSoon {
  /** What AppContext.announceSoon calls. */
  soon(slug: string): void;
  /** Resolves when every attempt started so far has ended (shutdown, tests). */
  idle(): Promise<void>;
  /** Calls `listener` whenever an attempt ended with the announcement still owed; returns the unsubscribe. */
  onRetryOwed(listener: () => void): () => void;
}

export function announceSoonWith(ctx: AppContext, announcer: Announcer): AnnounceSoon {
  const inFlight = new Set<Promise<void>>();
  const listeners = new Set<() => void>();
  const retryOwed = (): void => {
    for (const listener of listeners) listener();
  };
  return {
    soon(slug) {
      const attempt = import('./story.ts')
        .then(({ announceStory }) => announceStory(ctx, announcer, slug))
        .then(
          (result) => {
            if (result.outcome === 'retry_later') retryOwed();
          },
          (error: unknown) => {
            announcer.log(
              `announce ${slug}: the attempt after publishing failed (${(error as Error).message ?? String(error)}); the sweeper retries it`,
            );
            retryOwed();
          },
        );
      inFlight.add(attempt);
      void attempt.finally(() => inFlight.delete(attempt));
    },
    async idle() {
      while (inFlight.size > 0) await Promise.all([...inFlight]);
    },
    onRetryOwed(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
  };
}
