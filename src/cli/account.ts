// `npm run account -- delete <handle|did>`: an operator deletes an account (design §21) — the
// same marker, outbox event and bounded steps as DELETE /v1/account, run to the end here, one
// progress line per step on stderr and the summary on stdout. Safe to run again after a crash:
// it resumes where the steps stopped.
import { parseArgs } from 'node:util';
import { deleteAccountAsOperator } from '../app/account/operator-deletion.ts';
import { readConfig } from '../config.ts';
import { stderrLog } from '../log-sink.ts';
import { openCommandContext, requireAwsSettings, type CommandContext } from './command-context.ts';

const HELP = `usage: npm run account -- delete <handle|did> [--aws] [--json]

Deletes the account and everything it wrote (docs/design.md §21): its stories become tombstones
(their pages answer 410, their Bluesky posts and standard.site documents are deleted by the
announce queue), its reproductions, checks and drift reports leave other stories' counts, and its
notifications, drafts, images, tokens, OAuth grants, web sessions, op records and rate windows are
deleted. From the first moment every token, session and refresh token of it is refused. The steps
are bounded (50 items each) and resumable: running the command again after an interruption goes on
where it stopped; running it for an account already deleted says so.

  <handle|did>  a handle (looked up), a DID (did:…) or a local account id (acct_…)

options:
  --aws       the deployed table in AWS instead of a local store: LOREBOOK_TABLE (the stack output
              TableName) and AWS_REGION are required, with your AWS credentials allowed GetItem,
              BatchGetItem, Query, PutItem, UpdateItem, DeleteItem and TransactWriteItems on it
  --json      print the summary as JSON
  -h, --help  this text

Without --aws the store is found as for npm start (docs/config.md).

exit status: 0 when the account is deleted, 1 when it could not be, 2 on a usage error.
`;

const out = (text: string): void => void process.stdout.write(`${text}\n`);

async function main(argv: string[]): Promise<number> {
  let target: string;
  let aws: boolean;
  let json: boolean;
  try {
    const { values, positionals } = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        aws: { type: 'boolean', default: false },
        json: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
    if (values.help) {
      out(HELP);
      return 0;
    }
    const [command, name, ...rest] = positionals;
    if (command !== 'delete' || name === undefined || rest.length > 0) throw new Error('expected: delete <handle|did>');
    target = name;
    aws = values.aws ?? false;
    json = values.json ?? false;
    if (aws) requireAwsSettings();
  } catch (error) {
    stderrLog(`account: ${(error as Error).message}`);
    process.stderr.write(`\n${HELP}\n`);
    return 2;
  }

  let opened: CommandContext | undefined;
  try {
    const config = readConfig();
    const log = (line: string): void => stderrLog(`account: ${line}`);
    opened = await openCommandContext(config, aws, log);
    const { ctx, where } = opened;
    log(`deleting "${target}" in table "${config.tableName}" ${where}`);
    const started = Date.now();
    const result = await deleteAccountAsOperator(ctx, target, (step) => {
      if (step.kind === 'step') log(`step: ${step.phase}, ${step.deleted} item(s)`);
    });
    const seconds = (Date.now() - started) / 1000;
    out(
      json
        ? JSON.stringify({ ...result, seconds }, null, 2)
        : `account: ${result.handle} (${result.account}) ${result.finished ? 'deleted' : 'deletion under way'} in ${result.steps} step(s), ${seconds.toFixed(1)} s`,
    );
    return result.finished ? 0 : 1;
  } catch (error) {
    stderrLog(`account: ${(error as Error).message ?? String(error)}`);
    return 1;
  } finally {
    await opened?.close();
  }
}

process.exitCode = await main(process.argv.slice(2));
