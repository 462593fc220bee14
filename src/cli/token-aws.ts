// `npm run token:aws -- <create|list|revoke>`: issues, lists and revokes bearer tokens on the
// deployed table in AWS. `npm run token` only talks to DynamoDB Local (it starts one, or takes
// LOREBOOK_DDB_ENDPOINT with local credentials); this one uses your AWS credentials (the default
// chain: AWS_PROFILE, env, SSO…) on the table the stack created, and never creates a table.
// The same use cases as `npm run token` (src/app/oauth-server/tokens.ts), so a token works the same way.
import { parseArgs } from 'node:util';
import { createToken, listTokens, revokeToken } from '../app/oauth-server/tokens.ts';
import { readConfig } from '../config.ts';
import { buildContext } from '../context.ts';
import { isLorebookError } from '../domain/errors.ts';
import { readSettings } from '../settings/read-settings.ts';
import { settingsHelp } from '../settings/settings-help.ts';
import { parseDuration } from './duration.ts';

const HELP = `usage: npm run token:aws -- <command> [options]

Tokens on the deployed lorebook table (AWS). A token is shown once, when it is created.

commands:
  create --handle <handle> [--expires <duration>] [--client <name>]
      issue a token (the account is created on first use); --expires 30d (default), 12h, 1y…
  list --handle <handle>      the handle's live tokens (ids, never the tokens)
  revoke <token_id>           revoke by the id list shows; revoking twice is fine

LOREBOOK_TABLE (the stack output TableName) and AWS_REGION (the stack's region) are required;
credentials (AWS_PROFILE…) need GetItem/PutItem/UpdateItem/DeleteItem/Query on the table.

${settingsHelp('token:aws')}

example:
  LOREBOOK_TABLE=Lorebook-TableCD117FA1-XXXX AWS_REGION=eu-west-1 npm run token:aws -- create --handle you
`;

const out = (text: string): void => void process.stdout.write(`${text}\n`);
const err = (text: string): void => void process.stderr.write(`${text}\n`);

async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      handle: { type: 'string' },
      expires: { type: 'string' },
      client: { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  const [command, id] = positionals;
  if (values.help || command === undefined) {
    out(HELP);
    return values.help ? 0 : 2;
  }
  const settings = readSettings();
  if (!settings.LOREBOOK_TABLE || (!settings.AWS_REGION && !settings.LOREBOOK_DDB_ENDPOINT)) {
    err('token:aws: set LOREBOOK_TABLE (the stack output TableName) and AWS_REGION');
    return 2;
  }
  const config = readConfig();
  const ctx = buildContext(config);
  err(`token:aws: table "${config.tableName}" ${config.ddbEndpoint === undefined ? `in ${config.region}` : `at ${config.ddbEndpoint}`}`);
  try {
    if (command === 'create' && values.handle !== undefined) {
      const expiresInSeconds = parseDuration(values.expires ?? '30d');
      if (expiresInSeconds === undefined) throw new Error(`--expires "${values.expires}" is not a duration like 30d, 12h or 90m`);
      const created = await createToken(ctx, {
        handle: values.handle,
        expiresInSeconds,
        ...(values.client === undefined ? {} : { client: values.client }),
      });
      out(
        `Token for ${created.handle} (account ${created.account}), valid until ${created.expires_at}:\n\n  ${created.token}\n\nShown once; send it as  Authorization: Bearer <token>. Token id: ${created.token_id}`,
      );
    } else if (command === 'list' && values.handle !== undefined) {
      const listed = await listTokens(ctx, { handle: values.handle });
      out(
        listed.tokens.length === 0
          ? `${listed.handle} has no live tokens.`
          : listed.tokens.map((t) => `${t.token_id}  ${t.client ?? '-'}  expires ${t.expires_at}`).join('\n'),
      );
    } else if (command === 'revoke' && id !== undefined) {
      const revoked = await revokeToken(ctx, { token_id: id });
      out(revoked.revoked ? `Revoked ${revoked.token_id}.` : `No live token has the id ${revoked.token_id}; nothing changed.`);
    } else {
      err(`token:aws: "${positionals.join(' ')}" is not a command this understands\n\n${HELP}`);
      return 2;
    }
    return 0;
  } catch (error) {
    err(`token:aws: ${isLorebookError(error) ? error.message : ((error as Error).message ?? String(error))}`);
    return 1;
  } finally {
    ctx.store.client.destroy();
  }
}

process.exitCode = await main(process.argv.slice(2));
