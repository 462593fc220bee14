// `npm run purge -- <slug>`: an operator's redaction of one story (src/app/redaction/purge-story.ts).
// Progress goes to stderr; the summary to stdout.
import { readFileSync } from 'node:fs';
import { type PurgeReport, purgeStory } from '../app/redaction/purge-story.ts';
import { awsHelp } from './command-context.ts';
import { type OperatorCommand, printLine, runOperatorCommand } from './operator-command.ts';

const HELP = `usage: npm run purge -- <slug> [--markdown <file>] [--aws] [--json]

Removes the stored markdown of every earlier revision of the story <slug> (their kind, time and
note stay, marked redacted), on its author's behalf, as redact_story does (docs/design.md#redaction-export):

  --markdown <file>  the redacted story (front matter and body, the same date) becomes the
                     current text, a new revision of kind "redaction"; then every earlier revision
                     is stripped
  without it         the current text is kept as it is, and every revision before it is stripped

Images that only the removed texts named, that the author uploaded, and that no stored text names
any more are deleted (their record and their file). The search index, the .md page and the
standard.site document follow within the usual lag. Running it again changes nothing.

options:
  --markdown <file>  the redacted story
  --aws              the deployed table in AWS instead of a local store (below); images are
                     deleted where LOREBOOK_IMAGE_BUCKET is set or the stack names the bucket
  --json             print the summary as JSON
  -h, --help         this text

Without --aws the store is found as for npm start (a running npm start's store is used, or
LOREBOOK_DDB_ENDPOINT, LOREBOOK_TABLE and LOREBOOK_DATA_DIR: docs/config.md); images in
LOREBOOK_IMAGE_DIR.

${awsHelp('GetItem, BatchGetItem, Query, Scan, PutItem, UpdateItem, DeleteItem and ConditionCheckItem (and s3:DeleteObject on the image bucket)')}

exit status: 0 when the story was purged, 1 when it could not be (unknown slug, invalid
markdown, a store error), 2 on a usage error.
`;

function describe(report: PurgeReport): string {
  const text = report.replaced_text
    ? `the text replaced by revision ${report.outcome.revision}`
    : `the current text (revision ${report.outcome.revision}) kept`;
  return `${report.outcome.slug}: ${text}; every revision before ${report.outcome.redacted_below} has no markdown; ${report.finished.images_deleted} image(s) deleted`;
}

interface PurgeTask {
  slug: string;
  markdown: string | undefined;
}

const purge: OperatorCommand<PurgeTask> = {
  name: 'purge',
  help: HELP,
  options: { markdown: { type: 'string' } },
  parse({ values, positionals }) {
    if (positionals.length !== 1) throw new Error('name exactly one story by its slug');
    const file = values.markdown;
    return { slug: positionals[0] as string, markdown: typeof file === 'string' ? readFileSync(file, 'utf8') : undefined };
  },
  async run({ ctx, config, where, log }, { slug, markdown }, { json }) {
    log(`purging "${slug}" in table "${config.tableName}" ${where}`);
    const report = await purgeStory(ctx, slug, markdown);
    printLine(json ? JSON.stringify(report, null, 2) : `purge: ${describe(report)}`);
    return 0;
  },
};

process.exitCode = await runOperatorCommand(purge, process.argv.slice(2));
