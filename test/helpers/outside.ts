// Writes that stand for other processes (another device, an editor, the announcer, the
// dispatcher) go through a client of their own, so the app's round-trip counter and race hooks
// never see them.
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { afterAll } from 'vitest';
import type { AppContext } from '../../src/app/context/app-context.ts';
import { VerifiedTokens } from '../../src/app/context/verified-tokens.ts';
import { createStoreClient } from '../../src/store/client.ts';
import type { AppFixture } from './app-fixture.ts';
import { testEndpoint } from './test-table.ts';

/**
 * Call at the top of a suite, like useAppFixture. Answers the fixture's context (its table and
 * clock) on one outside client, created on first use and destroyed after the suite.
 */
export function useOutside(app: AppFixture): (fixture?: AppFixture) => AppContext {
  let client: DynamoDBDocumentClient | undefined;
  afterAll(() => client?.destroy());
  return (fixture = app) => {
    client ??= createStoreClient({ endpoint: testEndpoint() });
    // Another process remembers its own tokens, never the app's.
    return { ...fixture.ctx(), store: { ...fixture.ctx().store, client }, verifiedTokens: new VerifiedTokens() };
  };
}
