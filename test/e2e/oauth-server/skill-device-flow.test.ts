// The skill's two device-flow examples (skills/lorebook/SKILL.md, `sh device-flow`), run as an
// agent's shell would against the server with sign-in on: the start block, then a person signs in
// with Bluesky (the real test PDS) and approves the code on /device, then the poll block — whose
// token must work on the skill's next call. `npm start` has no sign-in without a Bluesky client,
// so these run here; every other example runs against `npm start` (test/e2e/skill.test.ts).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SKILL } from '../../../src/domain/skill/skill-document.ts';
import { signInWithBluesky } from '../../helpers/signin/sign-in-with-bluesky.ts';
import { useSignInServer } from '../../helpers/signin/use-sign-in-server.ts';
import { inSkillWorkdir, runSkillSession, SKILL_TOOLS_MISSING, skillExamples } from '../../helpers/skill-examples.ts';

const { server, pds } = useSignInServer('e2e-skill-device-flow');

describe.skipIf(SKILL_TOOLS_MISSING.length > 0)(
  `the skill's device-flow examples${SKILL_TOOLS_MISSING.length > 0 ? ` (skipped: no ${SKILL_TOOLS_MISSING.join(' or ')} on PATH)` : ''}`,
  () => {
    it('start, the person approves, one poll: LOREBOOK_TOKEN is set and the next call with it is answered 2xx', async () => {
      const [start, poll] = skillExamples().filter((example) => example.info === 'sh device-flow');
      const notifications = skillExamples().find((example) => example.code.includes('/v1/notifications'));
      if (start === undefined || poll === undefined || notifications === undefined) throw new Error('SKILL.md lost an example');
      const env = { LOREBOOK_URL: server.baseUrl(), LOREBOOK_SKILL: SKILL.version };

      await inSkillWorkdir(async (workdir) => {
        const started = await runSkillSession([start], env, workdir);
        expect(started, started.stderr).toMatchObject({ exitCode: 0 });
        const { user_code: userCode } = JSON.parse(readFileSync(join(workdir, 'device.json'), 'utf8')) as { user_code: string };
        expect(started.stdout).toContain(`approve code ${userCode}`);

        const account = await pds().createAccount('skilled');
        const { cookie } = await signInWithBluesky({ baseUrl: server.baseUrl(), handle: account.handle, password: account.password });
        const approved = await server.fetch('/device', {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded', cookie, origin: server.baseUrl() },
          body: new URLSearchParams({ user_code: userCode, decision: 'approve' }).toString(),
        });
        expect(approved.status).toBe(200);

        const polled = await runSkillSession([poll, notifications], env, workdir, 'test -n "$LOREBOOK_TOKEN"');
        expect(polled, polled.stderr).toMatchObject({ exitCode: 0, failedAt: undefined });
      });
    }, 60_000);

    it('before the person approves, the poll block leaves LOREBOOK_TOKEN empty, so no call is made with a pending answer', async () => {
      const [start, poll] = skillExamples().filter((example) => example.info === 'sh device-flow');
      if (start === undefined || poll === undefined) throw new Error('SKILL.md lost an example');
      const env = { LOREBOOK_URL: server.baseUrl(), LOREBOOK_SKILL: SKILL.version };
      await inSkillWorkdir(async (workdir) => {
        const outcome = await runSkillSession([start, poll], env, workdir, 'printf "token=[%s]" "$LOREBOOK_TOKEN"; jq -r .error poll.json');
        expect(outcome, outcome.stderr).toMatchObject({ exitCode: 0 });
        expect(outcome.stdout).toContain('token=[]');
        expect(outcome.stdout).toContain('authorization_pending');
      });
    }, 60_000);
  },
);
