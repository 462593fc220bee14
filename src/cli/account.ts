// `npm run account -- delete <handle|did>`: an operator deletes an account (design.md#account-deletion) — the
// same marker, outbox event and bounded steps as DELETE /v1/account, run to the end here, one
// progress line per step on stderr and the summary on stdout. Safe to run again after a crash:
// it resumes where the steps stopped.
// `npm run account -- backfill-index`: the one-time backfill of the account index items for what
// was written before they existed (src/app/account/backfill-account-index.ts).
import { backfillAccountIndex } from '../app/account/backfill-account-index.ts';
import { deleteAccountAsOperator } from '../app/account/operator-deletion.ts';
import { awsHelp } from './command-context.ts';
import { type OpenedCommand, type OperatorCommand, printLine, runOperatorCommand } from './operator-command.ts';

const HELP = `usage: npm run account -- delete <handle|did> [--aws] [--json]
       npm run account -- backfill-index [--aws] [--json]

delete: deletes the account and everything it wrote (docs/design.md#account-deletion): its stories become
tombstones (their pages answer 410, their Bluesky posts and standard.site documents are deleted by
the announce queue), its reproductions, checks and drift reports leave other stories' counts, and
its notifications, drafts, images, tokens, OAuth grants, web sessions, op records and rate windows
are deleted. From the first moment every token, session and refresh token of it is refused. The
steps are bounded (50 items each) and resumable: running the command again after an interruption
goes on where it stopped; running it for an account already deleted says so. The last step waits
until LOREBOOK_ACCOUNT_DELETION_GRACE_SECONDS (60 s) after the request have passed, so a write the
account had under way is found too; the command waits with it.

  <handle|did>  a handle (looked up), a DID (did:…) or a local account id (acct_…)

backfill-index: once, after upgrading from a release without the account index items: Scans the
table a page of 500 items at a time (progress on stderr) and gives every report, web session and
image record written before then the index item under its account that deletion and export find
it by. Safe to run twice or in two processes at once; interrupted, run it again.

options:
  --aws       the deployed table in AWS instead of a local store (below)
  --json      print the summary as JSON
  -h, --help  this text

Without --aws the store is found as for npm start (docs/config.md).

${awsHelp('GetItem, BatchGetItem, Query, PutItem, UpdateItem, DeleteItem and TransactWriteItems (backfill-index: Scan, BatchGetItem, PutItem, ConditionCheckItem and TransactWriteItems)')}

exit status: 0 when the account is deleted (or the backfill ran to the end), 1 when it could not
be, 2 on a usage error.
`;

type AccountTask = { kind: 'delete'; target: string } | { kind: 'backfill-index' };

async function deleteNamed({ ctx, config, where, log }: OpenedCommand, target: string, json: boolean): Promise<number> {
  log(`deleting "${target}" in table "${config.tableName}" ${where}`);
  const started = Date.now();
  const result = await deleteAccountAsOperator(ctx, target, (step) => {
    if (step.kind === 'step') log(`step: ${step.phase}, ${step.deleted} item(s)`);
    if (step.kind === 'waiting') {
      log(
        `waiting ${Math.ceil((step.until - ctx.store.now()) / 1000)} s for the grace (a write the account had under way may still commit)`,
      );
    }
  });
  const seconds = (Date.now() - started) / 1000;
  printLine(
    json
      ? JSON.stringify({ ...result, seconds }, null, 2)
      : `account: ${result.handle} (${result.account}) ${result.finished ? 'deleted' : 'deletion under way'} in ${result.steps} step(s), ${seconds.toFixed(1)} s`,
  );
  return result.finished ? 0 : 1;
}

async function backfillIndex({ ctx, config, where, log }: OpenedCommand, json: boolean): Promise<number> {
  log(`backfilling the account index items in table "${config.tableName}" ${where}`);
  const counts = await backfillAccountIndex(ctx, (progress) =>
    log(`page ${progress.pages}: ${progress.found} found, ${progress.already_indexed} already indexed, ${progress.written} written`),
  );
  printLine(
    json
      ? JSON.stringify(counts, null, 2)
      : `account: backfill-index: ${counts.found} report(s), session(s) and image(s) found in ${counts.pages} page(s); ${counts.written} index item(s) written, ${counts.already_indexed} already there, ${counts.gone} gone meanwhile`,
  );
  return 0;
}

const account: OperatorCommand<AccountTask> = {
  name: 'account',
  help: HELP,
  parse({ positionals }) {
    const [command, name, ...rest] = positionals;
    if (command === 'backfill-index' && name === undefined) return { kind: 'backfill-index' };
    if (command !== 'delete' || name === undefined || rest.length > 0) throw new Error('expected: delete <handle|did>, or backfill-index');
    return { kind: 'delete', target: name };
  },
  run: (opened, task, { json }) => (task.kind === 'delete' ? deleteNamed(opened, task.target, json) : backfillIndex(opened, json)),
};

process.exitCode = await runOperatorCommand(account, process.argv.slice(2));
