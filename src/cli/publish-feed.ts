// `npm run bsky:publish-feed`: creates (or updates) the feed records of lorebook's Bluesky feed
// generator on the configured BLUESKY_* account — the main feed, one per LOREBOOK_FEED_TAGS tag,
// and "needs reproducers" — so people can find and follow them. Safe to run any number of times:
// each record key is stable and a record that already says the same is left as it is. Progress
// goes to stderr, the result to stdout.
import { parseArgs } from 'node:util';
import { openFeedRecordPublisher, type PublishedFeed } from '../../integrations/bluesky/feed-generator-record.ts';
import { readConfig } from '../config.ts';
import { type FeedId, feedDefinitions, feedUri, MAIN_FEED_WORDS, serviceDid } from '../domain/feed-generator.ts';
import { settingsHelp } from '../settings/settings-help.ts';

const HELP = `usage: npm run bsky:publish-feed [-- --display-name <text>] [--description <text>] [--json]

Publishes the feed records (app.bsky.feed.generator) of lorebook's Bluesky feeds on the account
in BLUESKY_IDENTIFIER, each pointing at this server's feed generator: did:web of
LOREBOOK_BASE_URL's host, served at /.well-known/did.json and /xrpc/app.bsky.feed.getFeedSkeleton,
and each saying acceptsInteractions (show more / show less, /xrpc/app.bsky.feed.sendInteractions).
The feeds: the main one at BLUESKY_FEED_RKEY (default "lorebook"), one per tag in
LOREBOOK_FEED_TAGS at tag-<tag>, and "needs reproducers" at needs-repro. Running this again
replaces the same records, and a record that already says the same is left untouched.
Afterwards, start the server with BLUESKY_FEED_PUBLISHER_DID set to the DID this prints, so the
generator answers for the feeds.

options:
  --display-name <text>   the main feed's name on Bluesky, at most 24 characters (default "${MAIN_FEED_WORDS.displayName}")
  --description <text>    the main feed's description, at most 300 characters
  --json                  print the result as JSON
  -h, --help              this text

${settingsHelp('bsky:publish-feed')}

exit status: 0 when every record is in place, 1 when one could not be published, 2 on a usage error.
`;

const out = (text: string): void => void process.stdout.write(`${text}\n`);
const err = (text: string): void => void process.stderr.write(`${text}\n`);

async function main(argv: string[]): Promise<number> {
  let displayName = MAIN_FEED_WORDS.displayName;
  let description = MAIN_FEED_WORDS.description;
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
    const feeds = feedDefinitions(config.feedGenerator.rkey, config.feedGenerator.tags, { displayName, description });
    const publisher = await openFeedRecordPublisher({ ...config.bluesky }, (line) => err(`publish-feed: ${line}`));
    const published: Array<PublishedFeed & { feed: FeedId }> = [];
    for (const [index, feed] of feeds.entries()) {
      const { displayName: name, description: words } = feed;
      const result = await publisher.publish(feed.rkey, { did, displayName: name, description: words, acceptsInteractions: true });
      published.push({ feed: feed.id, ...result });
      err(`publish-feed: [${index + 1}/${feeds.length}] ${result.outcome} ${feed.id} ${result.uri} (cid ${result.cid})`);
    }
    err(`publish-feed: ${feeds.length} feed records in place for the feed generator ${did}`);
    if (config.feedGenerator.publisherDid !== publisher.repo) {
      err(
        `publish-feed: start the server with BLUESKY_FEED_PUBLISHER_DID=${publisher.repo} so it serves ${feedUri(publisher.repo, config.feedGenerator.rkey)} and the others`,
      );
    }
    if (json) out(JSON.stringify({ service_did: did, publisherDid: publisher.repo, feeds: published }, null, 2));
    else for (const result of published) out(`publish-feed: ${result.outcome} ${result.uri}`);
    return 0;
  } catch (error) {
    err(`publish-feed: ${(error as Error).message ?? String(error)}`);
    return 1;
  }
}

process.exitCode = await main(process.argv.slice(2));
