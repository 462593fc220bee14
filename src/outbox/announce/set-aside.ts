// Announcing resumes without a flood (docs/design.md#announcing-resumes): before a sweep posts anything, the due
// queue entries owed longer than LOREBOOK_ANNOUNCE_MAX_AGE_HOURS that were never tried (announcing
// was off, or had no credentials) are set aside instead — their announce state reads `skipped`
// (`too_old`) — so the day announcing (re)starts only recent stories go out. `npm run sweep --
// --backlog` posts the set-aside ones on purpose, paced (backlog.ts).
import type { AppContext } from '../../app/context/app-context.ts';
import { setAsideTooOld } from '../../store/story/announce/backlog.ts';
import { dueAnnouncements } from '../../store/story/announce/queue.ts';
import { writeIfStillSo } from './fenced-write.ts';

/** Entries looked at per page, and pages per sweep: a bounded pass, the next sweep goes on. */
const PAGE = 100;
const MAX_PAGES = 10;

export interface SetAside {
  slug: string;
  /** Since when the announcement was owed (ISO). */
  owed_since: string;
}

/** Sets aside the due entries owed since before `at` minus the age limit (ms), oldest first; returns them. */
export async function setAsideTooOldAnnouncements(ctx: AppContext, at: number): Promise<SetAside[]> {
  const cutoff = new Date(at - ctx.config.announceMaxAgeHours * 3_600_000).toISOString();
  const setAside: SetAside[] = [];
  for (let page = 0; page < MAX_PAGES; page += 1) {
    // Entries due before the cutoff: the queue's sort key is `<due_at>#<slug>`, oldest first.
    const old = (await dueAnnouncements(ctx.store, cutoff, PAGE)).filter((entry) => entry.dueAt < cutoff);
    let moved = 0;
    for (const entry of old) {
      // Refused: tried before (a retry owed, a claim), or changed since it was read; the sweep handles it as usual.
      if (await writeIfStillSo(ctx.store, [setAsideTooOld(entry)])) {
        setAside.push({ slug: entry.slug, owed_since: entry.dueAt });
        moved += 1;
      }
    }
    if (old.length < PAGE || moved === 0) break;
  }
  return setAside;
}
