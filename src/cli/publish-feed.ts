// `npm run bsky:publish-feed`: creates (or updates) the feed record of lorebook's Bluesky feed
// generator on the configured BLUESKY_* account, so people can find and follow the feed of new
// stories. Safe to run any number of times: the record key is stable and a record that already
// says the same is left as it is. Progress goes to stderr, the result to stdout.
import { parseArgs } from 'node:util';
import { publishFeedRecord } from '../../integrations/bluesky/feed-generator-record.ts';
import { readConfig } from '../config.ts';
import { settingsHelp } from '../settings/settings-help.ts';
import { feedUri, serviceDid } from '../domain/feed-generator.ts';

const DEFAULT_NAME = 'lorebook stories';
const DEFAULT_DESCRIPTION =
  'New stories on lorebook: what people and their agents built, what failed, what worked — and whether it worked for others.';

const HELP = `usage: npm run bsky:publish-feed [-- --display-name <text>] [--description <text>] [--json]

Publishes the feed record (app.bsky.feed.generator) of lorebook's Bluesky feed on the account
in BLUESKY_IDENTIFIER, pointing at this server's feed generator: did:web of LOREBOOK_BASE_URL's
host, served at /.well-known/did.json and /xrpc/app.bsky.feed.getFeedSkeleton. The record key is
BLUESKY_FEED_RKEY (default "lorebook"), so running this again replaces the same record, and a
record that already says the same is left untouched. Afterwards, start the server with
BLUESKY_FEED_PUBLISHER_DID set to the DID this prints, so the generator answers for the feed.

options:
  --display-name <text>   the feed's name on Bluesky, at most 24 characters (default "${DEFAULT_NAME}")
  --description <text>    at most 300 characters
  --json                  print the result as JSON
  -h, --help              this text

${settingsHelp('bsky:publish-feed')}

exit status: 0 when the record is in place, 1 when it could not be published, 2 on a usage error.
`;

const out = (text: string): void => void process.stdout.write(`${text}\n`);
const err = (text: string): void => void process.stderr.write(`${text}\n`);

async function main(argv: string[]): Promise<number> {
  let displayName = DEFAULT_NAME;
  let description = DEFAULT_DESCRIPTION;
  let json = false;
  try {
    const { values } = parseArgs({
      args: argv,
      options: {
        'display-name': { type: 'string' },
        description: { type: 'string' },
        json: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
    if (values.help) {
      out(HELP);
      return 0;
    }
    displayName = values['display-name'] ?? displayName;
    description = values.description ?? description;
    json = values.json ?? false;
    if (displayName.trim() === '' || [...displayName].length > 24) throw new Error('--display-name must be 1 to 24 characters');
    if ([...description].length > 300) throw new Error('--description must be at most 300 characters');
  } catch (error) {
    err(`publish-feed: ${(error as Error).message}\n\n${HELP}`);
    return 2;
  }

  try {
    const config = readConfig();
    if (config.bluesky === undefined) {
      err('publish-feed: set BLUESKY_SERVICE, BLUESKY_IDENTIFIER and BLUESKY_APP_PASSWORD to the account that publishes the feed.');
      return 1;
    }
    const did = serviceDid(config.http.baseUrl);
    if (!config.http.baseUrl.startsWith('https://')) {
      err(`publish-feed: WARNING ${config.http.baseUrl} is not https: Bluesky resolves ${did} only over https at a public host`);
    }
    const published = await publishFeedRecord({ ...config.bluesky }, config.feedGenerator.rkey, { did, displayName, description }, (line) =>
      err(`publish-feed: ${line}`),
    );
    err(`publish-feed: ${published.outcome} ${published.uri} (cid ${published.cid}) for the feed generator ${did}`);
    if (config.feedGenerator.publisherDid !== published.publisherDid) {
      err(
        `publish-feed: start the server with BLUESKY_FEED_PUBLISHER_DID=${published.publisherDid} so it serves ${feedUri(published.publisherDid, config.feedGenerator.rkey)}`,
      );
    }
    out(json ? JSON.stringify({ ...published, service_did: did }, null, 2) : `publish-feed: ${published.outcome} ${published.uri}`);
    return 0;
  } catch (error) {
    err(`publish-feed: ${(error as Error).message ?? String(error)}`);
    return 1;
  }
}

process.exitCode = await main(process.argv.slice(2));
