// The publish path's own announcement attempt, started after the write committed and never
// awaited by it: the answer must not wait on or fail because of Bluesky. If this attempt is lost
// (a crash, a Lambda frozen after the response) the story is still on the announce queue and
// the sweeper posts it; the claim makes the two never post twice.
import type { AppContext } from '../app/app-context.ts';
import { announceStory, type Announcer } from './announce-story.ts';

export interface AnnounceSoon {
  /** What AppContext.announceSoon calls. */
  soon(slug: string): void;
  /** Resolves when every attempt started so far has ended (shutdown, tests). */
  idle(): Promise<void>;
}

export function announceSoonWith(ctx: AppContext, announcer: Announcer): AnnounceSoon {
  const inFlight = new Set<Promise<void>>();
  return {
    soon(slug) {
      const attempt = announceStory(ctx, announcer, slug).then(
        () => {},
        (error: unknown) => announcer.log(`announce ${slug}: the attempt after publishing failed (${(error as Error).message ?? String(error)}); the sweeper retries it`),
      );
      inFlight.add(attempt);
      void attempt.finally(() => inFlight.delete(attempt));
    },
    async idle() {
      while (inFlight.size > 0) await Promise.all([...inFlight]);
    },
  };
}
