// Signing out is safe to deliver twice: a browser without a session, or a second logout racing
// the first, ends nothing, writes nothing and says so (`ended: false`). Written for the uncovered
// mutants of the targeted mutation run (docs/mutation-survivors.md).
import { describe, expect, it } from 'vitest';
import { endWebSession, readWebSession, startWebSession, WEB_SESSION_COOKIE } from '../../../src/app/sign-in/web-session.ts';
import { useAppFixture } from '../../helpers/app-fixture.ts';
import { afterNextRead } from '../../helpers/interleave.ts';

const fixture = useAppFixture('integration-web-session-logout');

describe('logout', () => {
  it("without a session cookie (none, or not of lorebook's shape) it ends nothing and writes nothing", async () => {
    await startWebSession(fixture.ctx(), 'did:plc:staysignedin');
    const before = await fixture.state();
    for (const header of [undefined, '', 'other=1', `${WEB_SESSION_COOKIE}=lbs_short`]) {
      expect(await endWebSession(fixture.ctx(), header)).toEqual({ ended: false });
    }
    expect(await fixture.state()).toEqual(before);
  });

  it('two logouts at the same moment: one ends the session, the other finds it gone and says ended: false', async () => {
    const session = await startWebSession(fixture.ctx(), 'did:plc:loggingout');
    const cookie = `${WEB_SESSION_COOKIE}=${session.cookieValue}`;
    let first: unknown;
    // The competing logout lands after the second one read the session and before it deletes it.
    afterNextRead(
      fixture.ctx(),
      async () => {
        first = await endWebSession(fixture.ctx(), cookie);
      },
      'GetItem',
    );
    const second = await endWebSession(fixture.ctx(), cookie);
    expect(first).toEqual({ ended: true });
    expect(second).toEqual({ ended: false });
    expect(await readWebSession(fixture.ctx(), cookie)).toBeUndefined();
    expect(
      (await fixture.state()).filter((item) => String(item.PK).startsWith('WEBSESS#') && item.account === 'did:plc:loggingout'),
    ).toEqual([]);
  });
});
