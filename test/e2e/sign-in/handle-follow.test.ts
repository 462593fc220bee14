// Handles follow the person (docs/design.md#data): a sign-in records the handle the person has now, and a
// handle re-taken by another DID resolves to the new holder.
import { AtpAgent } from '@atproto/api';
import { describe, expect, it } from 'vitest';
import { handlesFor } from '../../../src/app/account/accounts.ts';
import { readWebSession } from '../../../src/app/sign-in/web-session.ts';
import type { TestAccount } from '../../helpers/pds/test-pds.ts';
import { signInWithBluesky } from '../../helpers/signin/sign-in-with-bluesky.ts';
import { useSignInServer } from '../../helpers/signin/use-sign-in-server.ts';

const { server, pds } = useSignInServer('e2e-handle-follow');
/** Every stored item but the rate windows (the anonymous routes are counted per IP). */
const stored = async () => (await server.app.allItems()).filter((item) => !String(item.PK).startsWith('RATE#'));

async function renameOnPds(account: TestAccount, handle: string): Promise<void> {
  const agent = new AtpAgent({ service: pds().url });
  await agent.login({ identifier: account.did, password: account.password });
  await agent.com.atproto.identity.updateHandle({ handle });
}

const handleItem = async (handle: string) => (await stored()).find((item) => item.PK === `HANDLE#${handle}`);

describe('Handles follow handle changes', () => {
  it('a renamed person signs in: same account, the new handle shown everywhere, the old handle item gone', async () => {
    const frank = await pds().createAccount('frank');
    const first = await signInWithBluesky({ baseUrl: server.baseUrl(), handle: frank.handle, password: frank.password });
    await renameOnPds(frank, 'frank-renamed.test');
    await signInWithBluesky({ baseUrl: server.baseUrl(), handle: 'frank-renamed.test', password: frank.password });
    expect((await handlesFor(server.app.ctx(), [frank.did])).get(frank.did)).toBe('frank-renamed.test');
    // The earlier browser's session shows the new handle too: it is resolved, never copied.
    expect(await readWebSession(server.app.ctx(), first.cookie)).toMatchObject({ accountId: frank.did, handle: 'frank-renamed.test' });
    expect(await handleItem('frank.test')).toBeUndefined();
    expect(await handleItem('frank-renamed.test')).toMatchObject({ account: frank.did });
  });

  it('a handle re-taken by another DID resolves to the new holder; the old holder no longer shows it', async () => {
    const gina = await pds().createAccount('gina');
    await signInWithBluesky({ baseUrl: server.baseUrl(), handle: gina.handle, password: gina.password });
    // Gina moves on without signing in to lorebook; Hal takes her old handle and signs in.
    await renameOnPds(gina, 'gina-new.test');
    const hal = await pds().createAccount('hal');
    await renameOnPds(hal, 'gina.test');
    await signInWithBluesky({ baseUrl: server.baseUrl(), handle: 'gina.test', password: hal.password });
    expect(await handleItem('gina.test')).toMatchObject({ account: hal.did });
    const handles = await handlesFor(server.app.ctx(), [gina.did, hal.did]);
    expect(handles.get(hal.did)).toBe('gina.test');
    // Two accounts never show one handle: Gina's shows her DID until she signs in again.
    expect(handles.get(gina.did)).toBe(gina.did);
    await signInWithBluesky({ baseUrl: server.baseUrl(), handle: 'gina-new.test', password: gina.password });
    expect((await handlesFor(server.app.ctx(), [gina.did])).get(gina.did)).toBe('gina-new.test');
    expect(await handleItem('gina.test')).toMatchObject({ account: hal.did });
  });
});
