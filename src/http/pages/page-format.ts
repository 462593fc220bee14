// Small display helpers shared by the pages: dates people read, counts in words, Bluesky links.
const DAY = new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeZone: 'UTC' });

/** "Nov 30, 2026" from an ISO timestamp or a YYYY-MM-DD date (read as UTC, so it never shifts a day). */
export function displayDate(value: string): string {
  const time = Date.parse(value.length === 10 ? `${value}T00:00:00Z` : value);
  return Number.isNaN(time) ? value : DAY.format(time);
}

export function plural(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}

export function isHttpUrl(value: string | undefined): value is string {
  return value !== undefined && /^https?:\/\//i.test(value) && URL.canParse(value);
}

/** The bsky.app address of a post's at-uri (at://<did>/app.bsky.feed.post/<rkey>), for people to click. */
export function postWebUrl(atUri: string): string | undefined {
  const match = /^at:\/\/([^/]+)\/app\.bsky\.feed\.post\/([^/]+)$/.exec(atUri);
  return match === null ? undefined : `https://bsky.app/profile/${match[1]}/post/${match[2]}`;
}

export const storyPath = (slug: string): string => `/s/${slug}`;
export const authorPath = (handle: string): string => `/a/${encodeURIComponent(handle)}`;

/** The story's kind as a badge says it: a fail story with status `open` asks for help. */
export function typeLabel(story: { type: string; status: string }): string {
  if (story.type !== 'fail') return 'success';
  return story.status === 'open' ? 'fail · asks for help' : 'fail';
}
