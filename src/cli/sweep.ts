// `npm run sweep`: one run of the announce sweeper (docs/design.md#write-rules) — posts the stories the Bluesky
// announce queue still owes whose time has come (never tried, failed and due again, or claimed
// by a worker that died), then exits, saying what it skipped and why. `npm start` runs the same
// sweep on a timer; a scheduled Lambda would too. Progress goes to stderr, the summary to stdout
// (`--json` for scripts).
import { parseArgs } from 'node:util';
import { buildAnnouncer } from '../announcer-from-config.ts';
import { readConfig } from '../config.ts';
import { parseSlug } from '../domain/story/slug.ts';
import { stderrLog } from '../log-sink.ts';
import { type BacklogReport, DEFAULT_BACKLOG_PACE_MS, listBacklog, MAX_BACKLOG_LIST, postBacklog } from '../outbox/announce/backlog.ts';
import type { AnnounceResult } from '../outbox/announce/outcome.ts';
import { retryFailedAnnouncement } from '../outbox/announce/retry.ts';
import { describeSkip } from '../outbox/announce/skipped.ts';
import { DEFAULT_SWEEP_LIMIT, MAX_SWEEP_LIMIT, summarize, sweepAnnouncements } from '../outbox/announce/sweeper.ts';
import { settingsHelp } from '../settings/settings-help.ts';
import { awsHelp, type CommandContext, openCommandContext, requireAwsSettings } from './command-context.ts';
import { parseDuration } from './duration.ts';

const HELP = `usage: npm run sweep [-- --limit <n>] [--retry <slug>]... [--now <iso>] [--aws] [--json]
       npm run sweep -- --backlog [--since <iso>] [--pace <duration>] [--limit <n>] [--aws] [--json]
       npm run sweep -- --backlog --list [--since <iso>] [--limit <n>] [--aws] [--json]

Announces on Bluesky the stories the announce queue still owes whose time has come: never
tried (the attempt right after publishing was lost), released after a failure once their
backoff has passed, or claimed by a worker that died. Each story is claimed before it is
posted and the post goes to the story's own record key, so running this while \`npm start\`
(or another sweep) is running never posts twice. A story that keeps failing is marked
\`failed\` after LOREBOOK_ANNOUNCE_MAX_ATTEMPTS attempts; get_story shows why (announce.last_error).
The run stops early when the account refuses the app password or Bluesky rate limits it.
Every run ends by saying what it skipped and why: "1 waiting: next attempt in 12 s" (a retry waiting out
its backoff) or "1 claimed by a running worker since <time>" (an attempt in flight, taken over
only once its claim is stale), one line per story on stderr.

Announcing resumes without a flood: a story never tried and owed its announcement longer than
LOREBOOK_ANNOUNCE_MAX_AGE_HOURS when a sweep reaches it (announcing was off, or had no
credentials) is set aside, not posted ("set aside N too old"); get_story shows its author
announce.state "skipped", reason "too_old", owed_since. --backlog posts those on purpose.

options:
  --limit <n>      queue entries to look at in this run (1-${MAX_SWEEP_LIMIT}, default ${DEFAULT_SWEEP_LIMIT})
  --retry <slug>   put a failed announcement back on the queue first (attempts start again),
                   e.g. after fixing the app password; repeat for more stories
  --now <iso>      judge what is due as if it were this time, e.g. 2026-12-01T10:00:00Z: a
                   later time posts a waiting retry now, or takes over a claim that would be
                   stale by then (never a second post: the record key is looked up first);
                   what is written keeps the real clock
  --backlog        post the stories set aside as too old instead, oldest first, one every
                   --pace, progress on stderr; a second run (or two at once) posts nothing again
  --list           with --backlog: list the stories set aside (slug, owed since), oldest first,
                   at most ${MAX_BACKLOG_LIST}; posts nothing and needs no BLUESKY_* settings
  --since <iso>    with --backlog: only stories owed since this time or later
  --pace <d>       with --backlog: the wait between two posts, e.g. 30s, 2m, 500ms (default 30s,
                   well within Bluesky's rate limits)
                   with --backlog, --limit is the most stories posted (default: all of them)
  --aws            the deployed table in AWS instead of a local store (below); without the
                   BLUESKY_* settings here, --retry only puts the stories back on the queue and
                   the sweeper function posts them within a minute
  --json           print the report as JSON (with "skipped": slug, reason, next_attempt_at
                   or claimed_since and stale_at, last_error)
  -h, --help       this text

The posting account needs all three BLUESKY_* settings, or announcing is off (with --aws: the
account the stack announces as, and the app password in its BlueskySecretArn secret). Without
--aws the store is found as for npm start (a running npm start's store is used).

${awsHelp('GetItem, BatchGetItem, Query, PutItem, UpdateItem and DeleteItem (and Query on its indexes)')}

${settingsHelp('sweep')}

exit status: 0 when the run ended (whatever each story's outcome), 1 when it could not run,
2 on a usage error.
`;

const out = (text: string): void => void process.stdout.write(`${text}\n`);
const err = (text: string): void => void process.stderr.write(`${text}\n`);

/** --now: an ISO 8601 date-time with a time zone (Z or an offset), so it means one instant. */
function parseNow(raw: string): number {
  const at = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/.test(raw) ? Date.parse(raw) : Number.NaN;
  if (!Number.isFinite(at)) throw new Error(`--now must be an ISO 8601 time with a time zone, like 2026-12-01T10:00:00Z; got "${raw}"`);
  return at;
}

/** --pace: `<n>ms` or a duration like 30s, 2m. */
function parsePace(raw: string): number {
  const ms = /^\d+ms$/.test(raw) ? Number(raw.slice(0, -2)) : (parseDuration(raw) ?? Number.NaN) * 1000;
  if (!Number.isSafeInteger(ms) || ms < 0 || ms > 3_600_000)
    throw new Error(`--pace must be a duration like 30s, 2m or 500ms (at most 1h); got "${raw}"`);
  return ms;
}

interface Backlog {
  since: string | undefined;
  paceMs: number;
  /** --list: show what is set aside, post nothing. */
  list: boolean;
}

function summarizeBacklog(report: BacklogReport): string {
  const counts = Object.entries(report.outcomes).map(([outcome, count]) => `${count} ${outcome}`);
  return `backlog: ${report.taken} taken${counts.length > 0 ? `: ${counts.join(', ')}` : ''}${report.stopped === undefined ? '' : ` (stopped: ${report.stopped})`}`;
}

/** `sweep: [2/5] <slug>: posted at://…`, or with --backlog (its length unknown up front) `sweep: backlog [2] …`. */
function progress(result: AnnounceResult, index: number, of: number | 'backlog'): string {
  const detail = result.uri ?? result.error ?? (result.next_attempt_at === undefined ? '' : `next try at ${result.next_attempt_at}`);
  const position = of === 'backlog' ? `backlog [${index + 1}]` : `[${index + 1}/${of}]`;
  return `sweep: ${position} ${result.slug}: ${result.outcome}${detail === '' ? '' : ` ${detail}`}`;
}

async function main(argv: string[]): Promise<number> {
  let limit = DEFAULT_SWEEP_LIMIT;
  let json = false;
  let retry: string[] = [];
  let now: number | undefined;
  let aws = false;
  let backlog: Backlog | undefined;
  try {
    const { values } = parseArgs({
      args: argv,
      options: {
        limit: { type: 'string' },
        retry: { type: 'string', multiple: true },
        now: { type: 'string' },
        backlog: { type: 'boolean', default: false },
        list: { type: 'boolean', default: false },
        since: { type: 'string' },
        pace: { type: 'string' },
        aws: { type: 'boolean', default: false },
        json: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
    if (values.help) {
      out(HELP);
      return 0;
    }
    json = values.json ?? false;
    retry = values.retry ?? [];
    for (const slug of retry) parseSlug(slug);
    if (values.now !== undefined) now = parseNow(values.now);
    aws = values.aws ?? false;
    if (aws) requireAwsSettings();
    if (values.backlog) {
      if (retry.length > 0 || now !== undefined) throw new Error('--backlog takes neither --retry nor --now');
      backlog = {
        since: values.since === undefined ? undefined : new Date(parseNow(values.since)).toISOString(),
        paceMs: values.pace === undefined ? DEFAULT_BACKLOG_PACE_MS : parsePace(values.pace),
        list: values.list ?? false,
      };
      if (backlog.list && values.pace !== undefined) throw new Error('--list posts nothing: it takes no --pace');
      limit = Number.MAX_SAFE_INTEGER;
      if (values.limit !== undefined) {
        limit = Number(values.limit);
        if (!Number.isSafeInteger(limit) || limit < 1) throw new Error('--limit must be a whole number of 1 or more');
      }
    } else if (values.since !== undefined || values.pace !== undefined || values.list) {
      throw new Error('--since, --pace and --list go with --backlog');
    } else if (values.limit !== undefined) {
      limit = Number(values.limit);
      if (!Number.isInteger(limit) || limit < 1 || limit > MAX_SWEEP_LIMIT)
        throw new Error(`--limit must be a whole number from 1 to ${MAX_SWEEP_LIMIT}`);
    }
  } catch (error) {
    err(`sweep: ${(error as Error).message}\n\n${HELP}`);
    return 2;
  }

  let opened: CommandContext | undefined;
  try {
    const config = readConfig();
    const log = (line: string): void => stderrLog(`sweep: ${line}`);
    if (backlog?.list) {
      opened = await openCommandContext(config, aws, log);
      const setAside = await listBacklog(opened.ctx, backlog.since, limit);
      if (json) out(JSON.stringify({ set_aside: setAside }, null, 2));
      else {
        for (const story of setAside) out(`${story.slug}\towed since ${story.owed_since}`);
        const more = setAside.length === MAX_BACKLOG_LIST ? ` (the first ${MAX_BACKLOG_LIST}: use --since for the rest)` : '';
        out(`sweep: backlog: ${setAside.length} set aside${more}`);
      }
      return 0;
    }
    const announcer = buildAnnouncer(config, (line) => log(line.replace(/^lorebook: /, '')));
    // On AWS the sweeper function posts what is put back; locally nothing else would.
    if (announcer === undefined && !(aws && retry.length > 0)) {
      log('nothing was posted: announcing is off.');
      return 1;
    }
    opened = await openCommandContext(config, aws, log);
    const { ctx, where } = opened;
    const { tableName } = opened.config;
    for (const slug of retry) {
      const result = await retryFailedAnnouncement(ctx, slug);
      log(`retry ${slug}: ${result.outcome}${result.reason === undefined ? '' : ` (${result.reason})`}`);
    }
    if (announcer === undefined) {
      log(
        `announcing is off here (BLUESKY_* unset): the sweeper function of the stack posts what was put back in table "${tableName}" ${where}`,
      );
      return 0;
    }
    if (backlog !== undefined) {
      log(
        `posting the announcements set aside as too old${backlog.since === undefined ? '' : ` owed since ${backlog.since}`}, one every ${backlog.paceMs} ms, in table "${tableName}" ${where}`,
      );
      const report = await postBacklog(
        ctx,
        { ...announcer, log },
        {
          limit,
          paceMs: backlog.paceMs,
          ...(backlog.since === undefined ? {} : { since: backlog.since }),
          onStory: (result, index) => stderrLog(progress(result, index, 'backlog')),
        },
      );
      out(
        json
          ? JSON.stringify({ ...report, results: report.results.map(({ failure: _failure, ...rest }) => rest) }, null, 2)
          : `sweep: ${summarizeBacklog(report)}`,
      );
      return 0;
    }
    log(`looking at up to ${limit} due announcement(s) in table "${tableName}" ${where}`);
    // These lines quote Bluesky's own error messages: one escaped line each (src/log-sink.ts).
    const report = await sweepAnnouncements(
      ctx,
      { ...announcer, log },
      {
        limit,
        onStory: (result, index, of) => stderrLog(progress(result, index, of)),
        ...(now === undefined ? {} : { now }),
      },
    );
    for (const aside of report.set_aside)
      stderrLog(`sweep: set aside ${aside.slug}: too old, owed since ${aside.owed_since} (npm run sweep -- --backlog posts it)`);
    for (const skip of report.skipped) stderrLog(`sweep: skipped ${skip.slug}: ${describeSkip(skip, Date.parse(report.at))}`);
    out(
      json
        ? JSON.stringify({ ...report, results: report.results.map(({ failure: _failure, ...rest }) => rest) }, null, 2)
        : `sweep: ${summarize(report)}`,
    );
    return 0;
  } catch (error) {
    stderrLog(`sweep: ${(error as Error).message ?? String(error)}`);
    return 1;
  } finally {
    // Documents' plain text is made on the context's offload workers (design.md#standard-site):
    // the process ends only once they are closed.
    await opened?.close();
  }
}

process.exitCode = await main(process.argv.slice(2));
