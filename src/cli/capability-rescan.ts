// `npm run capability:rescan`: the capability re-scan job run by hand (docs/capability.md, "The
// re-scan"): batch after batch from where the job got to, until the walk has read every story.
// The sweeper and `npm start` run the same batches on their own schedule; running this beside
// them is harmless. Progress goes to stderr, one line per batch; the summary to stdout.
import { parseArgs } from 'node:util';
import type { RescanBatchReport } from '../app/capability/rescan/batch.ts';
import {
  DEFAULT_RESCAN_BATCH,
  DEFAULT_RESCAN_STORIES,
  describeBatch,
  MAX_RESCAN_BATCH,
  rescanBatch,
} from '../app/capability/rescan/batch.ts';
import { readConfig } from '../config.ts';
import { SCANNER_VERSION } from '../domain/capability/scanner-version.ts';
import { stderrLog } from '../log-sink.ts';
import type { RescanPosition } from '../store/story/rescan-job-items.ts';
import { awsHelp, type CommandContext, openCommandContext, requireAwsSettings } from './command-context.ts';

const HELP = `usage: npm run capability:rescan [-- --dry-run] [--batch <n>] [--stories <n>] [--max-batches <n>] [--restart] [--aws] [--json]

Re-scans the stories whose capability report was made by an older scanner version than this
code's (${SCANNER_VERSION}), or that were never scanned, from their current text. Each new
report replaces the old one only while the story is still at the revision that was scanned (an
edit in the meantime wins), and a publicly listed story's text gets its capability record for
GET /v1/badge/capability/{sha12}.svg (current stories too, when theirs is missing: stories
stored before records existed). A rerun, or a second run at the same time, changes
nothing more. The job keeps its position in the table: a run that was stopped resumes where it
was, and a finished walk reads nothing more. The sweeper (AWS) and npm start run the same
batches every minute.

options:
  --dry-run          list the stale stories and write nothing (the position does not move)
  --batch <n>        items each batch reads (1-${MAX_RESCAN_BATCH}, default ${DEFAULT_RESCAN_BATCH}; every kind of item counts)
  --stories <n>      stale stories each batch re-scans at most (1-${MAX_RESCAN_BATCH}, default ${DEFAULT_RESCAN_STORIES})
  --max-batches <n>  stop after this many batches (default: until the walk is finished)
  --restart          walk from the first story again, even when this version's walk has finished
  --aws              the deployed table in AWS instead of a local store (below)
  --json             print the summary as JSON
  -h, --help         this text

Without --aws the store is found as for npm start (a running npm start's store is used, or
LOREBOOK_DDB_ENDPOINT, LOREBOOK_TABLE and LOREBOOK_DATA_DIR: docs/config.md).

${awsHelp('GetItem, BatchGetItem, Query, Scan, PutItem and UpdateItem')}

exit status: 0 when the run ended, 1 when it could not run, 2 on a usage error.
`;

const out = (text: string): void => void process.stdout.write(`${text}\n`);

interface Options {
  dryRun: boolean;
  batch: number;
  stories: number;
  maxBatches: number;
  restart: boolean;
  aws: boolean;
  json: boolean;
}

function whole(name: string, raw: string | undefined, fallback: number, max: number): number {
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1 || value > max) throw new Error(`--${name} must be a whole number from 1 to ${max}`);
  return value;
}

function parseOptions(argv: string[]): Options | 'help' {
  const { values } = parseArgs({
    args: argv,
    options: {
      'dry-run': { type: 'boolean', default: false },
      batch: { type: 'string' },
      stories: { type: 'string' },
      'max-batches': { type: 'string' },
      restart: { type: 'boolean', default: false },
      aws: { type: 'boolean', default: false },
      json: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) return 'help';
  return {
    dryRun: values['dry-run'] ?? false,
    batch: whole('batch', values.batch, DEFAULT_RESCAN_BATCH, MAX_RESCAN_BATCH),
    stories: whole('stories', values.stories, DEFAULT_RESCAN_STORIES, MAX_RESCAN_BATCH),
    maxBatches: whole('max-batches', values['max-batches'], Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER),
    restart: values.restart ?? false,
    aws: values.aws ?? false,
    json: values.json ?? false,
  };
}

const where = (position: RescanPosition): string => (position.at === 'key' ? `after ${position.key.PK}` : position.at);

async function main(argv: string[]): Promise<number> {
  let options: Options;
  try {
    const parsed = parseOptions(argv);
    if (parsed === 'help') {
      out(HELP);
      return 0;
    }
    options = parsed;
    if (options.aws) requireAwsSettings();
  } catch (error) {
    stderrLog(`capability:rescan: ${(error as Error).message}`);
    process.stderr.write(`\n${HELP}\n`);
    return 2;
  }

  let opened: CommandContext | undefined;
  try {
    const log = (line: string): void => stderrLog(`capability:rescan: ${line}`);
    opened = await openCommandContext(readConfig(), options.aws, log);
    const { ctx } = opened;
    log(
      `${options.dryRun ? 'listing' : 're-scanning'} stories scanned before ${SCANNER_VERSION} in table "${opened.config.tableName}" ${opened.where}`,
    );
    const reports: RescanBatchReport[] = [];
    let from: RescanPosition | undefined = options.restart ? { at: 'start' } : undefined;
    for (let batch = 1; batch <= options.maxBatches; batch += 1) {
      const report = await rescanBatch(ctx, {
        limit: options.batch,
        maxStories: options.stories,
        dryRun: options.dryRun,
        ...(from === undefined ? {} : { from }),
      });
      reports.push(report);
      for (const result of report.results) {
        const detail =
          'reason' in result && result.reason !== undefined
            ? ` (${result.reason})`
            : 'tier' in result && result.tier !== undefined
              ? ` ${result.tier}`
              : '';
        stderrLog(`capability:rescan: ${result.slug}: ${result.outcome} (was ${result.from_version ?? 'never scanned'})${detail}`);
      }
      for (const slug of report.recorded) stderrLog(`capability:rescan: ${slug}: capability record created`);
      stderrLog(`capability:rescan: batch ${batch} from ${where(report.from)}: ${describeBatch(report)}`);
      if (report.next.at === 'end') break;
      // A dry run moves nothing, so it carries its own position; a real run reads the stored one.
      from = options.dryRun ? report.next : undefined;
    }
    const summary = summarize(reports, options.dryRun);
    out(options.json ? JSON.stringify(summary, null, 2) : `capability:rescan: ${describeSummary(summary)}`);
    return 0;
  } catch (error) {
    stderrLog(`capability:rescan: ${(error as Error).message ?? String(error)}`);
    return 1;
  } finally {
    await opened?.close();
  }
}

interface Summary {
  scanner_version: string;
  dry_run: boolean;
  batches: number;
  items_read: number;
  stories: number;
  outcomes: Record<string, number>;
  /** Current, listed stories whose missing capability record was created. */
  records_created: number;
  finished: boolean;
}

function summarize(reports: readonly RescanBatchReport[], dryRun: boolean): Summary {
  const outcomes: Record<string, number> = {};
  for (const result of reports.flatMap((report) => report.results)) outcomes[result.outcome] = (outcomes[result.outcome] ?? 0) + 1;
  return {
    scanner_version: SCANNER_VERSION,
    dry_run: dryRun,
    batches: reports.length,
    items_read: reports.reduce((sum, report) => sum + report.looked_at, 0),
    stories: reports.reduce((sum, report) => sum + report.stories, 0),
    outcomes,
    records_created: reports.reduce((sum, report) => sum + report.recorded.length, 0),
    finished: reports.at(-1)?.next.at === 'end',
  };
}

function describeSummary(summary: Summary): string {
  const outcomes = Object.entries(summary.outcomes).map(([outcome, n]) => `${n} ${outcome}`);
  const records = summary.records_created > 0 ? `, ${summary.records_created} capability record(s) created` : '';
  return `${summary.batches} batch(es), ${summary.stories} stor(ies) read, ${outcomes.length === 0 ? 'none stale' : outcomes.join(', ')}${records}; ${summary.finished ? 'the walk is finished' : 'stopped before the end: run again to resume'}`;
}

process.exitCode = await main(process.argv.slice(2));
