// How far ahead a story's `date` may be. It is the author's local day, and no time zone is more
// than a day ahead of UTC (UTC+14 at most), so a later date is a mistake — or a slug claimed ahead
// of the day someone else would write that title (design.md#slugs-dates-images).
const DAY_MS = 24 * 60 * 60 * 1000;

/** The latest `date` a story may carry at `nowMs`: the UTC day after today. */
export function latestStoryDate(nowMs: number): string {
  return new Date(nowMs + DAY_MS).toISOString().slice(0, 10);
}

/** A `YYYY-MM-DD` later than latestStoryDate (the same shape compares as text). */
export function isTooFarAhead(date: string, nowMs: number): boolean {
  return date > latestStoryDate(nowMs);
}
