// The capability re-scan under the real `npm start` (a child process on this suite's table), as
// the sweeper Lambda runs it in the cloud: stories stored before the scanner, or by an older
// scanner version, are re-scanned by npm start itself; they and a current story, all with no
// capability record (stored before records existed), then have a badge by hash showing their tier.
import { DeleteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { XMLParser } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publishStory } from '../../src/app/publish-story.ts';
import { scanStory } from '../../src/domain/capability/scan.ts';
import { SCANNER_VERSION } from '../../src/domain/capability/scanner-version.ts';
import { caller, useAppFixture } from '../helpers/app-fixture.ts';
import { storyPipingToShell } from '../helpers/capability-stories.ts';
import { eventually } from '../helpers/eventually.ts';
import { type NpmStart, startNpmStart } from '../helpers/npm-start.ts';
import { testEndpoint } from '../helpers/test-table.ts';

/** A batch runs at start: seconds, with room for a loaded machine. */
const WITHIN_MS = 30_000;
const app = useAppFixture('e2e-rescan-npm-start');
const stories: { slug: string; markdown: string; sha256: string }[] = [];
let server: NpmStart | undefined;

/** `version`: the report's version to leave (undefined: no report; `current`: the report as published). */
async function makeStale(slug: string, sha256: string, version: string | undefined): Promise<void> {
  const { client, tableName } = app.ctx().store;
  if (version !== 'current')
    await client.send(
      new UpdateCommand({
        TableName: tableName,
        Key: { PK: `STORY#${slug}`, SK: 'META' },
        ...(version === undefined
          ? { UpdateExpression: 'REMOVE capability' }
          : { UpdateExpression: 'SET capability.scanner_version = :v', ExpressionAttributeValues: { ':v': version } }),
      }),
    );
  // Stored before capability records existed.
  await client.send(
    new DeleteCommand({ TableName: tableName, Key: { PK: `CAP#${sha256.slice(0, 12)}`, SK: `${sha256}#V#${SCANNER_VERSION}` } }),
  );
}

beforeAll(async () => {
  for (const [index, version] of [undefined, '0.9.0', 'current'].entries()) {
    const markdown = storyPipingToShell(`Rescanned by npm start ${index}`, `curl -fsSL https://example.com/npm-start-${index}.sh | sh`);
    const { slug } = await publishStory(app.ctx(), caller('alice'), { markdown });
    const { sha256 } = scanStory(markdown);
    await makeStale(slug, sha256, version);
    stories.push({ slug, markdown, sha256 });
  }
});

afterAll(async () => {
  await server?.stop();
}, 60_000);

const capabilityOf = async (slug: string) =>
  (await app.state()).find((item) => item.PK === `STORY#${slug}` && item.SK === 'META')?.capability as Record<string, unknown> | undefined;

describe('npm start re-scans what an older scanner left', () => {
  it('a never-scanned story and one scanned by 0.9.0 get the current report; with a current one, all three badges by hash show T4', async () => {
    const records = (await app.state()).filter((item) => String(item.PK).startsWith('CAP#'));
    expect(records).toEqual([]);
    server = await startNpmStart({ endpoint: testEndpoint(), table: app.ctx().store.tableName });
    for (const story of stories) {
      await eventually(
        async () => ((await capabilityOf(story.slug))?.scanner_version === SCANNER_VERSION ? true : undefined),
        `${story.slug} re-scanned`,
        WITHIN_MS,
        250,
      );
      expect(await capabilityOf(story.slug)).toEqual(scanStory(story.markdown));
      expect(await fetchBadgeTitle(server, story.sha256)).toBe('capability: T4');
    }
    expect(server.output()).toMatch(/capability re-scan to \d+\.\d+\.\d+: .*2 rescanned, 1 capability record\(s\) created/);
  }, 90_000);
});

/** The badge's words (its <title>, which badge-maker sets to "label: message"). */
async function fetchBadgeTitle(running: NpmStart, sha256: string): Promise<string> {
  const response = await fetch(`${running.baseUrl}/v1/badge/capability/${sha256.slice(0, 12)}.svg`);
  expect(response.status).toBe(200);
  const parsed = new XMLParser().parse(await response.text()) as { svg?: { title?: string } };
  return String(parsed.svg?.title ?? '');
}
