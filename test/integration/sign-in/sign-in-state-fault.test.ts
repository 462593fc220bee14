// A sign-in callback whose consume of the pending state meets a store failure is told the store
// is unavailable (retryable) — never that the sign-in was unknown or already used — and the
// state stays pending for the retry. Written for the survivors of the targeted mutation run
// (docs/mutation-survivors.md).
import { describe, expect, it } from 'vitest';
import { createStateStore } from '../../../src/app/sign-in/bluesky-oauth-stores.ts';
import { useAppFixture } from '../../helpers/app-fixture.ts';
import { injectStoreFault } from '../../helpers/inject-store-fault.ts';

const fixture = useAppFixture('integration-sign-in-state-fault');

describe('consuming a pending sign-in state', () => {
  it('a store failure is store_unavailable, and the state is still there to be consumed once by the retry', async () => {
    const states = createStateStore(fixture.ctx());
    const saved = {
      iss: 'http://127.0.0.1:9',
      verifier: 'v',
      dpopJwk: { kty: 'EC' },
      appState: '{"return_to":"/"}',
    } as unknown as Parameters<typeof states.set>[1];
    await states.set('state-with-a-fault', saved);
    const before = await fixture.state();
    // The consume is the get's one call.
    const fault = injectStoreFault(fixture.ctx().store.client, { call: 0, moment: 'before' });
    try {
      await expect(states.get('state-with-a-fault')).rejects.toMatchObject({ code: 'store_unavailable' });
    } finally {
      fault.remove();
    }
    expect(await fixture.state()).toEqual(before);
    expect(await states.get('state-with-a-fault')).toEqual(saved);
    expect(await states.get('state-with-a-fault')).toBeUndefined();
  });
});
