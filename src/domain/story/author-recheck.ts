// The author's re-run (docs/design.md#re-run). The author's own reproduction is never counted, but
// readers learn whether the author re-ran the story, how it went, and whether the story has
// changed in substance since: a correction or an addition newer than that report makes it
// outdated. A rephrase changes no step, so it leaves the re-check current.

export type RecheckResult = 'worked' | 'partial' | 'failed';

/** The author's own report: its result and when it was last replaced. */
export interface AuthorReport {
  result: RecheckResult;
  at: string;
}

export interface RevisionMark {
  revision: number;
  kind: string;
  at: string;
}

export interface AuthorRecheck {
  result: RecheckResult;
  at: string;
  /** `current` until a correction or addition lands after the report. */
  state: 'current' | 'outdated';
  /** The newest correction or addition after the report, when outdated. */
  changed_by?: { revision: number; kind: 'correction' | 'addition'; at: string };
}

const CHANGES_IN_SUBSTANCE = new Set(['correction', 'addition']);

/** The author's re-check as of `revisions` (any order); undefined when the author never reported. */
export function authorRecheck(report: AuthorReport | undefined, revisions: readonly RevisionMark[]): AuthorRecheck | undefined {
  if (report === undefined) return undefined;
  // ISO timestamps from one clock sort as strings; a revision at the report's own instant is not newer.
  const newer = revisions
    .filter((revision) => CHANGES_IN_SUBSTANCE.has(revision.kind) && revision.at > report.at)
    .sort((a, b) => b.revision - a.revision)[0];
  if (newer === undefined) return { result: report.result, at: report.at, state: 'current' };
  return {
    result: report.result,
    at: report.at,
    state: 'outdated',
    changed_by: { revision: newer.revision, kind: newer.kind as 'correction' | 'addition', at: newer.at },
  };
}

const RESULT_WORDS: Record<RecheckResult, string> = { worked: 'still works', partial: 'partly works', failed: 'failed' };

/** What the re-check says, in the words the page and get_story's `text` use; `day` formats a date. */
export function recheckText(recheck: AuthorRecheck, day: (iso: string) => string): string {
  if (recheck.state === 'outdated' && recheck.changed_by !== undefined) {
    return `not re-checked by the author since the ${recheck.changed_by.kind} of ${day(recheck.changed_by.at)}`;
  }
  return `author re-checked ${day(recheck.at)} — ${RESULT_WORDS[recheck.result]}`;
}
