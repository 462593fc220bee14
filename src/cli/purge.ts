// `npm run purge -- <slug>`: an operator's redaction of one story (src/app/redaction/purge-story.ts).
// Progress goes to stderr; the summary to stdout.
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { purgeStory, type PurgeReport } from '../app/redaction/purge-story.ts';
import { readConfig } from '../config.ts';
import { stderrLog } from '../log-sink.ts';
import { openCommandContext, requireAwsSettings, type CommandContext } from './command-context.ts';

const HELP = `usage: npm run purge -- <slug> [--markdown <file>] [--aws] [--json]

Removes the stored markdown of every earlier revision of the story <slug> (their kind, time and
note stay, marked redacted), on its author's behalf, as redact_story does (docs/design.md §20):

  --markdown <file>  the redacted story (front matter and body, the same date) becomes the
                     current text, a new revision of kind "redaction"; then every earlier revision
                     is stripped
  without it         the current text is kept as it is, and every revision before it is stripped

Images that only the removed texts named, that the author uploaded, and that no stored text names
any more are deleted (their record and their file). The search index, the .md page and the
standard.site document follow within the usual lag. Running it again changes nothing.

options:
  --markdown <file>  the redacted story
  --aws              the deployed table in AWS instead of a local store: LOREBOOK_TABLE and
                     AWS_REGION are required, with your AWS credentials (AWS_PROFILE…) allowed
                     GetItem, BatchGetItem, Query, Scan, PutItem, UpdateItem, DeleteItem and
                     ConditionCheckItem on the table; images are deleted where
                     LOREBOOK_IMAGE_BUCKET is set (s3:DeleteObject)
  --json             print the summary as JSON
  -h, --help         this text

Without --aws the store is found as for npm start (a running npm start's store is used, or
LOREBOOK_DDB_ENDPOINT, LOREBOOK_TABLE and LOREBOOK_DATA_DIR: docs/config.md); images in
LOREBOOK_IMAGE_DIR.

exit status: 0 when the story was purged, 1 when it could not be (unknown slug, invalid
markdown, a store error), 2 on a usage error.
`;

const out = (text: string): void => void process.stdout.write(`${text}\n`);

function describe(report: PurgeReport): string {
  const text = report.replaced_text
    ? `the text replaced by revision ${report.outcome.revision}`
    : `the current text (revision ${report.outcome.revision}) kept`;
  return `${report.outcome.slug}: ${text}; every revision before ${report.outcome.redacted_below} has no markdown; ${report.finished.images_deleted} image(s) deleted`;
}

async function main(argv: string[]): Promise<number> {
  let slug: string;
  let markdown: string | undefined;
  let aws: boolean;
  let json: boolean;
  try {
    const { values, positionals } = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        markdown: { type: 'string' },
        aws: { type: 'boolean', default: false },
        json: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
    if (values.help) {
      out(HELP);
      return 0;
    }
    if (positionals.length !== 1) throw new Error('name exactly one story by its slug');
    slug = positionals[0] as string;
    markdown = values.markdown === undefined ? undefined : readFileSync(values.markdown, 'utf8');
    aws = values.aws ?? false;
    json = values.json ?? false;
    if (aws) requireAwsSettings();
  } catch (error) {
    stderrLog(`purge: ${(error as Error).message}`);
    process.stderr.write(`\n${HELP}\n`);
    return 2;
  }

  let opened: CommandContext | undefined;
  try {
    const config = readConfig();
    const log = (line: string): void => stderrLog(`purge: ${line}`);
    opened = await openCommandContext(config, aws, log);
    const { ctx, where } = opened;
    log(`purging "${slug}" in table "${config.tableName}" ${where}`);
    const report = await purgeStory(ctx, slug, markdown);
    out(json ? JSON.stringify(report, null, 2) : `purge: ${describe(report)}`);
    return 0;
  } catch (error) {
    stderrLog(`purge: ${(error as Error).message ?? String(error)}`);
    return 1;
  } finally {
    await opened?.close();
  }
}

process.exitCode = await main(process.argv.slice(2));
