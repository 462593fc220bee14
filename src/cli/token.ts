// `npm run token -- <create|list|revoke>`: the admin CLI that issues bearer tokens (docs/design.md#surfaces).
// It talks to the DynamoDB of a running `npm start`, or runs DynamoDB Local on the same data dir
// for the duration of the command (src/cli/local-store.ts), or to LOREBOOK_DDB_ENDPOINT if set;
// with `--aws`, to the deployed table (command-context.ts). `npm run token:aws` is this with --aws.
// Progress goes to stderr, answers to stdout (`--json` for scripts).
import { parseArgs } from 'node:util';
import type { AppContext } from '../app/context/app-context.ts';
import { parseInput } from '../app/input/parse-input.ts';
import {
  type CreatedToken,
  createToken,
  createTokenInputSchema,
  listTokens,
  listTokensInputSchema,
  type RevokedToken,
  revokeToken,
  revokeTokenInputSchema,
  type TokenList,
} from '../app/oauth-server/tokens.ts';
import { readConfig } from '../config.ts';
import { isLorebookError, type LorebookError } from '../domain/errors.ts';
import { settingsHelp } from '../settings/settings-help.ts';
import { awsHelp, type CommandContext, openCommandContext, requireAwsSettings } from './command-context.ts';
import { parseDuration } from './duration.ts';

const HELP = `usage: npm run token -- <command> [options] [--aws]

Manage the bearer tokens of accounts. A token is shown once, when it is created; only its
sha256 is stored. Every token expires.

commands:
  create --handle <handle> [--expires <duration>] [--client <name>]
      Issue a token for the handle, creating the local account on first use.
      --expires   how long it is valid: 30d (default), 12h, 90m, 3600s, 2w, 1y; at most 365d
      --client    who it is for (e.g. claude-code), shown by list
  list --handle <handle>
      The live tokens of the handle: id, client, created, expires (never the token itself).
  revoke <token_id>
      Revoke a token by the id that list shows (or by the token itself). Revoking twice is fine.

options:
  --aws       the deployed table in AWS instead of a local store (below); npm run token:aws -- <command>
              is an alias of npm run token -- <command> --aws
  --json      print the answer as JSON (for scripts)
  -h, --help  this text

examples:
  npm run token -- create --handle alice --expires 30d
  npm run token -- list --handle alice
  npm run token -- revoke 3f5a…(64 hex characters)
  AWS_REGION=eu-west-1 npm run token -- create --handle you --aws

Use a token as the header  Authorization: Bearer <token>  on /mcp and /v1, e.g.
  claude mcp add --transport http lorebook http://127.0.0.1:8787/mcp --header "Authorization: Bearer <token>"

store: the DynamoDB Local of a running \`npm start\` (found through <data dir>/../endpoint); if none
is running, this command starts DynamoDB Local on the same data dir and stops it when done.

${awsHelp('GetItem, Query, PutItem, UpdateItem and DeleteItem')}

${settingsHelp('token')}
`;

const DEFAULT_EXPIRES = '30d';

class UsageError extends Error {}

type Answer = { kind: 'create'; value: CreatedToken } | { kind: 'list'; value: TokenList } | { kind: 'revoke'; value: RevokedToken };

type Command = (ctx: AppContext) => Promise<Answer>;

interface Parsed {
  command: Command;
  json: boolean;
  aws: boolean;
}

function parseCommand(argv: string[]): Parsed | 'help' {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      handle: { type: 'string' },
      expires: { type: 'string' },
      client: { type: 'string' },
      aws: { type: 'boolean', default: false },
      json: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  const [name, ...rest] = positionals;
  if (values.help || name === undefined || name === 'help') return 'help';
  const json = values.json ?? false;
  const aws = values.aws ?? false;
  if (aws) requireAwsSettings();
  const handle = values.handle;
  switch (name) {
    case 'create': {
      if (handle === undefined) throw new UsageError('create needs --handle <handle>');
      const expires = values.expires ?? DEFAULT_EXPIRES;
      const expiresInSeconds = parseDuration(expires);
      if (expiresInSeconds === undefined) throw new UsageError(`--expires "${expires}" is not a duration like 30d, 12h, 90m or 3600s`);
      const input = { handle, expiresInSeconds, ...(values.client === undefined ? {} : { client: values.client }) };
      // Checked before any store is opened: a typo costs no DynamoDB Local start.
      parseInput(createTokenInputSchema, input, 'token create');
      return { json, aws, command: async (ctx) => ({ kind: 'create', value: await createToken(ctx, input) }) };
    }
    case 'list': {
      if (handle === undefined) throw new UsageError('list needs --handle <handle>');
      const input = { handle };
      parseInput(listTokensInputSchema, input, 'token list');
      return { json, aws, command: async (ctx) => ({ kind: 'list', value: await listTokens(ctx, input) }) };
    }
    case 'revoke': {
      const [id] = rest;
      if (id === undefined) throw new UsageError('revoke needs the token id: npm run token -- revoke <token_id> (ids come from `list`)');
      const input = { token_id: id };
      parseInput(revokeTokenInputSchema, input, 'token revoke');
      return { json, aws, command: async (ctx) => ({ kind: 'revoke', value: await revokeToken(ctx, input) }) };
    }
    default:
      throw new UsageError(`unknown command "${name}": use create, list or revoke`);
  }
}

function render(answer: Answer): string {
  switch (answer.kind) {
    case 'create': {
      const t = answer.value;
      return [
        `Token for ${t.handle} (account ${t.account}), valid until ${t.expires_at}:`,
        '',
        `  ${t.token}`,
        '',
        'This is the only time it is shown; only its hash is stored. Send it as',
        `  Authorization: Bearer ${t.token}`,
        `token id (for list and revoke): ${t.token_id}`,
      ].join('\n');
    }
    case 'list': {
      const { handle, account, tokens } = answer.value;
      if (tokens.length === 0) return `${handle} (account ${account}) has no live tokens.`;
      const lines = tokens.map((t) => `${t.token_id}  ${t.client ?? '-'}  created ${t.created_at}  expires ${t.expires_at}`);
      return [`${handle} (account ${account}), ${tokens.length} live token(s):`, 'token id  client  created  expires', ...lines].join('\n');
    }
    case 'revoke':
      return answer.value.revoked
        ? `Revoked ${answer.value.token_id}.`
        : `No live token has the id ${answer.value.token_id} (already revoked, expired, or never issued). Nothing changed.`;
  }
}

const out = (text: string): void => void process.stdout.write(`${text}\n`);
const err = (text: string): void => void process.stderr.write(`${text}\n`);

function printRefusal(error: LorebookError, json: boolean): void {
  if (json) out(JSON.stringify(error.toBody(), null, 2));
  err(`token: ${error.message}`);
  const fields = (error.details?.fields ?? {}) as Record<string, string>;
  for (const [field, fix] of Object.entries(fields)) err(`  ${field}: ${fix}`);
}

async function main(argv: string[]): Promise<number> {
  let parsed: ReturnType<typeof parseCommand>;
  try {
    parsed = parseCommand(argv);
  } catch (error) {
    if (isLorebookError(error)) {
      printRefusal(error, argv.includes('--json'));
      return 2;
    }
    err(`token: ${(error as Error).message}\n\n${HELP}`);
    return 2;
  }
  if (parsed === 'help') {
    out(HELP);
    return 0;
  }
  let opened: CommandContext | undefined;
  const onSignal = (): void => void Promise.resolve(opened?.close()).finally(() => process.exit(130));
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    const log = (line: string): void => err(`token: ${line}`);
    opened = await openCommandContext(readConfig(), parsed.aws, log);
    const { ctx } = opened;
    if (parsed.aws) log(`table "${opened.config.tableName}" ${opened.where}`);
    const answer = await parsed.command(ctx);
    out(parsed.json ? JSON.stringify(answer.value, null, 2) : render(answer));
    return 0;
  } catch (error) {
    if (isLorebookError(error)) {
      printRefusal(error, parsed.json);
      return 1;
    }
    err(`token: ${(error as Error).message ?? String(error)}`);
    return 1;
  } finally {
    await opened?.close();
  }
}

process.exitCode = await main(process.argv.slice(2));
