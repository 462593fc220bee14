// `npm run bsky:backfill-documents`: puts every listed, posted story whose standard.site document
// is missing or behind its revision back on the announce queue (src/outbox/document-backfill.ts),
// for the sweeper to write. Progress goes to stderr, one line per page of the feed; the summary to
// stdout.
import { parseArgs } from 'node:util';
import { readConfig } from '../config.ts';
import { stderrLog } from '../log-sink.ts';
import { backfillDocuments, type DocumentBackfillReport } from '../outbox/document-backfill.ts';
import { awsHelp, type CommandContext, openCommandContext, requireAwsSettings } from './command-context.ts';

const HELP = `usage: npm run bsky:backfill-documents [-- --dry-run] [--aws] [--json]

Every listed story (public, shown) that has its announcement post on Bluesky but no standard.site
document, or a document showing an older revision, goes back on the announce queue; the sweeper
(npm start, npm run sweep, or the sweeper function) then writes its document as it does after an
edit: looked up first, written once, bskyPostRef pointing at the post (docs/design.md#standard-site). That
covers stories announced before documents existed, and documents given up on (refused, or out of
attempts) once what refused them is fixed. A story already on the queue keeps its place. Running
this again, or beside the sweeper, queues nothing twice.

options:
  --dry-run   list the stories owed a document and queue nothing
  --aws       the deployed table in AWS instead of a local store (below); the sweeper function
              writes the documents within a minute
  --json      print the summary as JSON
  -h, --help  this text

Without --aws the store is found as for npm start (a running npm start's store is used, or
LOREBOOK_DDB_ENDPOINT, LOREBOOK_TABLE and LOREBOOK_DATA_DIR: docs/config.md). Documents are
written only where Bluesky announcing is configured (BLUESKY_*).

${awsHelp('GetItem, BatchGetItem, Query and UpdateItem (and Query on its indexes)')}

exit status: 0 when the walk ended, 1 when it could not run, 2 on a usage error.
`;

const out = (text: string): void => void process.stdout.write(`${text}\n`);

function describe(report: DocumentBackfillReport, dryRun: boolean): string {
  const owed = `${report.stories} listed stories read, ${report.owed.length} owed a document`;
  if (dryRun) return `${owed} (dry run: nothing queued)${report.owed.length > 0 ? `: ${report.owed.join(', ')}` : ''}`;
  const changed = report.changed.length > 0 ? `, ${report.changed.length} changed meanwhile and left as they are` : '';
  return `${owed}, ${report.queued.length} put on the announce queue${changed}`;
}

async function main(argv: string[]): Promise<number> {
  let dryRun: boolean;
  let aws: boolean;
  let json: boolean;
  try {
    const { values } = parseArgs({
      args: argv,
      options: {
        'dry-run': { type: 'boolean', default: false },
        aws: { type: 'boolean', default: false },
        json: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
    if (values.help) {
      out(HELP);
      return 0;
    }
    dryRun = values['dry-run'] ?? false;
    aws = values.aws ?? false;
    json = values.json ?? false;
    if (aws) requireAwsSettings();
  } catch (error) {
    stderrLog(`bsky:backfill-documents: ${(error as Error).message}`);
    process.stderr.write(`\n${HELP}\n`);
    return 2;
  }

  let opened: CommandContext | undefined;
  try {
    const log = (line: string): void => stderrLog(`bsky:backfill-documents: ${line}`);
    opened = await openCommandContext(readConfig(), aws, log);
    const { ctx, where } = opened;
    log(`${dryRun ? 'listing' : 'queueing'} the stories owed a document in table "${opened.config.tableName}" ${where}`);
    const report = await backfillDocuments(ctx, { dryRun, log });
    for (const slug of report.queued) log(`${slug}: on the announce queue`);
    for (const slug of report.changed)
      log(`${slug}: changed since it was read (edited, hidden, queued or documented meanwhile); left as it is`);
    out(json ? JSON.stringify({ dry_run: dryRun, ...report }, null, 2) : `bsky:backfill-documents: ${describe(report, dryRun)}`);
    return 0;
  } catch (error) {
    stderrLog(`bsky:backfill-documents: ${(error as Error).message ?? String(error)}`);
    return 1;
  } finally {
    await opened?.close();
  }
}

process.exitCode = await main(process.argv.slice(2));
